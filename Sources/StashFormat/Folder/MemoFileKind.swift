/// The five kinds of name a memo is made of, each a `<base>` followed by an exact, case-sensitive suffix.
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

  /// The suffix that follows the base, exactly as the phone writes it.
  public var suffix: String {
    switch self {
    case .audio: "_audio.m4a"
    case .transcript: "_transcription.vtt"
    case .route: "_track.gpx"
    case .title: "_title.txt"
    case .parts: ".parts"
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
    }
  }

  /// The key of this kind in JSON objects (`files`), also its raw value.
  public var key: String { rawValue }

  private var rank: Int { Self.allCases.firstIndex(of: self)! }

  public static func < (lhs: MemoFileKind, rhs: MemoFileKind) -> Bool { lhs.rank < rhs.rank }

  /// The suffixes as bytes, longest first, for matching raw names.
  static let suffixBytes: [(MemoFileKind, [UInt8])] = allCases.map { ($0, Array($0.suffix.utf8)) }
}
