/// One name in a folder as `readdir(3)` gave it, with its kind; the file itself is not opened.
public struct DirectoryEntry: Sendable, Equatable {
  /// What kind of thing a name points at.
  public enum Kind: String, Sendable, Equatable {
    /// A regular file.
    case file
    /// A folder.
    case folder
    /// A symbolic link whose target is a regular file.
    case symlinkToFile
    /// A symbolic link whose target is a folder.
    case symlinkToFolder
    /// A symbolic link whose target is missing.
    case brokenSymlink
    /// A symbolic link that cannot be followed (a loop, a folder on its way that cannot be
    /// searched): opening it fails at once, and the reader says why.
    case unfollowableSymlink
    /// A named pipe: opening it could block.
    case fifo
    /// A socket.
    case socket
    /// A character or block device: opening it can act.
    case device
    /// Anything else.
    case other

    /// Whether reading it as a regular file is safe (a symlink is followed, but only to a file).
    /// A link that cannot be followed is opened too, so that the reader reports the open's own error
    /// (FORMAT.md §5: a title in a loop is unreadable); the open fails without blocking.
    public var isReadableFile: Bool {
      self == .file || self == .symlinkToFile || self == .unfollowableSymlink
    }
    /// Whether it is a folder, directly or through a symlink.
    public var isFolder: Bool { self == .folder || self == .symlinkToFolder }

    /// Plain words for messages.
    public var words: String {
      switch self {
      case .file: "a file"
      case .folder: "a folder"
      case .symlinkToFile: "a symbolic link to a file"
      case .symlinkToFolder: "a symbolic link to a folder"
      case .brokenSymlink: "a symbolic link that leads nowhere"
      case .unfollowableSymlink: "a symbolic link that cannot be followed"
      case .fifo: "a FIFO"
      case .socket: "a socket"
      case .device: "a device"
      case .other: "not a regular file"
      }
    }
  }

  /// The name as text when it is valid UTF-8, else nil.
  public let name: String?
  /// The bytes of a name that is not UTF-8 (the others are kept only as text, to save a copy).
  private let invalidBytes: [UInt8]?
  /// The kind, from `d_type` where the file system gives it, else from `stat(2)`.
  public var kind: Kind

  /// The name's bytes exactly as stored; a name need not be UTF-8.
  public var bytes: [UInt8] { invalidBytes ?? Array(name!.utf8) }

  /// The name made safe to print: invalid UTF-8 bytes as `\xNN`, control characters escaped.
  public var printableName: String {
    if let name { return PathText.escaped(name) }
    // Escape each valid run, and write each invalid byte as `\xNN` (not escaped a second time).
    var out = ""
    var run: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let lead = bytes[index]
      let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
      if length > 0, index + length <= bytes.count,
        String(validating: bytes[index..<index + length], as: UTF8.self) != nil
      {
        run.append(contentsOf: bytes[index..<index + length])
        index += length
      } else {
        out += PathText.escaped(String(decoding: run, as: UTF8.self)) + PathText.decode([lead])
        run.removeAll()
        index += 1
      }
    }
    return out + PathText.escaped(String(decoding: run, as: UTF8.self))
  }

  /// Creates an entry; `name` is decoded from `bytes` when they are valid UTF-8.
  public init(bytes: some Collection<UInt8>, kind: Kind) {
    let text = String(validating: bytes, as: UTF8.self)
    self.name = text
    self.invalidBytes = text == nil ? Array(bytes) : nil
    self.kind = kind
  }
}
