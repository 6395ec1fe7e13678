/// Builds MP4 boxes byte by byte for tests, to reach layouts and flags ffmpeg never writes.
enum MP4BoxBuilder {
  static func u8(_ v: UInt8) -> [UInt8] { [v] }
  static func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
  static func u32(_ v: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * UInt32($0))) }
  }
  static func u64(_ v: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * UInt64($0))) }
  }
  static func i32(_ v: Int32) -> [UInt8] { u32(UInt32(bitPattern: v)) }
  static func fourCC(_ s: String) -> [UInt8] { Array(s.utf8) }

  /// A box with a 32-bit size.
  static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    u32(UInt32(8 + payload.count)) + fourCC(type) + payload
  }

  /// A box with a 64-bit size (size field 1).
  static func largeBox(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    u32(1) + fourCC(type) + u64(UInt64(16 + payload.count)) + payload
  }

  /// A full box: version and flags first.
  static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
    box(type, [version] + Array(u32(flags).dropFirst()) + payload)
  }

  static func ftyp() -> [UInt8] { box("ftyp", fourCC("M4A ") + u32(0) + fourCC("isom") + fourCC("M4A ")) }

  /// An esds carrying `config` as its AudioSpecificConfig, for stream type `objectType`.
  static func esds(config: [UInt8], objectType: UInt8 = 0x40) -> [UInt8] {
    let specific = [UInt8(5), UInt8(config.count)] + config
    let decoder =
      [UInt8(4), UInt8(13 + specific.count), objectType, 0x15] + [0, 0, 0] + u32(0) + u32(0) + specific
    let es = [UInt8(3), UInt8(3 + decoder.count)] + u16(1) + [0] + decoder
    return fullBox("esds", es)
  }

  /// An `mp4a` sample entry holding `children` (usually one esds).
  static func mp4a(channels: UInt16 = 1, rate: UInt32 = 48000, children: [UInt8]) -> [UInt8] {
    let fields =
      [UInt8](repeating: 0, count: 6) + u16(1) + [UInt8](repeating: 0, count: 8) + u16(channels) + u16(16)
      + u16(0) + u16(0) + u32(rate << 16)
    return box("mp4a", fields + children)
  }

  /// AAC-LC at 48 kHz, mono.
  static let lcConfig: [UInt8] = [0x11, 0x88]

  /// A sample table: `durations` and `sizes` per sample, all in one chunk at `chunkOffset`.
  static func stbl(
    entry: [UInt8], durations: [UInt32], sizes: [UInt32], chunkOffset: UInt64, wide: Bool = false,
    compactSizes: Bool = false
  ) -> [UInt8] {
    let stsd = fullBox("stsd", u32(1) + entry)
    let stts = fullBox("stts", u32(UInt32(durations.count)) + durations.flatMap { u32(1) + u32($0) })
    let stsc = fullBox(
      "stsc", durations.isEmpty ? u32(0) : u32(1) + u32(1) + u32(UInt32(sizes.count)) + u32(1))
    let stsz =
      compactSizes
      ? fullBox("stz2", [0, 0, 0, 16] + u32(UInt32(sizes.count)) + sizes.flatMap { u16(UInt16($0)) })
      : fullBox("stsz", u32(0) + u32(UInt32(sizes.count)) + sizes.flatMap(u32))
    let chunks =
      durations.isEmpty
      ? fullBox("stco", u32(0))
      : wide ? fullBox("co64", u32(1) + u64(chunkOffset)) : fullBox("stco", u32(1) + u32(UInt32(chunkOffset)))
    return box("stbl", stsd + stts + stsc + stsz + chunks)
  }

  /// A track: tkhd, optional edit list, mdhd with `timescale`, hdlr `handler`, and `stbl`.
  static func trak(
    id: UInt32, timescale: UInt32 = 48000, handler: String = "soun", edits: [(UInt64, Int64)]? = nil,
    editVersion: UInt8 = 0, stbl: [UInt8]
  ) -> [UInt8] {
    let tkhd = fullBox("tkhd", flags: 3, u32(0) + u32(0) + u32(id) + [UInt8](repeating: 0, count: 72))
    var edts: [UInt8] = []
    if let edits {
      let entries = edits.flatMap { edit in
        editVersion == 1
          ? u64(edit.0) + u64(UInt64(bitPattern: edit.1)) + u32(0x0001_0000)
          : u32(UInt32(edit.0)) + i32(Int32(edit.1)) + u32(0x0001_0000)
      }
      edts = box("edts", fullBox("elst", version: editVersion, u32(UInt32(edits.count)) + entries))
    }
    let mdhd = fullBox("mdhd", u32(0) + u32(0) + u32(timescale) + u32(0) + u16(0x55C4) + u16(0))
    let hdlr = fullBox("hdlr", u32(0) + fourCC(handler) + [UInt8](repeating: 0, count: 12) + [0])
    let minf = box("minf", box("smhd", [UInt8](repeating: 0, count: 8)) + stbl)
    return box("trak", tkhd + edts + box("mdia", mdhd + hdlr + minf))
  }

  /// A moov with mvhd (timescale 1000) and the given tracks; `trex` defaults make it fragmented.
  /// `duration` is the movie header's (in its timescale of 1000 unless `timescale` says); `extra`
  /// follows the tracks (a `udta`, say).
  static func moov(
    tracks: [[UInt8]], trex: [(id: UInt32, duration: UInt32, size: UInt32)]? = nil, timescale: UInt32 = 1000,
    duration: UInt32 = 0, extra: [UInt8] = []
  ) -> [UInt8] {
    let mvhd = fullBox(
      "mvhd", u32(3_786_825_600) + u32(0) + u32(timescale) + u32(duration) + [UInt8](repeating: 0, count: 80))
    var mvex: [UInt8] = []
    if let trex {
      mvex = box(
        "mvex",
        trex.flatMap { fullBox("trex", u32($0.id) + u32(1) + u32($0.duration) + u32($0.size) + u32(0)) })
    }
    return box("moov", mvhd + tracks.flatMap { $0 } + mvex + extra)
  }

  /// A `udta` holding iTunes gapless metadata as iTunes writes it: meta (a full box) > ilst >
  /// `----` with mean com.apple.iTunes, name iTunSMPB and the text of twelve hex fields.
  static func iTunesGapless(delay: UInt32, padding: UInt32, valid: UInt64) -> [UInt8] {
    func hex(_ value: UInt64, _ width: Int) -> String {
      let digits = String(value, radix: 16, uppercase: true)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let fields =
      [hex(0, 8), hex(UInt64(delay), 8), hex(UInt64(padding), 8), hex(valid, 16)]
      + [String](repeating: hex(0, 8), count: 8)
    let text = fields.map { " " + $0 }.joined()
    let item = box(
      "----",
      fullBox("mean", fourCC("com.apple.iTunes")) + fullBox("name", fourCC("iTunSMPB"))
        + box("data", u32(1) + u32(0) + Array(text.utf8)))
    let hdlr = fullBox("hdlr", u32(0) + fourCC("mdir") + fourCC("appl") + [UInt8](repeating: 0, count: 9))
    return box("udta", fullBox("meta", hdlr + box("ilst", item)))
  }

  /// An `enca` sample entry: an mp4a's fields, its esds, and a `sinf` naming `scheme`.
  static func enca(scheme: String = "cenc") -> [UInt8] {
    let plain = mp4a(children: esds(config: lcConfig))
    let sinf = box(
      "sinf",
      box("frma", fourCC("mp4a")) + fullBox("schm", fourCC(scheme) + u32(0x0001_0000))
        + box("schi", fullBox("tenc", [UInt8](repeating: 0, count: 20))))
    return box("enca", Array(plain.dropFirst(8)) + sinf)
  }

  /// A complete one-track audio moov for fragments: empty tables, trex defaults.
  static func fragmentedMoov(timescale: UInt32 = 48000, trexDuration: UInt32 = 1024, trexSize: UInt32 = 0)
    -> [UInt8]
  {
    let entry = mp4a(children: esds(config: lcConfig))
    return moov(
      tracks: [
        trak(id: 1, timescale: timescale, stbl: stbl(entry: entry, durations: [], sizes: [], chunkOffset: 0))
      ],
      trex: [(1, trexDuration, trexSize)])
  }
}
