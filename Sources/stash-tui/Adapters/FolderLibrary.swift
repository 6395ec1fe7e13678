import StashBrowser
import StashFormat
import Synchronization

/// The memo folder through StashFormat: the folder's names (`MemoFolder.group`) for the list at
/// once, `Memo.read` for each memo's row as it is filled in, `WebVTTParser` and
/// `GPXReader`/`RouteStatistics` for a memo's detail. Keeps the last listing's names to find a
/// memo's files (and `TranscriptSearch` reads those); memos themselves are not kept.
final class FolderLibrary: MemoLibrary {
  private let folder: String
  /// The last listing's names by base; replaced whole by `list`, read from any thread.
  private let listing = Mutex<[String: FolderGrouping.Candidate]>([:])
  /// The time a memo's date is judged plausible against, fixed per listing.
  private let now = Mutex<Double>(0)

  /// A library over `folder`.
  init(folder: String) { self.folder = folder }

  func list() -> (rows: [MemoRow], error: String?) {
    let grouping: FolderGrouping
    do {
      grouping = try MemoFolder.group(path: folder)
    } catch {
      return ([], error.message)
    }
    let candidates = grouping.candidates
    listing.withLock { $0 = Dictionary(candidates.map { ($0.base, $0) }, uniquingKeysWith: { a, _ in a }) }
    now.withLock { $0 = RecordingDate.currentTime() }
    return (MemoRow.inListingOrder(candidates.map(FolderLibrary.pendingRow)), nil)
  }

  func read(_ bases: [String]) -> [MemoRow] {
    let known = listing.withLock { names in bases.compactMap { names[$0] } }
    let (folder, now) = (self.folder, self.now.withLock { $0 })
    return Parallel.map(known.count, chunk: 8) {
      FolderLibrary.row(Memo.read(known[$0], folder: folder, now: now))
    }
  }

  /// A memo's row from its names alone: the date its base gives (or none yet), the files it has.
  static func pendingRow(_ candidate: FolderGrouping.Candidate) -> MemoRow {
    let date = RecordingDate.parse(base: candidate.base)
    let files = MemoFileKind.allCases.filter { $0 != .parts }.compactMap { candidate[$0]?.name }
    return MemoRow(
      base: candidate.base,
      displayName: date.map(RecordingDate.localMinute) ?? PathText.escaped(candidate.base),
      title: nil, recordedAt: date ?? 0, durationSeconds: nil, audio: candidate.audio == nil ? .missing : .ok,
      hasTranscript: candidate.transcript != nil, hasRoute: candidate.route != nil, needsRecovery: false,
      problems: [], files: files, partFiles: [], partsFolder: candidate.parts?.name, pending: true)
  }

  /// The row the list shows for `memo`.
  static func row(_ memo: Memo) -> MemoRow {
    let audio: MemoRow.Audio
    switch memo.audio?.state {
    case nil: audio = .missing
    case .ok: audio = .ok
    case .cutShort: audio = .cutShort
    case .damaged(let reason): audio = .damaged(reason)
    case .lengthUnreadable(let reason): audio = .lengthUnknown(reason)
    }
    // The audio state and the recovery notice have their own lines; the rest are listed.
    let shownElsewhere = AudioSummary.codes.union([
      .folderAudioDamaged, .folderAudioCutShort, .folderAudioLengthUnreadable, .folderNeedsRecovery,
      .folderCaptureWithoutAudio,
    ]).subtracting(MemoFileSniff.codes)
    let problems = memo.problems.filter { $0.severity >= .warning && !shownElsewhere.contains($0.code) }
      .map { problem in (problem.file.map { PathText.escaped($0) + ": " } ?? "") + problem.message }
    var partFiles: [String] = []
    if let parts = memo.parts {
      partFiles += parts.transcriptParts.map { "transcription." + FolderLibrary.fourDigits($0) + ".vtt" }
      partFiles += parts.routeParts.map { "track." + FolderLibrary.fourDigits($0) + ".gpx" }
      if parts.routeWithdrawn { partFiles.append("track.withdrawn") }
    }
    let files = MemoFileKind.allCases.filter { $0 != .parts }.compactMap { memo.files[$0] }
    var row = MemoRow(
      base: memo.base, displayName: memo.displayName, title: memo.titleText, recordedAt: memo.recordedAt,
      durationSeconds: memo.durationSeconds, audio: audio, hasTranscript: memo.hasTranscript,
      hasRoute: memo.hasRoute, needsRecovery: memo.needsRecovery, problems: problems, files: files,
      partFiles: partFiles, partsFolder: memo.files[.parts])
    row.hasProblem = MemoMarks(memo).problem
    return row
  }

  private static func fourDigits(_ n: Int) -> String {
    let s = String(n)
    return s.count >= 4 ? s : String(repeating: "0", count: 4 - s.count) + s
  }

  /// The path of the memo's file of `kind`, from the last listing.
  private func path(_ candidate: FolderGrouping.Candidate, _ kind: MemoFileKind) -> String? {
    candidate[kind].map { (folder.hasSuffix("/") ? folder : folder + "/") + $0.name }
  }

  func detail(of base: String) -> MemoDetail {
    var detail = MemoDetail(
      transcript: .absent("the memo has no transcript file."), missingSpeech: [], transcriptNotes: [],
      route: nil,
      routeProblem: nil)
    guard let candidate = listing.withLock({ $0[base] }) else { return detail }
    if let path = path(candidate, .transcript) {
      readTranscript(path, into: &detail)
    } else if let name = candidate.parts?.name, let partsPath = path(candidate, .parts) {
      let parts = PartsFolder.read(path: partsPath, name: name)
      if !parts.transcriptParts.isEmpty {
        detail.transcript = .absent(
          "it is still in \(parts.transcriptParts.count) part(s) in \(PathText.escaped(parts.name))/: "
            + "the recording was killed before it finished. R recovers it.")
      }
    }
    if let path = path(candidate, .route) { readRoute(path, into: &detail) }
    return detail
  }

  private func readTranscript(_ path: String, into detail: inout MemoDetail) {
    let bytes: [UInt8]
    do {
      bytes = try ReadOnlyFile.contents(of: path, limit: 64 << 20)
    } catch {
      detail.transcript = .unreadable(reason: error.message, line: error.location.line)
      return
    }
    let document = WebVTTParser.parse(bytes)
    let errors = document.diagnostics.filter { $0.severity == .error }
    if document.cues.isEmpty, let first = errors.first {
      detail.transcript = .unreadable(reason: first.message, line: first.location.line)
      return
    }
    detail.missingSpeech = document.missingSpeech.map { .init(start: $0.start, end: $0.end) }
    detail.transcript = .cues(document.cues.map(FolderLibrary.cue))
    if let first = errors.first {
      let at = first.location.line.map { " (line \($0))" } ?? ""
      let more = errors.count > 1 ? " and \(errors.count - 1) more" : ""
      detail.transcriptNotes.append("Transcript problem\(at): \(first.message)\(more); the rest is shown.")
    }
  }

  /// A cue as shown: its words, with their own times only when the cue has inline timestamps
  /// (otherwise every word would carry the cue's start and the last would look spoken).
  static func cue(_ cue: WebVTTCue) -> MemoDetail.Cue {
    let words = cue.words
    let timed = words.contains { $0.startTime != cue.startTime }
    return MemoDetail.Cue(
      start: cue.startTime, end: cue.endTime,
      words: words.map {
        MemoDetail.Word(text: $0.text, start: timed ? $0.startTime : nil, unconfirmed: !$0.confirmed)
      })
  }

  private func readRoute(_ path: String, into detail: inout MemoDetail) {
    let document: GPXDocument
    do {
      document = try GPXReader.read(path: path)
    } catch {
      detail.routeProblem = error.message
      return
    }
    let stats = RouteStatistics(document: document)
    if stats.pointCount == 0 {
      let first = document.diagnostics.first { $0.severity == .error }
      let at = first?.location.line.map { " (line \($0))" } ?? ""
      detail.routeProblem = first.map { $0.message + at } ?? "the route has no points."
      return
    }
    let paths = document.tracks.flatMap { track in
      track.segmentsOnGlobe.map { segment in segment.points.map { ($0.latitude, $0.longitude) } }
    }
    detail.route = MemoDetail.Route(
      distanceMetres: stats.distance, durationSeconds: stats.duration,
      elevationGainMetres: stats.elevationGain, points: stats.pointCount, segments: stats.segmentCount,
      paths: paths)
  }

  func transcripts() -> [TranscriptFile] {
    // Bases in reverse byte order: newest first for bases that are dates, as the list mostly is.
    // Sorted as (base, path) pairs: a candidate is a large value, and moving it is a sort's cost.
    let files = listing.withLock { names in
      names.values.compactMap { candidate in
        path(candidate, .transcript).map { TranscriptFile(base: candidate.base, path: $0) }
      }
    }
    return files.sorted { $1.base.utf8.lexicographicallyPrecedes($0.base.utf8) }
  }

  func audioPath(of base: String) -> String {
    if let candidate = listing.withLock({ $0[base] }), let path = path(candidate, .audio) { return path }
    return (folder.hasSuffix("/") ? folder : folder + "/") + base + "_audio.m4a"
  }
}
