/// A problem found in one of a memo's files: the diagnostic and the file's name in the folder.
public struct MemoProblem: Sendable, Equatable {
  /// The name of the file (or parts folder) it is about, or nil when it is about the memo as a whole.
  public var file: String?
  /// What was found.
  public var diagnostic: Diagnostic

  /// Creates a problem about `file`.
  public init(file: String?, _ diagnostic: Diagnostic) {
    self.file = file
    self.diagnostic = diagnostic
  }

  /// The diagnostic's stable code.
  public var code: FormatError.Code { diagnostic.code }
  /// The diagnostic's severity.
  public var severity: Severity { diagnostic.severity }
  /// The diagnostic's message.
  public var message: String { diagnostic.message }

  /// `Diagnostic.json` with the file's name added as `file`.
  package var json: JSONValue {
    guard case .object(var members) = diagnostic.json else { return diagnostic.json }
    members.insert(("file", .optional(file)), at: 0)
    return .object(members)
  }
}
