import StashFormat

/// Reading and searching one memo's files (title, bookmarks, transcript) in a folder held open:
/// the one place a search reads a file, for `FolderSearch` whether the file is met as the folder
/// is read (`FolderSearchAhead`) or when its memo's turn comes.
struct MemoFileSearch: Sendable {
  /// The folder as given (messages name its files by it).
  let folder: String
  /// The folder held open, its files opened by name in it.
  let opened: OpenFolder
  let pattern: SearchPattern
  /// Which of a memo's files are searched.
  let scope: FolderSearch.Scope
  /// At most this many hits a file (1 when only whether a memo holds the pattern is asked).
  let hitLimit: Int

  /// What one memo's files gave, as far as it is worth keeping.
  struct Files: Sendable {
    /// The title read and its hits (kept only when it has some).
    var title: (Title, [SearchHit])?
    /// The bookmarks' hits (in their notes).
    var bookmarks: [SearchHit] = []
    /// The transcript's hits.
    var transcript: [SearchHit] = []
    /// The first error the reading met, worded (the file still gives what it holds).
    var warning: String?
    /// Why the transcript could not be searched.
    var error: String?

    /// How many hits they hold.
    var hitCount: Int { (title?.1.count ?? 0) + bookmarks.count + transcript.count }

    /// Takes what `other` (another file of the memo) gave.
    mutating func merge(_ other: Self) {
      title = other.title ?? title
      bookmarks += other.bookmarks
      transcript += other.transcript
      warning = other.warning ?? warning
      error = other.error ?? error
    }
  }

  /// Whether files of `kind` are searched.
  func searches(_ kind: MemoFileKind) -> Bool {
    switch scope {
    case .memo: kind == .transcript || kind == .title || kind == .bookmarks
    case .transcript: kind == .transcript
    case .spoken: kind == .transcript || kind == .bookmarks
    }
  }

  /// What the memo `candidate`'s files give, searched now.
  func memo(_ candidate: FolderGrouping.Candidate) -> Files {
    var result = Files()
    for kind in [MemoFileKind.title, .bookmarks] where searches(kind) {
      if let slot = candidate[kind], slot.kind == .file, let found = file(slot.name, kind) {
        result.merge(found)
      }
    }
    if let slot = candidate.transcript {
      if slot.kind == .file {
        if let found = file(slot.name, .transcript) { result.merge(found) }
      } else {
        result.error = notRegular(slot.name)
      }
    }
    return result
  }

  /// What the file `name` of `kind` (a regular file) gives, or nil for nothing worth keeping.
  func file(_ name: String, _ kind: MemoFileKind) -> Files? {
    let location = opened.file(name)
    if kind == .title {
      let title = Title.read(location, listedAsRegularFile: true)
      guard let text = title.text else { return nil }
      let hits = MemoSearch.hits(pattern, title: text, document: nil, limit: hitLimit)
      guard !hits.isEmpty else { return nil }
      // A hit in a damaged title (bytes that are not UTF-8, shown as �) says so, as lint does.
      return Files(
        title: (title, hits),
        warning: title.problems.first { $0.severity == .error }.map { warning(name, $0) })
    }
    if kind == .bookmarks {
      // A bookmarks file that cannot be read is lint's to report; its notes are searched for what it holds.
      guard
        let bytes = try? ReadOnlyFile.contents(
          of: location, usuallyUpTo: 1 << 14, listedAsRegularFile: true, limit: Bookmarks.maximumBytes)
      else { return nil }
      let bookmarks = Bookmarks.parse(bytes)
      let hits = MemoSearch.hits(pattern, bookmarks: bookmarks, limit: hitLimit)
      guard !hits.isEmpty else { return nil }
      return Files(
        bookmarks: hits,
        warning: bookmarks.problems.first { $0.severity == .error }.map { warning(name, $0) })
    }
    do {
      // Most transcripts fit in one read, with no fstat(2); a longer one is read again whole.
      let bytes = try ReadOnlyFile.contents(of: location, usuallyUpTo: 1 << 16, listedAsRegularFile: true)
      let (hits, damage) = MemoSearch.hits(pattern, title: nil, transcript: bytes, limit: hitLimit)
      guard !hits.isEmpty || damage != nil else { return nil }
      return Files(transcript: hits, warning: damage.map { warning(name, $0) })
    } catch let failure {
      return Files(error: "\(path(name)): \(failure.message)")
    }
  }

  /// The warning for a file searched though damaged.
  private func warning(_ name: String, _ damage: Diagnostic) -> String {
    damage.warning(file: PathText.join(folder, name), done: "searched what it holds")
  }

  /// The file `name` of the folder as messages name it.
  private func path(_ name: String) -> String { PathText.escaped(PathText.join(folder, name)) }

  /// The words for a transcript that is not a regular file.
  func notRegular(_ name: String) -> String { "\(path(name)): not a regular file; not searched" }
}
