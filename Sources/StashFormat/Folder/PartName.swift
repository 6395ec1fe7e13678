/// A name Stash writes inside `<base>.parts/` (FORMAT.md §6.1); every other name there belongs to someone else.
/// Numbers start at 1 and are written in decimal, zero-padded to four digits (`0001`, `0042`, `10000`); a
/// name whose number does not print back exactly as written (`transcription.1.vtt`, `transcription.00001.vtt`,
/// `transcription.0000.vtt`) is not Stash's. This is the one parser of these names: the folder reader and the
/// recovery sweep both use it.
public enum PartName: Sendable, Hashable, Comparable {
  /// `transcription.NNNN.vtt`: one part of the transcript.
  case transcript(Int)
  /// `track.NNNN.gpx`: one part of the route.
  case route(Int)
  /// `track.withdrawn`: location was turned off mid-recording and the route is being deleted.
  case withdrawn

  /// The longest number a part name may hold: a minute a part, nine digits is two thousand years.
  public static let maximumDigits = 9

  /// The name parsed, byte for byte and case-sensitively, or nil for a name Stash does not write.
  public init?(_ name: String) {
    let utf8 = name.utf8
    if utf8.elementsEqual(Self.withdrawnBytes) {
      self = .withdrawn
    } else if let number = Self.number(in: utf8, prefix: Self.transcriptPrefix, suffix: Self.transcriptSuffix)
    {
      self = .transcript(number)
    } else if let number = Self.number(in: utf8, prefix: Self.routePrefix, suffix: Self.routeSuffix) {
      self = .route(number)
    } else {
      return nil
    }
  }

  /// The file name inside the parts folder, exactly as the phone writes it.
  public var fileName: String {
    switch self {
    case .transcript(let number): Self.name(Self.transcriptPrefix, number, Self.transcriptSuffix)
    case .route(let number): Self.name(Self.routePrefix, number, Self.routeSuffix)
    case .withdrawn: "track.withdrawn"
    }
  }

  /// The part's number, or nil for the withdrawal marker.
  public var number: Int? {
    switch self {
    case .transcript(let number), .route(let number): number
    case .withdrawn: nil
    }
  }

  private static let withdrawnBytes = Array("track.withdrawn".utf8)
  private static let transcriptPrefix = Array("transcription.".utf8)
  private static let transcriptSuffix = Array(".vtt".utf8)
  private static let routePrefix = Array("track.".utf8)
  private static let routeSuffix = Array(".gpx".utf8)

  /// `prefix`, `number` in decimal zero-padded to at least four digits (`0007`, `10000`), `suffix`.
  /// Written as bytes rather than through `String(number)`, since a sweep names every part several
  /// times. A negative number (never Stash's) keeps its sign, so it can never read back as a part.
  private static func name(_ prefix: [UInt8], _ number: Int, _ suffix: [UInt8]) -> String {
    var bytes = prefix
    bytes.reserveCapacity(prefix.count + 21 + suffix.count)
    Text.appendZeroPadded(number, width: 4, to: &bytes)
    bytes += suffix
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The number between `prefix` and `suffix` when the name is exactly that and prints back unchanged.
  private static func number(in utf8: String.UTF8View, prefix: [UInt8], suffix: [UInt8]) -> Int? {
    guard utf8.count > prefix.count + suffix.count, utf8.starts(with: prefix),
      utf8.reversed().starts(with: suffix.reversed())
    else { return nil }
    let middle = utf8.dropFirst(prefix.count).dropLast(suffix.count)
    guard middle.count >= 4, middle.count <= maximumDigits else { return nil }
    var number = 0
    for byte in middle {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      number = number * 10 + Int(byte - UInt8(ascii: "0"))
    }
    // Printing back exactly: at least 1, and no zero before a number that already has four digits.
    guard number >= 1, middle.count == 4 || middle.first != UInt8(ascii: "0") else { return nil }
    return number
  }
}
