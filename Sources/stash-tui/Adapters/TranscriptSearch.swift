import StashFormat

/// The transcript half of the filter: which memos' transcripts contain a text. Keeps the
/// lower-cased plain text of each transcript keyed by its size and modification time, so only the
/// first search reads every file. It runs on the runner's worker queue, one search at a time; the
/// cache is touched from nowhere else (hence `@unchecked Sendable`).
final class TranscriptSearch: @unchecked Sendable {
  /// How many transcripts are read between two progress reports.
  static let progressStep = 250

  private var cache: [String: (size: Int, time: Double, text: String)] = [:]

  /// A search with an empty cache.
  init() {}

  /// The bases in `files` whose transcript contains `query` (case-insensitive). `progress` is
  /// told how many files were looked at, every `progressStep` files; when it returns false the
  /// search stops and returns nil (a newer search superseded it). What was read stays cached.
  func search(
    _ query: String, in files: [TranscriptFile], progress: (_ done: Int, _ total: Int) -> Bool
  ) -> Set<String>? {
    let needle = query.lowercased()
    guard !needle.isEmpty else { return [] }
    var hits: Set<String> = []
    for (index, file) in files.enumerated() {
      if index % TranscriptSearch.progressStep == 0, index > 0, !progress(index, files.count) { return nil }
      if text(of: file).contains(needle) { hits.insert(file.base) }
    }
    let present = Set(files.map(\.base))
    cache = cache.filter { present.contains($0.key) }
    return hits
  }

  /// The searchable text of `file`, read again only when its size or time changed.
  private func text(of file: TranscriptFile) -> String {
    guard let handle = try? ReadOnlyFile(path: file.path) else { return "" }
    if let entry = cache[file.base], entry.size == handle.size, entry.time == handle.modificationTime {
      return entry.text
    }
    let bytes = (try? handle.readAll(limit: 64 << 20)) ?? []
    let text = WebVTTParser.parse(bytes).cues.map(\.plainText).joined(separator: "\n").lowercased()
    cache[file.base] = (handle.size, handle.modificationTime, text)
    return text
  }
}

/// A memo's transcript file, as the last folder reading found it.
struct TranscriptFile: Equatable, Sendable {
  /// The memo.
  var base: String
  /// The transcript's path.
  var path: String
}
