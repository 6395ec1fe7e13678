#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension Memo {
  /// Reads one memo's parts folder, audio summary and title, and works out its date and problems.
  /// With `opened` (the same folder, held open), its files are opened by name in it. With
  /// `sniffing` false the transcript's head and the route's tail are not looked at: for a caller
  /// that reads both whole and says more about them (lint).
  package static func read(
    _ candidate: FolderGrouping.Candidate, folder: String, now: Double, opened: OpenFolder? = nil,
    sniffing: Bool = true
  ) -> Memo {
    read(
      candidate, folder: folder, now: now, opened: opened,
      baseDate: RecordingDate.parse(base: candidate.base),
      sniffing: sniffing)
  }

  /// `read`, given the date the base names (`RecordingDate.parse(base: candidate.base)`): for a
  /// caller that parsed every base already, to put the memos in order.
  package static func read(
    _ candidate: FolderGrouping.Candidate, folder: String, now: Double, opened: OpenFolder?,
    baseDate: Double?,
    sniffing: Bool = true
  ) -> Memo {
    read(candidate, folder: folder, now: now, opened: opened, baseDate: baseDate, sniffing: sniffing) {
      AudioSummary.read($0, listedAsRegularFile: $1)
    }
  }

  /// `read` for lint, without the sniffs: the audio is opened and parsed once for its summary and
  /// the diagnostics of its full index (`MP4Audio.lintReading`), which come back beside the memo
  /// when `fullAudioIndex` wants them given the summary (nil otherwise, and without audio).
  package static func readForLint(
    _ candidate: FolderGrouping.Candidate, folder: String, now: Double, opened: OpenFolder?,
    fullAudioIndex: (AudioSummary) -> Bool
  ) -> (memo: Memo, audioDiagnostics: Result<[Diagnostic], FormatError>?) {
    var audioDiagnostics: Result<[Diagnostic], FormatError>?
    let memo = read(
      candidate, folder: folder, now: now, opened: opened,
      baseDate: RecordingDate.parse(base: candidate.base),
      sniffing: false
    ) { location, listed in
      let reading = MP4Audio.lintReading(location, listedAsRegularFile: listed, fullIndex: fullAudioIndex)
      audioDiagnostics = reading.diagnostics
      return reading.summary
    }
    return (memo, audioDiagnostics)
  }

  /// `read`, with the audio's summary made by `summarize` (given the file and whether the
  /// listing called it a regular file).
  private static func read(
    _ candidate: FolderGrouping.Candidate, folder: String, now: Double, opened: OpenFolder?,
    baseDate: Double?, sniffing: Bool, summarize: (FileLocation, Bool) -> AudioSummary
  ) -> Memo {
    var problems: [MemoProblem] = []
    var files: [MemoFileKind: String] = [:]
    files.reserveCapacity(MemoFileKind.allCases.count)
    for kind in MemoFileKind.allCases { if let slot = candidate[kind] { files[kind] = slot.name } }
    // The names come from the candidate's slots: a look-up there is a switch, not a hash.
    func path(_ kind: MemoFileKind) -> String? { candidate[kind].map { MemoFolder.join(folder, $0.name) } }
    func location(_ kind: MemoFileKind) -> FileLocation? {
      guard let name = candidate[kind]?.name else { return nil }
      return opened?.file(name) ?? FileLocation(path: MemoFolder.join(folder, name))
    }
    /// Whether the folder's listing called it a regular file, so its open need not stat it first.
    func listedAsFile(_ kind: MemoFileKind) -> Bool { candidate[kind]?.kind == .file }
    func readable(_ kind: MemoFileKind) -> Bool {
      guard let entryKind = candidate[kind]?.kind else { return false }
      if entryKind.isReadableFile { return true }
      problems.append(
        MemoProblem(
          file: candidate[kind]?.name,
          Diagnostic(
            code: .folderNotAFile, severity: .error,
            message: "the \(kind.words) is \(entryKind.words), not a file: it is not read")))
      return false
    }

    var parts: PartsFolder?
    if let name = candidate.parts?.name {
      parts = PartsFolder.read(path: MemoFolder.join(folder, name), name: name)
    }

    var audio: AudioSummary?
    var audioIsFile = true
    if let audioLocation = location(.audio) {
      audioIsFile = readable(.audio)
      if audioIsFile {
        audio = summarize(audioLocation, listedAsFile(.audio))
      } else {
        let kind = candidate.audio!.kind
        audio = AudioSummary(
          state: .damaged(reason: "the audio is \(kind.words), not a file"), durationSeconds: nil,
          creationTime: nil, fragmented: false)
      }
    }

    var title: Title?
    if let titleLocation = location(.title) {
      if readable(.title) {
        title = Title.read(titleLocation, listedAsRegularFile: listedAsFile(.title))
      } else {
        title = Title(text: nil, displayText: nil, byteCount: nil, problems: [])
      }
    }
    // Only counted: lint reads the bookmarks for their problems.
    var bookmarkCount = 0
    if let bookmarks = location(.bookmarks), readable(.bookmarks),
      let bytes = try? ReadOnlyFile.contents(
        of: bookmarks, usuallyUpTo: 4096, listedAsRegularFile: listedAsFile(.bookmarks),
        limit: Bookmarks.maximumBytes)
    {
      bookmarkCount = Bookmarks.parse(bytes).items.count
    }
    // `readable` notes a transcript or route that is not a file, sniffed or not.
    if let transcript = location(.transcript), readable(.transcript), sniffing,
      let sniffed = MemoFileSniff.transcript(at: transcript, listedAsRegularFile: listedAsFile(.transcript))
    {
      problems.append(MemoProblem(file: candidate.transcript?.name, sniffed))
    }
    if let route = location(.route), readable(.route), sniffing,
      let sniffed = MemoFileSniff.route(at: route, listedAsRegularFile: listedAsFile(.route))
    {
      problems.append(MemoProblem(file: candidate.route?.name, sniffed))
    }

    // The date: the base, then the audio's own creation time, then a modification time.
    var recordedAt: Double
    var source: DateSource
    if let fromBase = baseDate {
      (recordedAt, source) = (fromBase, .base)
    } else if let created = audio?.creationTime, RecordingDate.isPlausible(created, now: now) {
      (recordedAt, source) = (created, .audio)
    } else {
      (recordedAt, source) = (modificationTime(path(.audio) ?? path(.parts)!) ?? 0, .mtime)
    }

    var memo = Memo(
      base: candidate.base, files: files, recordedAt: recordedAt, dateSource: source, title: title,
      displayName: Memo.displayName(title: title, base: candidate.base, recordedAt: recordedAt),
      audio: audio, parts: parts,
      problems: [],
      notFiles: Set(
        candidate.filled.lazy.filter { $0.0 != .parts && $0.1.kind != .file && $0.1.kind != .symlinkToFile }
          .map(\.0)))
    memo.bookmarkCount = bookmarkCount
    // Audio that is not a file already has its problem (folder-not-a-file); its state only repeats it.
    if audioIsFile { problems += memo.audioProblems() }
    problems += memo.partsProblems(folder: folder)
    for problem in title?.problems ?? [] { problems.append(MemoProblem(file: files[.title], problem)) }
    memo.problems = problems
    return memo
  }

  /// The audio state as a problem, when it is not ok.
  func audioProblems() -> [MemoProblem] {
    guard let name = files[.audio] else {
      return [
        MemoProblem(
          file: files[.parts],
          Diagnostic(
            code: .folderCaptureWithoutAudio, severity: .warning,
            message:
              "parts of a recording with no audio file beside them: the audio was moved or deleted. "
              + "Recovery can still assemble the transcript and route"))
      ]
    }
    switch audio?.state {
    case .ok?, nil:
      return []
    case .cutShort(let tail)?:
      return [
        MemoProblem(
          file: name,
          Diagnostic(
            code: audio?.code ?? .folderAudioCutShort, severity: .warning,
            message:
              "the recording was cut short: it plays up to its last whole sample; "
              + "\(tail) bytes after it are a torn tail"))
      ]
    case .damaged(let reason)?:
      return [
        MemoProblem(
          file: name,
          Diagnostic(
            code: audio?.code ?? .folderAudioDamaged, severity: .error,
            message: "the audio cannot be played: \(reason)")
        )
      ]
    case .lengthUnreadable(let reason)?:
      return [
        MemoProblem(
          file: name,
          Diagnostic(
            code: audio?.code ?? .folderAudioLengthUnreadable, severity: .warning,
            message: "the length of the audio cannot be read (\(reason)); it may still play"))
      ]
    }
  }

  /// What the parts folder says: recovery to do, parts kept beside a finished file (with what they
  /// lost, read from their bytes: only for this state, which is rare), a withdrawn route, leftovers.
  func partsProblems(folder: String) -> [MemoProblem] {
    guard let parts else { return [] }
    let name = parts.name
    var out: [MemoProblem] = []
    if let reason = parts.unreadable {
      out.append(
        MemoProblem(
          file: name,
          Diagnostic(
            code: .folderPartsUnreadable, severity: .error,
            message: "the parts folder cannot be read: \(reason)")))
      return out
    }
    let toAssemble = partsToAssemble
    if !toAssemble.isEmpty {
      let what = toAssemble.map { kind in
        let count = kind == .transcript ? parts.transcriptParts.count : parts.routeParts.count
        return "the \(kind.words) (\(count) part\(count == 1 ? "" : "s"))"
      }
      out.append(
        MemoProblem(
          file: name,
          Diagnostic(
            code: .folderNeedsRecovery, severity: .warning,
            message:
              // The parts alone cannot tell a recording killed from one still running.
              "\(what.joined(separator: " and ")) \(toAssemble.count == 1 ? "is not a finished file" : "are not finished files"): "
              + "the recording was stopped before it finished, or is still running. Run `stash recover` "
              + "to assemble it (it leaves alone a capture changed in the last two minutes)")))
    }
    for kind in partsBesideFinished {
      let numbers = kind == .transcript ? parts.transcriptParts : parts.routeParts
      let count = numbers.count
      let loss = PartsLoss.read(folder: MemoFolder.join(folder, name), kind, numbers: numbers)
      let advice =
        loss.isEmpty
        ? ": `stash recover` removes them if the finished file holds all they hold"
        : ". " + loss.acceptance
      out.append(
        MemoProblem(
          file: name,
          Diagnostic(
            code: .folderPartsBesideFinished, severity: .warning,
            message:
              "\(count) \(kind.words) part\(count == 1 ? " was" : "s were") kept beside the finished \(kind.words): "
              + loss.summary + advice)))
    }
    if parts.routeWithdrawn {
      out.append(
        MemoProblem(
          file: name,
          Diagnostic(
            code: .folderRouteWithdrawn, severity: .warning,
            message:
              "the route was withdrawn (location turned off mid-recording) and its deletion may be unfinished: "
              + "Run `stash recover` to finish it; the route is never published")))
    }
    if parts.isEmpty {
      out.append(
        MemoProblem(
          file: name,
          Diagnostic(
            code: .folderPartsEmpty, severity: .info,
            message: "the parts folder is empty: a leftover of a clean stop, not a sign of a crash")))
    } else if !parts.strangers.isEmpty {
      let list = parts.strangers.prefix(5).joined(separator: ", ") + (parts.strangers.count > 5 ? ", …" : "")
      out.append(
        MemoProblem(
          file: name,
          Diagnostic(
            code: .folderPartsStrangers, severity: .info,
            message:
              "the parts folder holds \(parts.strangers.count) file\(parts.strangers.count == 1 ? "" : "s") "
              + "Stash does not write (\(list))"
              + (parts.holdsOnlyStrangers ? ": not a sign of a crash" : "") + "; they are kept")))
    }
    return out
  }

  /// A file's modification time (`stat(2)`; for a dangling symlink, the link's own by `lstat(2)`),
  /// seconds since 1970, or nil when neither can be read.
  /// The name a memo is shown by (FORMAT.md §1.4): its title; without one, the words of its base
  /// (a base that is not a date, or the words after its date); else its recording date.
  package static func displayName(title: Title?, base: String, recordedAt: Double) -> String {
    title?.displayText ?? RecordingDate.words(inBase: base) ?? RecordingDate.localMinute(recordedAt)
  }

  static func modificationTime(_ path: String) -> Double? {
    var info = stat()
    guard stat(path, &info) == 0 || lstat(path, &info) == 0 else { return nil }
    return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
  }
}
