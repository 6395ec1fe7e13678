/// An error from StashFormat: a stable code, a message a person can act on, and where it happened.
public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of error this is; stable, for scripts and for callers to tell errors apart.
  public var code: Code
  public var message: String
  public var path: String?
  public var location: SourceLocation

  public init(code: Code, message: String, path: String? = nil, location: SourceLocation = .init()) {
    self.code = code
    self.message = message
    self.path = path
    self.location = location
  }

  /// `path:line:column: message`, leaving out what is unknown.
  public var description: String {
    var prefix = path.map { PathText.escaped($0) } ?? ""
    if let line = location.line {
      prefix += ":\(line)"
      if let column = location.column { prefix += ":\(column)" }
    } else if let offset = location.offset {
      prefix += "@\(offset)"
    }
    return prefix.isEmpty ? message : "\(prefix): \(message)"
  }
}
