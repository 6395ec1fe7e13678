import StashBrowser
import StashFormat

/// The memo folder through StashFormat: `MemoFolder.read` for the list, `WebVTTParser` and
/// `GPXReader`/`RouteStatistics` for a memo's detail. Keeps the last reading to find a memo's
/// files and transcripts (`TranscriptSearch` reads those).
final class FolderLibrary: MemoLibrary {
  private let folder: String
  private var reading: MemoFolder?
  private var memosByBase: [String: Memo] = [:]

  /// A library over `folder`.
  init(folder: String) { self.folder = folder }

  func list() -> (rows: [MemoRow], error: String?) {
    do {
      let read = try MemoFolder.read(path: folder)
      reading = read
      memosByBase = Dictionary(read.memos.map { ($0.base, $0) }, uniquingKeysWith: { a, _ in a })
      return (read.memos.map(FolderLibrary.row), nil)
    } catch {
      return ([], error.message)
    }
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
    let shownElsewhere: Set<String> = [
      FolderCode.audioDamaged, FolderCode.audioCutShort, FolderCode.audioLengthUnreadable,
      FolderCode.needsRecovery, FolderCode.captureWithoutAudio,
    ]
    let problems = memo.problems.filter { $0.severity >= .warning && !shownElsewhere.contains($0.code) }
      .map { problem in (problem.file.map { PathText.escaped($0) + ": " } ?? "") + problem.message }
    var partFiles: [String] = []
    if let parts = memo.parts {
      partFiles += parts.transcriptParts.map { "transcription." + FolderLibrary.fourDigits($0) + ".vtt" }
      partFiles += parts.routeParts.map { "track." + FolderLibrary.fourDigits($0) + ".gpx" }
      if parts.routeWithdrawn { partFiles.append("track.withdrawn") }
    }
    let files = MemoFileKind.allCases.filter { $0 != .parts }.compactMap { memo.files[$0] }
    return MemoRow(
      base: memo.base, displayName: memo.displayName, title: memo.titleText, recordedAt: memo.recordedAt,
      durationSeconds: memo.durationSeconds, audio: audio, hasTranscript: memo.hasTranscript,
      hasRoute: memo.hasRoute, needsRecovery: memo.needsRecovery, problems: problems, files: files,
      partFiles: partFiles, partsFolder: memo.files[.parts])
  }

  private static func fourDigits(_ n: Int) -> String {
    let s = String(n)
    return s.count >= 4 ? s : String(repeating: "0", count: 4 - s.count) + s
  }

  func detail(of base: String) -> MemoDetail {
    var detail = MemoDetail(
      transcript: .absent("no speech was recorded."), missingSpeech: [], transcriptNotes: [], route: nil,
      routeProblem: nil)
    guard let memo = memosByBase[base], let reading else { return detail }
    if let path = reading.path(of: memo, .transcript) {
      readTranscript(path, into: &detail)
    } else if let parts = memo.parts, !parts.transcriptParts.isEmpty {
      detail.transcript = .absent(
        "it is still in \(parts.transcriptParts.count) part(s) in \(PathText.escaped(parts.name))/: "
          + "the recording was killed before it finished. R recovers it.")
    }
    if let path = reading.path(of: memo, .route) { readRoute(path, into: &detail) }
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
      track.segments.map { segment in segment.points.map { ($0.latitude, $0.longitude) } }
    }
    detail.route = MemoDetail.Route(
      distanceMetres: stats.distance, durationSeconds: stats.duration,
      elevationGainMetres: stats.elevationGain, points: stats.pointCount, segments: stats.segmentCount,
      paths: paths)
  }

  func transcripts() -> [TranscriptFile] {
    guard let reading else { return [] }
    return reading.memos.compactMap { memo in
      reading.path(of: memo, .transcript).map { TranscriptFile(base: memo.base, path: $0) }
    }
  }

  func audioPath(of base: String) -> String {
    if let memo = memosByBase[base], let reading, let path = reading.path(of: memo, .audio) { return path }
    return (folder.hasSuffix("/") ? folder : folder + "/") + base + "_audio.m4a"
  }
}
