/// A name Stash writes inside `<base>.parts/`; every other name there belongs to someone else.
/// Numbers are written with at least four digits, zero-padded (`0001`), and start at 1; a name
/// that does not print back exactly as it was read (`transcription.1.vtt`) is not Stash's.
public enum PartsName: Sendable, Hashable, Comparable {
  /// `transcription.NNNN.vtt`: one part of the transcript.
  case transcript(Int)
  /// `track.NNNN.gpx`: one part of the route.
  case route(Int)
  /// `track.withdrawn`: location was turned off mid-recording and the route is being deleted.
  case withdrawn

  /// The name parsed, or nil for a name Stash does not write.
  public init?(_ name: String) {
    if name == "track.withdrawn" {
      self = .withdrawn
    } else if let number = Self.number(in: name, prefix: "transcription.", suffix: ".vtt") {
      self = .transcript(number)
    } else if let number = Self.number(in: name, prefix: "track.", suffix: ".gpx") {
      self = .route(number)
    } else {
      return nil
    }
  }

  /// The file name inside the parts folder.
  public var fileName: String {
    switch self {
    case .transcript(let number): "transcription.\(Self.digits(number)).vtt"
    case .route(let number): "track.\(Self.digits(number)).gpx"
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

  private static func digits(_ number: Int) -> String {
    let text = String(number)
    return text.count >= 4 ? text : String(repeating: "0", count: 4 - text.count) + text
  }

  private static func number(in name: String, prefix: String, suffix: String) -> Int? {
    guard name.hasPrefix(prefix), name.hasSuffix(suffix),
      name.utf8.count > prefix.utf8.count + suffix.utf8.count
    else { return nil }
    let middle = name.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count)
    // Nine digits at most: a minute per part, that is two thousand years; more is not ours.
    guard middle.count <= 9, middle.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let number = Int(String(decoding: middle, as: UTF8.self)), number >= 1,
      digits(number) == String(decoding: middle, as: UTF8.self)
    else { return nil }
    return number
  }
}
