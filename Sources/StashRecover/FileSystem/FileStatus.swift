/// What `lstat(2)` says about a name: its kind, size, change time and device; links are not followed.
public struct FileStatus: Sendable, Equatable {
  /// The kind of thing a name refers to, without following a symbolic link.
  public enum Kind: Sendable, Equatable {
    case regular, directory, symbolicLink, other
  }

  /// Kind of the name itself.
  public var kind: Kind
  /// Size in bytes.
  public var size: Int
  /// Last modification, seconds since 1970 (UTC).
  public var modificationTime: Double
  /// The same, exactly, in nanoseconds since 1970: what an import sets on its copy (a Double
  /// holds today's times to about a quarter of a microsecond only).
  public var modificationNanoseconds: Int64
  /// The device the name lives on, to tell whether a rename can reach another folder.
  public var device: UInt64

  /// Makes a status; tests build them directly. The exact time is the seconds' nearest
  /// nanosecond unless given.
  public init(
    kind: Kind, size: Int = 0, modificationTime: Double = 0, modificationNanoseconds: Int64? = nil,
    device: UInt64 = 0
  ) {
    self.kind = kind
    self.size = size
    self.modificationTime = modificationTime
    self.modificationNanoseconds = modificationNanoseconds ?? Int64((modificationTime * 1e9).rounded())
    self.device = device
  }
}
