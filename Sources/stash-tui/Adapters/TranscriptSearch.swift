import StashFormat
import StashSearch

/// The transcript half of the filter: which memos' transcripts hold a text, found as `stash
/// search` and `S` find it (`SearchPattern.typed`: case and accents folded, a phrase across cues).
/// Each search reads the files again: the quick scan of their bytes passes over most without
/// parsing them (10,000 transcripts in well under a second), where keeping every transcript's text
/// to search again held all of them in memory. It runs on the runner's worker queue, one search at
/// a time.
final class TranscriptSearch: Sendable {
  /// How many transcripts are read between two progress reports.
  static let progressStep = 250

  /// The bases in `files` whose transcript holds `query`. `progress` is told how many files were
  /// looked at, every `progressStep` files; when it returns false the search stops and returns nil
  /// (a newer search superseded it). A transcript that cannot be read holds nothing; a damaged one
  /// holds what it gives.
  func search(
    _ query: String, in files: [TranscriptFile], progress: (_ done: Int, _ total: Int) -> Bool
  ) -> Set<String>? {
    guard let pattern = SearchPattern.typed(query) else { return [] }
    var hits: Set<String> = []
    for (index, file) in files.enumerated() {
      if index % TranscriptSearch.progressStep == 0, index > 0, !progress(index, files.count) { return nil }
      guard let bytes = try? file.bytes() else { continue }
      if !MemoSearch.hits(pattern, title: nil, transcript: bytes, limit: 1).hits.isEmpty {
        hits.insert(file.base)
      }
    }
    return hits
  }
}

/// A memo's transcript file, as the last folder reading found it.
struct TranscriptFile: Equatable, Sendable {
  /// The memo.
  var base: String
  /// Its name, in `folder`.
  var name: String
  /// The listing's folder, held open: the file is opened by its name in it.
  var folder: OpenFolder
  /// Whether the listing found a regular file under the name: it is then read with one `pread`
  /// and no `fstat` (`ReadOnlyFile.contents(of:usuallyUpTo:...)`), as `stash search` reads it.
  var listedAsRegularFile: Bool

  static func == (a: TranscriptFile, b: TranscriptFile) -> Bool {
    a.base == b.base && a.name == b.name && a.folder === b.folder
      && a.listedAsRegularFile == b.listedAsRegularFile
  }

  /// Its bytes (up to 64 MiB), read as the searches read them.
  func bytes() throws(FormatError) -> [UInt8] {
    try ReadOnlyFile.contents(
      of: folder.file(name), usuallyUpTo: 1 << 16, listedAsRegularFile: listedAsRegularFile, limit: 64 << 20)
  }
}
