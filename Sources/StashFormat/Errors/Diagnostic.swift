/// How much a diagnostic matters: errors break a file, warnings bend it, info only tells.
public enum Severity: String, Sendable, Comparable, CaseIterable {
  case info, warning, error

  private var rank: Int {
    switch self {
    case .info: 0
    case .warning: 1
    case .error: 2
    }
  }

  public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// Where in a file something was found. Lines and columns count from 1; offset counts bytes from 0.
public struct SourceLocation: Sendable, Equatable, Hashable {
  public var line: Int?
  public var column: Int?
  public var offset: Int?

  public init(line: Int? = nil, column: Int? = nil, offset: Int? = nil) {
    self.line = line
    self.column = column
    self.offset = offset
  }
}

/// A problem a reader found in one file, with a stable code the linter and its rule pages use.
public struct Diagnostic: Sendable, Equatable, Hashable {
  /// Stable identifier such as `vtt-bad-timestamp` (its raw value); never renamed once published.
  public var code: FormatError.Code
  public var severity: Severity
  /// Plain words: what happened and, where it helps, what to do.
  public var message: String
  public var location: SourceLocation
  /// For a diagnostic that stands for others of its code past a reader's limit, how many it stands
  /// for (they were found and not listed one by one); 0 for an ordinary diagnostic.
  public var unlisted: Int

  public init(
    code: FormatError.Code, severity: Severity, message: String, location: SourceLocation = .init(),
    unlisted: Int = 0
  ) {
    self.code = code
    self.severity = severity
    self.message = message
    self.location = location
    self.unlisted = unlisted
  }

  /// The message of a diagnostic that stands for `count` findings not listed one by one: the one
  /// wording every reader and the linter use.
  package static func unlistedMessage(_ count: Int) -> String {
    "\(count) more like this \(count == 1 ? "was" : "were") found and not listed one by one"
  }

  /// The JSON form used by `stash inspect` and `stash lint --format json`.
  package var json: JSONValue {
    .object([
      ("code", .string(code.rawValue)),
      ("severity", .string(severity.rawValue)),
      ("line", .optional(location.line)),
      ("column", .optional(location.column)),
      ("offset", .optional(location.offset)),
      ("message", .string(message)),
    ])
  }
}
