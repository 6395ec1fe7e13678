import CALSA

#if canImport(Glibc)
  import Glibc
#endif

/// A playback device ALSA knows by name, as `aplay -L` lists them.
public struct PCMDeviceHint: Sendable, Equatable {
  /// The name to open it with (`default`, `pulse`, `hw:CARD=PCH,DEV=0`, ...).
  public var name: String
  /// ALSA's description of it, on one line; empty when it has none.
  public var description: String

  /// Makes a hint from its parts.
  public init(name: String, description: String) {
    self.name = name
    self.description = description
  }

  /// The PCM types that only convert what passes through them to another PCM (rate converters,
  /// channel mixers, Speex's processing): ALSA lists them beside devices, but sound does not go
  /// to them; what they convert for is the PCM they name as their slave.
  static let converterTypes: Set<String> = ["rate", "upmix", "vdownmix", "speex"]

  /// Every PCM that can play, in ALSA's order (`snd_device_name_hint` for "pcm", leaving out
  /// capture-only ones and converters, `converterTypes`); empty when ALSA lists none.
  public static func all() -> [PCMDeviceHint] {
    ALSACall.silenced
    var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    guard snd_device_name_hint(-1, "pcm", &hints) >= 0, let hints else { return [] }
    defer { snd_device_name_free_hint(hints) }
    var found: [PCMDeviceHint] = []
    var index = 0
    while let hint = hints[index] {
      index += 1
      let name = value(hint, "NAME")
      let direction = value(hint, "IOID")
      guard let name, direction == nil || direction == "Output" else { continue }
      if let type = type(of: name), converterTypes.contains(type) { continue }
      let description = (value(hint, "DESC") ?? "").split(whereSeparator: \.isNewline).joined(separator: ", ")
      found.append(PCMDeviceHint(name: name, description: description))
    }
    return found
  }

  /// The `type` ALSA's configuration gives the PCM `name`, or nil when it has no definition
  /// (`hw:…` names are built from the card list and have one; a name of a plugin's own may not).
  static func type(of name: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 64)
    guard stash_alsa_pcm_type(name, &buffer, buffer.count) == 0 else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `snd_device_name_get_hint(hint, id)`, freed after copying.
  private static func value(_ hint: UnsafeMutableRawPointer, _ id: String) -> String? {
    guard let text = snd_device_name_get_hint(hint, id) else { return nil }
    defer { free(text) }
    return String(cString: text)
  }
}
