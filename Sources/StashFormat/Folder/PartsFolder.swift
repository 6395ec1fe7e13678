/// What a `<base>.parts/` folder holds: the parts the phone writes while recording, and anything else.
public struct PartsFolder: Sendable, Equatable {
  /// The folder's name in the memo folder (`<base>.parts`).
  public var name: String
  /// Numbers of the transcript parts (`transcription.NNNN.vtt`), ascending.
  public var transcriptParts: [Int]
  /// Numbers of the route parts (`track.NNNN.gpx`), ascending.
  public var routeParts: [Int]
  /// Whether `track.withdrawn` is present: the route was withdrawn and its deletion may be unfinished.
  public var routeWithdrawn: Bool
  /// Names the phone does not write there (a stranger's files), escaped for printing; hidden ones too.
  public var strangers: [String]
  /// Why the folder could not be read, or nil.
  public var unreadable: String?

  /// Creates a description of a parts folder.
  public init(
    name: String, transcriptParts: [Int] = [], routeParts: [Int] = [], routeWithdrawn: Bool = false,
    strangers: [String] = [], unreadable: String? = nil
  ) {
    self.name = name
    self.transcriptParts = transcriptParts
    self.routeParts = routeParts
    self.routeWithdrawn = routeWithdrawn
    self.strangers = strangers
    self.unreadable = unreadable
  }

  /// Whether the folder holds nothing at all.
  public var isEmpty: Bool {
    unreadable == nil && transcriptParts.isEmpty && routeParts.isEmpty && !routeWithdrawn && strangers.isEmpty
  }

  /// Whether it holds none of the phone's parts, only other files (not by itself a sign of a crash).
  public var holdsOnlyStrangers: Bool {
    transcriptParts.isEmpty && routeParts.isEmpty && !routeWithdrawn && !strangers.isEmpty
  }

  /// Reads the folder at `path` (one `readdir` pass, nothing opened); a failure is recorded, not thrown.
  public static func read(path: String, name: String) -> PartsFolder {
    var parts = PartsFolder(name: name)
    let entries: [DirectoryEntry]
    do {
      entries = try DirectoryReader.entries(of: path)
    } catch {
      parts.unreadable = error.message
      return parts
    }
    for entry in entries {
      // A part is a regular file (§6.1): a symbolic link, even to a file, is someone else's.
      switch entry.name.flatMap({ entry.kind == .file ? PartName($0) : nil }) {
      case .transcript(let number): parts.transcriptParts.append(number)
      case .route(let number): parts.routeParts.append(number)
      case .withdrawn: parts.routeWithdrawn = true
      case nil: parts.strangers.append(entry.printableName)
      }
    }
    parts.transcriptParts.sort()
    parts.routeParts.sort()
    parts.strangers.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    return parts
  }
}
