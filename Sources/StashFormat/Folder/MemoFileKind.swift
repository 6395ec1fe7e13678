/// The six kinds of name a memo is made of, each a `<base>` followed by an exact, case-sensitive suffix.
public enum MemoFileKind: String, Sendable, CaseIterable, Comparable {
  /// `<base>_audio.m4a`.
  case audio
  /// `<base>_transcription.vtt`.
  case transcript
  /// `<base>_track.gpx`.
  case route
  /// `<base>_title.txt`.
  case title
  /// `<base>.parts/`.
  case parts
  /// `<base>_bookmarks.vtt`, written by stash on the desktop (FORMAT.md §8), never by the phone.
  case bookmarks

  /// The suffix that follows the base, exactly as the phone writes it.
  public var suffix: String {
    switch self {
    case .audio: "_audio.m4a"
    case .transcript: "_transcription.vtt"
    case .route: "_track.gpx"
    case .title: "_title.txt"
    case .parts: ".parts"
    case .bookmarks: "_bookmarks.vtt"
    }
  }

  /// The word used for it in messages.
  public var words: String {
    switch self {
    case .audio: "audio"
    case .transcript: "transcript"
    case .route: "route"
    case .title: "title"
    case .parts: "parts folder"
    case .bookmarks: "bookmarks"
    }
  }

  /// The name of this kind for `base`: `<base><suffix>`.
  public func name(for base: String) -> String { base + suffix }

  /// Splits `<base><suffix>` on the exact, case-sensitive suffixes, byte for byte; nil when the name ends
  /// in none of them or the base would be empty. This says only what the name ends with: whether the name
  /// belongs to a memo (a hidden name, blanks around the base) is `FolderName.classify`'s to say.
  public static func split(_ name: String) -> (base: String, kind: MemoFileKind)? {
    let utf8 = name.utf8
    for (kind, suffix) in suffixBytes where utf8.count > suffix.count {
      let start = utf8.index(utf8.endIndex, offsetBy: -suffix.count)
      if utf8[start...].elementsEqual(suffix) {
        return (String(decoding: utf8[..<start], as: UTF8.self), kind)
      }
    }
    return nil
  }

  /// The key of this kind in JSON objects (`files`), also its raw value.
  public var key: String { rawValue }

  /// The place in `allCases` (a switch: looking it up there made an array per comparison).
  private var rank: Int {
    switch self {
    case .audio: 0
    case .transcript: 1
    case .route: 2
    case .title: 3
    case .parts: 4
    case .bookmarks: 5
    }
  }

  public static func < (lhs: MemoFileKind, rhs: MemoFileKind) -> Bool { lhs.rank < rhs.rank }

  /// The suffixes as bytes, for matching raw names (no suffix ends another, so the order does not matter).
  static let suffixBytes: [(MemoFileKind, [UInt8])] = allCases.map { ($0, Array($0.suffix.utf8)) }
}
