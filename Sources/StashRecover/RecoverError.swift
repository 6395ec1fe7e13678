import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// An error from StashRecover: a stable code, a message a person can act on, and the path involved.
public struct RecoverError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Stable identifier such as `io`, `exists`, `busy`, `strangers`, `not-same-file-system`.
  public var code: String
  /// Plain words: what happened and, where it helps, what to do.
  public var message: String
  /// The file or folder the error concerns.
  public var path: String?
  /// The `errno` behind an I/O error, or 0.
  public var number: Int32
  /// Names the error is about, such as the strangers' files in a parts folder that block a deletion.
  public var files: [String]

  /// Makes an error; `number` is the `errno` when one caused it.
  public init(code: String, message: String, path: String? = nil, number: Int32 = 0, files: [String] = []) {
    self.code = code
    self.message = message
    self.path = path
    self.number = number
    self.files = files
  }

  /// An I/O error for `errno` `number` while `doing` something to `path`, in strerror's words.
  public static func io(_ number: Int32, doing: String, path: String) -> RecoverError {
    RecoverError(
      code: "io", message: "cannot \(doing): \(String(cString: strerror(number)))", path: path,
      number: number)
  }

  /// `path` relative to `folder`, when it is in it: how a sweep's report names a file.
  public func name(in folder: String) -> String? {
    guard let path, path.hasPrefix(folder + "/") else { return nil }
    return String(path.dropFirst(folder.count + 1))
  }

  /// `path: message`, with the path escaped for printing.
  public var description: String {
    guard let path else { return message }
    return "\(PathText.escaped(path)): \(message)"
  }
}
