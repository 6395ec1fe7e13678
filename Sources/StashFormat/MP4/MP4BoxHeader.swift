/// The header of one box: where it starts, how big it says it is, and where its payload begins.
/// Public so that code which rewrites boxes (StashRecover's repair) reads them as the readers do.
public struct MP4BoxHeader: Sendable, Equatable {
  /// The box type.
  public var type: FourCC
  /// File offset of the box's first byte.
  public var offset: Int
  /// 8, 16 with a 64-bit size, plus 16 for a `uuid` box's user type.
  public var headerSize: Int
  /// The whole box in bytes; a size of 0 in the file is resolved to the end of its container.
  public var size: Int
  /// Whether the file said 0 ("runs to the end of the file").
  public var runsToEnd: Bool
  /// The user type of a `uuid` box.
  var userType: [UInt8]?

  /// File offset of the payload's first byte.
  public var payloadOffset: Int { offset + headerSize }
  /// Bytes after the header.
  public var payloadSize: Int { size - headerSize }
  /// File offset just past the box.
  public var end: Int { offset + size }

  /// What reading a header found.
  public enum Outcome: Equatable, Sendable {
    /// A header that fits what is left; the box itself may run past `containerEnd`.
    case header(MP4BoxHeader)
    /// Fewer bytes than a header needs lie before `containerEnd`.
    case short
    /// The size field cannot be right (smaller than the header, or beyond any file).
    case invalid(String)
  }

  /// The most bytes a header can take: 32-bit size, type, 64-bit size, user type.
  static let maximumSize = 32

  /// Parses the header whose first byte is `bytes[index]`, which lies at file offset `offset`;
  /// the box's container ends at file offset `containerEnd`. A box that runs past `containerEnd`
  /// is returned as it claims to be: callers decide whether that is a torn tail.
  public static func parse(_ bytes: [UInt8], at index: Int, offset: Int, containerEnd: Int) -> Outcome {
    let available = min(bytes.count - index, containerEnd - offset)
    guard available >= 8, index >= 0 else { return .short }
    // Read in place: every box of every file the listing reads passes here, and a cursor over
    // the array would retain and release it for each.
    func field(_ at: Int, _ width: Int) -> UInt64? {
      guard at + width <= available else { return nil }
      return bytes.withUnsafeBytes { $0.bigEndianField(at: index + at, width: width) }
    }
    let size32 = UInt32(field(0, 4)!)
    let type = FourCC(UInt32(field(4, 4)!))
    var headerSize = 8
    var size = Int(size32)
    var runsToEnd = false
    if size32 == 1 {
      guard let size64 = field(8, 8) else { return .short }
      guard size64 <= UInt64(Int.max / 2) else {
        return .invalid("a box of \(size64) bytes is larger than any file")
      }
      headerSize = 16
      size = Int(size64)
    } else if size32 == 0 {
      runsToEnd = true
    }
    var userType: [UInt8]?
    if type == .uuid {
      guard headerSize + 16 <= available else { return .short }
      userType = Array(bytes[index + headerSize..<index + headerSize + 16])
      headerSize += 16
    }
    if runsToEnd { size = max(containerEnd - offset, headerSize) }
    guard size >= headerSize else {
      return .invalid(
        "the '\(type)' box says it is \(size) bytes, less than its own \(headerSize)-byte header")
    }
    return .header(
      MP4BoxHeader(
        type: type, offset: offset, headerSize: headerSize, size: size, runsToEnd: runsToEnd,
        userType: userType))
  }
}
