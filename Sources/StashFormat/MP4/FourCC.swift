/// A four-character box or sample-entry type, such as `moov` or `mp4a`, held as its 32-bit value.
public struct FourCC: Hashable, Sendable, CustomStringConvertible {
  /// The four bytes read big-endian.
  public let value: UInt32

  /// The code whose four bytes, read big-endian, are `value`.
  public init(_ value: UInt32) { self.value = value }

  /// The code for four ASCII characters.
  public init(_ text: StaticString) {
    var value: UInt32 = 0
    text.withUTF8Buffer { bytes in
      precondition(bytes.count == 4, "a FourCC has four characters")
      for byte in bytes { value = value << 8 | UInt32(byte) }
    }
    self.value = value
  }

  /// The characters, with bytes outside printable ASCII escaped so hostile input prints safely.
  public var description: String {
    var out = ""
    for shift in stride(from: 24, through: 0, by: -8) {
      let byte = UInt8(truncatingIfNeeded: value >> UInt32(shift))
      if byte >= 0x20 && byte < 0x7F {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        out += "\\x" + Text.zeroPadded(String(byte, radix: 16), width: 2)
      }
    }
    return out
  }

  static let ftyp = FourCC("ftyp")
  static let moov = FourCC("moov")
  static let mvhd = FourCC("mvhd")
  static let trak = FourCC("trak")
  static let tkhd = FourCC("tkhd")
  static let edts = FourCC("edts")
  static let elst = FourCC("elst")
  static let mdia = FourCC("mdia")
  static let mdhd = FourCC("mdhd")
  static let hdlr = FourCC("hdlr")
  static let minf = FourCC("minf")
  static let stbl = FourCC("stbl")
  static let stsd = FourCC("stsd")
  static let stts = FourCC("stts")
  static let stsc = FourCC("stsc")
  static let stsz = FourCC("stsz")
  static let stz2 = FourCC("stz2")
  static let stco = FourCC("stco")
  static let co64 = FourCC("co64")
  static let mvex = FourCC("mvex")
  static let trex = FourCC("trex")
  /// `moof`.
  public static let moof = FourCC("moof")
  static let mfhd = FourCC("mfhd")
  /// `traf`.
  public static let traf = FourCC("traf")
  static let tfhd = FourCC("tfhd")
  static let tfdt = FourCC("tfdt")
  /// `trun`.
  public static let trun = FourCC("trun")
  /// `mdat`.
  public static let mdat = FourCC("mdat")
  static let uuid = FourCC("uuid")
  static let mp4a = FourCC("mp4a")
  static let enca = FourCC("enca")
  static let sinf = FourCC("sinf")
  static let schm = FourCC("schm")
  static let udta = FourCC("udta")
  static let meta = FourCC("meta")
  static let ilst = FourCC("ilst")
  static let esds = FourCC("esds")
  static let soun = FourCC("soun")
}
