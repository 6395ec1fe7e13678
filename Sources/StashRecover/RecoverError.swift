import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// An error from StashRecover: a stable code, a message a person can act on, and the path involved.
public struct RecoverError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure this is. The raw value is the stable code, such as `busy`: never rename
  /// one, only add.
  public enum Code: String, Sendable, Hashable, CaseIterable {
    /// A system call failed; `number` is its `errno`.
    case io = "io"
    /// A file is already there under the name being published; it is left as it is.
    case exists = "exists"
    /// Another stash process holds the folder's lock (and the caller would not wait).
    case busy = "busy"
    /// A parts folder holds files Stash did not write, so the memo is not deleted; `files` names them.
    case strangers = "strangers"
    /// A name that must be a regular file is not one: it is not read.
    case notAFile = "not-a-file"
    /// A file is larger than the limit it is read with.
    case tooLarge = "too-large"
    /// No memo has the name given.
    case notFound = "not-found"
    /// A name that cannot be a memo's base (empty, a path, or holding NUL).
    case badBase = "bad-base"
    /// The Trash cannot take the memo (not a folder, or on another file system than the memo).
    case trashUnavailable = "trash-unavailable"
    /// The audio is cut short in a layout the repairer cannot rewrite; it is left as it is.
    case repairUnsupported = "repair-unsupported"
    /// The repaired audio did not read back whole; the original is kept.
    case repairFailed = "repair-failed"
    /// A source file changed while, or since, it was copied (a recording still running).
    case changed = "changed"
    /// A copy read back from the disk is not the bytes read from the source; it is not kept.
    case verifyFailed = "verify-failed"
    /// A source and the target are one folder, or one is inside the other.
    case overlap = "overlap"
    /// A file stash did not write (or cannot read whole) is under the name it would write; it is left as it is.
    case foreign = "foreign"
    /// What is being added is there already (a bookmark at the same moment).
    case duplicate = "duplicate"
    /// A moment outside the audio.
    case outOfRange = "out-of-range"
  }

  /// The kind of failure.
  public var code: Code
  /// Plain words: what happened and, where it helps, what to do.
  public var message: String
  /// The file or folder the error concerns.
  public var path: String?
  /// The `errno` behind an I/O error, or 0.
  public var number: Int32
  /// Names the error is about, such as the strangers' files in a parts folder that block a deletion.
  public var files: [String]

  /// Makes an error; `number` is the `errno` when one caused it.
  public init(code: Code, message: String, path: String? = nil, number: Int32 = 0, files: [String] = []) {
    self.code = code
    self.message = message
    self.path = path
    self.number = number
    self.files = files
  }

  /// An I/O error for `errno` `number` while `doing` something to `path`, in strerror's words.
  public static func io(_ number: Int32, doing: String, path: String) -> RecoverError {
    RecoverError(
      code: .io, message: "cannot \(doing): \(String(cString: strerror(number)))", path: path,
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
