/// The MPEG-4 AudioSpecificConfig an `esds` carries: which AAC, at what rate, how many channels.
struct AudioSpecificConfig: Sendable, Equatable {
  /// The object type first signalled (2 = AAC-LC, 5 = SBR, 29 = PS); escape 31 is resolved.
  var audioObjectType: Int
  /// The object type of the core decoder (2 for HE-AAC with explicit SBR signalling).
  var coreObjectType: Int
  /// The core decoder's sampling rate in Hz.
  var coreSampleRate: Int
  /// The rate the decoder outputs: twice the core rate with SBR.
  var outputSampleRate: Int
  /// channelConfiguration (0 means a program config element defines them).
  var channelConfiguration: Int
  /// Whether spectral band replication (HE-AAC) is signalled.
  var sbr: Bool
  /// Whether the config says either way: SBR signalled, or a sync extension saying there is none
  /// (as ffmpeg's encoder writes). When false, a stream may still carry SBR (implicit signalling),
  /// which only decoding shows.
  var sbrSignalled = false

  /// The frequencies samplingFrequencyIndex names; 13 and 14 are reserved, 15 escapes.
  static let frequencies = [
    96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350,
  ]

  /// Object types of the AAC family that an AAC decoder handles.
  static let aacObjectTypes: Set<Int> = [1, 2, 3, 4, 5, 6, 17, 19, 20, 22, 23, 29, 39]

  /// Parses the bits of an AudioSpecificConfig, or says in plain words why it cannot.
  static func parse(_ bytes: [UInt8]) -> Result<AudioSpecificConfig, MP4Problem> {
    var bits = BitReader(bytes)
    guard let first = bits.objectType() else {
      return .failure(.unreadableConfig("it is shorter than two bytes"))
    }
    guard let rate = bits.frequency() else {
      return .failure(.unreadableConfig("its sampling frequency is reserved or cut off"))
    }
    guard let channels = bits.read(4) else {
      return .failure(.unreadableConfig("its channel configuration is cut off"))
    }
    var config = AudioSpecificConfig(
      audioObjectType: first, coreObjectType: first, coreSampleRate: rate, outputSampleRate: rate,
      channelConfiguration: channels, sbr: false)
    if first == 5 || first == 29 {
      // Explicit SBR (and PS) signalling: the extension rate, then the core object type.
      guard let extensionRate = bits.frequency(), let core = bits.objectType() else {
        return .failure(.unreadableConfig("its SBR extension is cut off"))
      }
      config.sbr = true
      config.sbrSignalled = true
      config.outputSampleRate = extensionRate
      config.coreObjectType = core
    } else if let signal = Self.backwardCompatibleSBR(&bits, objectType: first, channels: channels) {
      // SBR signalled after the core's config (sync extension 0x2b7), so that a decoder without
      // SBR still plays the core: the output is at the extension rate all the same.
      config.sbrSignalled = true
      if let extensionRate = signal {
        config.sbr = true
        config.outputSampleRate = extensionRate
      }
    }
    guard aacObjectTypes.contains(config.coreObjectType) else {
      return .failure(
        .notAAC("its AudioSpecificConfig names audio object type \(config.coreObjectType), which is not AAC"))
    }
    return .success(config)
  }

  /// What a sync extension (ISO/IEC 14496-3 1.6.5.2) after the core's GASpecificConfig says of
  /// SBR: `.some(rate)` for SBR at that extension rate, `.some(nil)` for "no SBR"
  /// (sbrPresentFlag 0), nil when there is no such extension or the config is not one it can skip.
  static func backwardCompatibleSBR(_ bits: inout BitReader, objectType: Int, channels: Int) -> Int?? {
    // GASpecificConfig of the object types that use it; a program config element (channel
    // configuration 0) is not walked, so no extension is looked for behind one.
    guard [1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23].contains(objectType), channels != 0,
      bits.read(1) != nil, let dependsOnCore = bits.read(1)
    else { return nil }
    if dependsOnCore == 1 { guard bits.read(14) != nil else { return nil } }
    guard let extensionFlag = bits.read(1) else { return nil }
    if objectType == 6 || objectType == 20 { guard bits.read(3) != nil else { return nil } }
    if extensionFlag == 1 {
      if objectType == 22 { guard bits.read(16) != nil else { return nil } }
      if [17, 19, 20, 23].contains(objectType) { guard bits.read(3) != nil else { return nil } }
      guard bits.read(1) != nil else { return nil }
    }
    guard bits.read(11) == 0x2B7, bits.objectType() == 5, let present = bits.read(1) else { return nil }
    guard present == 1 else { return .some(nil) }
    guard let rate = bits.frequency() else { return nil }
    return .some(rate)
  }

  /// Reads bits most significant first; nil when the bytes run out.
  struct BitReader {
    let bytes: [UInt8]
    var bit = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func read(_ count: Int) -> Int? {
      guard bit + count <= bytes.count * 8 else { return nil }
      var value = 0
      for _ in 0..<count {
        value = value << 1 | Int(bytes[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
        bit += 1
      }
      return value
    }

    /// audioObjectType with its escape: 31 means 32 plus six more bits.
    mutating func objectType() -> Int? {
      guard let type = read(5) else { return nil }
      if type != 31 { return type }
      return read(6).map { 32 + $0 }
    }

    /// samplingFrequencyIndex with its escape: 15 means an explicit 24-bit frequency.
    mutating func frequency() -> Int? {
      guard let index = read(4) else { return nil }
      if index == 15 {
        guard let explicit = read(24), explicit > 0 else { return nil }
        return explicit
      }
      return index < frequencies.count ? frequencies[index] : nil
    }
  }
}
