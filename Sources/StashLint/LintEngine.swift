import StashFormat

/// Runs every check over a memo folder (or one file) and hands the findings on in print order
/// (`LintFinding.sorted`'s) as they are found. Memos are checked in name order, a batch at a time
/// on both cores, and each memo is read only when its batch comes, so neither the memos nor the
/// findings pile up: what is held is one batch and the findings not yet known to come first.
package enum LintEngine {
  /// Audio codes that state facts rather than problems; the listing and `inspect` show them.
  package static let quietAudioCodes: Set<FormatError.Code> = [
    .mp4PrimingAssumed, .mp4ComplexEditList, .mp4GaplessMetadata, .mp4SbrNotSignalled,
  ]
  /// What the listing found from a summary or a few bytes; lint reads each file whole and reports
  /// its findings instead.
  package static let listingAudioCodes: Set<FormatError.Code> = AudioSummary.codes.union(MemoFileSniff.codes)
    .union([.folderAudioDamaged, .folderAudioCutShort, .folderAudioLengthUnreadable])
  /// How many memos are read and checked together: enough to keep both cores busy past the
  /// uneven ones (a long recording), few enough that a batch is a few megabytes.
  package static let batchSize = 512

  /// Every finding in the folder at `path`, handed to `emit` in print order. Throws only when the
  /// folder itself cannot be read, and then before anything is handed on.
  /// With a `cache`, a memo whose checked files have not changed and whose entry holds no finding
  /// is not checked again (one with findings is, to say them); the caller saves the cache after.
  package static func lint(
    folder path: String, deepAudio: Bool = false, cache: FindingsCache? = nil, emit: (LintFinding) -> Void
  ) throws(FormatError) {
    let folder = try MemoFolderOrder<FolderGrouping>(path: path, by: .name)
    let (grouping, now, opened) = (folder.names, folder.now, folder.opened)
    let candidates = grouping.candidates
    // Every finding of a memo is on one of its names, and each of those starts with its base, so
    // its escaped base is a lower bound on where its findings print; another name's own findings
    // (an orphan's, a collision's) are on that name. Going through these sources in the order of
    // their bounds, a finding can be printed as soon as the next source's bound is past it.
    var sources: [LintSource] = folder.order.map { index in
      LintSource(bound: folder.escapedBases[index], kind: .memo(index))
    }
    for (index, entry) in grouping.others.enumerated() where entry.diagnostic != nil {
      sources.append(LintSource(bound: Array(entry.name.utf8), kind: .other(index)))
    }
    for finding in collisionFindings(grouping, folder: path, now: now) {
      sources.append(LintSource(bound: Array(finding.name.utf8), kind: .found(finding)))
    }
    // The memos come in this order already (stably sorted, as this sort is); the other names and
    // the collisions are put among them.
    sources.sort { LintSource.precedes($0.bound, $1.bound) }

    var window = LintFinding.Window()
    var start = 0
    while start < sources.count {
      let batch = sources[start..<min(sources.count, start + batchSize)]
      let checked = Parallel.map(batch.count, chunk: MemoFolderOrder<FolderGrouping>.piece) {
        offset -> [LintFinding] in
        switch batch[batch.startIndex + offset].kind {
        case .memo(let index):
          return MemoAccount.findings(
            candidates[index], folder: path, now: now, opened: opened, deepAudio: deepAudio, cache: cache
          ).findings
        case .other(let index):
          let entry = grouping.others[index]
          return [LintFinding(entry.diagnostic!, name: entry.name, folder: path)]
        case .found(let finding):
          return [finding]
        }
      }
      for (source, found) in zip(batch, checked) {
        window.release(before: source.bound, to: emit)
        window.add(found)
      }
      start += batch.count
    }
    window.release(before: nil, to: emit)
  }

  /// One finding on each colliding memo's audio (or, without audio, its first file), so each
  /// file is annotated where it is. Memos whose escaped bases are canonically equal share the
  /// newest one's file, as the folder's listing order has them.
  package static func collisionFindings(_ grouping: FolderGrouping, folder: String, now: Double)
    -> [LintFinding]
  {
    guard !grouping.collisions.isEmpty else { return [] }
    var findings: [LintFinding] = []
    for collision in grouping.collisions {
      for base in collision.bases {
        let matches = grouping.candidates.filter { PathText.escaped($0.base) == base }
        var chosen = matches.first
        if matches.count > 1 {
          // The first in the listing's order: newest, then bases in byte order.
          let memos = matches.map { Memo.read($0, folder: folder, now: now) }
          let first = memos.indices.min { i, j in
            MemoFolder.listsBefore(
              memos[i].recordedAt, memos[i].base, memos[j].recordedAt, memos[j].base)
          }!
          chosen = matches[first]
        }
        let name = chosen.flatMap { candidate in
          (candidate.audio?.name ?? candidate.filled.map(\.1.name).sorted().first).map(PathText.escaped)
        }
        findings.append(LintFinding(collision.diagnostic, name: name ?? base, folder: folder))
      }
    }
    return findings
  }

  /// The findings of one file checked on its own (no memo around it), chosen by its suffix.
  /// Throws when the file cannot be opened at all.
  package static func lint(file path: String) throws(FormatError) -> [LintFinding] {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[..<$0]) } ?? "."
    let name = PathText.escaped(slash.map { String(path[path.index(after: $0)...]) } ?? path)
    var checks = FileChecks(name: name, folder: folder)
    let lower = path.lowercased()
    if lower.hasSuffix(".m4a") || lower.hasSuffix(".mp4") || lower.hasSuffix(".qta") {
      if VoiceMemoName.parse(slash.map { String(path[path.index(after: $0)...]) } ?? path) != nil {
        checks.add([
          Diagnostic(code: .folderUnrecognised, severity: .info, message: VoiceMemoName.notYetAMemo)
        ])
      }
      checks.audio(try MP4Audio.diagnostics(ReadOnlyFile(path: path)))
    } else if path.hasSuffix(MemoFileKind.bookmarks.suffix) {
      checks.add(Bookmarks.parse(try ReadOnlyFile.contents(of: path, limit: Bookmarks.maximumBytes)).problems)
    } else if lower.hasSuffix(".vtt") {
      checks.transcript(WebVTTParser.check(try ReadOnlyFile.contents(of: path)), audioSeconds: nil)
    } else if lower.hasSuffix(".gpx") {
      checks.route(try ReadOnlyFile.contents(of: path), span: nil)
    } else if path.hasSuffix(MemoFileKind.title.suffix) {
      checks.add(try Title.read(ReadOnlyFile(path: path)).problems)
    } else {
      throw FormatError(
        code: .unknownKind,
        message:
          "stash lint checks folders, and .m4a or .mp4, .vtt, .gpx and _title.txt files; this is none of them",
        path: path)
    }
    return LintFinding.sorted(checks.findings)
  }
}

/// Where some of a folder's findings come from, made when its batch comes; none of them print
/// before `bound`.
package struct LintSource {
  /// What the findings are made from.
  package enum Kind {
    /// The memo of this index among the folder's candidates: read and checked.
    case memo(Int)
    /// The name of this index among the folder's other names (an orphan, a stranger).
    case other(Int)
    /// A finding made already (a name collision's).
    case found(LintFinding)
  }

  /// The escaped name every finding of this source is at or after, as bytes.
  package var bound: [UInt8]
  package var kind: Kind

  /// Whether `a` sorts before `b`, byte by byte (`lexicographicallyPrecedes`, by memcmp: the
  /// sources of 100,000 memos are sorted on one thread before any is checked).
  package static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    a.withUnsafeBytes { x in b.withUnsafeBytes { y in ByteOrder.precedes(x, y) } }
  }
}

/// The checks of one memo: the reader's problems, then each file's own diagnostics and the
/// cross-file rules.
package struct MemoChecks {
  /// The memo as the folder reader saw it.
  package var memo: Memo
  /// Whether the folder's listing called the transcript and the route regular files.
  package var listedAsFiles: (transcript: Bool, route: Bool)
  /// The linted folder's path as given.
  package var folder: String
  /// The same folder held open, its files opened by name in it.
  package var opened: OpenFolder
  /// The diagnostics of the audio's full index (or why it could not be read), read with the
  /// memo when `wantsFullIndex` said so; nil when not wanted or without audio.
  package var audioDiagnostics: Result<[Diagnostic], FormatError>?

  /// Whether the audio's full index is read, given its summary. The full index names the exact
  /// problem and finds broken sample tables in a file that otherwise plays. A long fragmented
  /// recording the summary found whole is walked only with `deepAudio`: visiting each of its
  /// hundreds of fragments costs more than the rest of lint.
  package static func wantsFullIndex(_ summary: AudioSummary, deepAudio: Bool) -> Bool {
    deepAudio || summary.state != .ok || !summary.fragmented
  }

  /// Where one of the memo's files is.
  package func location(_ name: String) -> FileLocation { opened.file(name) }

  /// The memo's file of `kind` opened for reading; a name the listing called a regular file is
  /// opened without the `stat(2)` before it (as `Memo.read` opens it).
  package func open(_ kind: MemoFileKind, _ name: String) throws(FormatError) -> ReadOnlyFile {
    let listed =
      switch kind {
      case .transcript: listedAsFiles.transcript
      case .route: listedAsFiles.route
      default: false
      }
    return try ReadOnlyFile(location(name), listedAsRegularFile: listed)
  }

  /// `listedAsFiles` of a memo the listing found: flags, so checking copies none of its names.
  package static func listedAsFiles(_ candidate: FolderGrouping.Candidate) -> (transcript: Bool, route: Bool)
  {
    (candidate.transcript?.kind == .file, candidate.route?.kind == .file)
  }

  /// Everything found in the memo's files, unsorted.
  package func findings() -> [LintFinding] {
    problemFindings() + fileFindings().flatMap(\.findings)
  }

  /// What the folder reader found (`memo.problems`, the listing's own codes left out): made by
  /// every read of the memo, so never cached.
  package func problemFindings() -> [LintFinding] {
    var out: [LintFinding] = []
    for problem in memo.problems where !LintEngine.listingAudioCodes.contains(problem.code) {
      let name = problem.file.map(PathText.escaped) ?? PathText.escaped(memo.base)
      out.append(LintFinding(problem.diagnostic, name: name, folder: folder))
    }
    return out
  }

  /// What the checks of the audio's full index, the transcript, the route and the bookmarks
  /// found, by the file they are on (what `FindingsCache` keeps).
  package func fileFindings() -> [(kind: MemoFileKind, findings: [LintFinding])] {
    var out: [(kind: MemoFileKind, findings: [LintFinding])] = []
    let notFiles = Set(memo.problems.filter { $0.code == .folderNotAFile }.compactMap(\.file))
    func readable(_ kind: MemoFileKind) -> String? {
      guard let name = memo.files[kind], !notFiles.contains(name) else { return nil }
      return name
    }
    if let name = readable(.audio), let audioDiagnostics {
      var checks = FileChecks(unescaped: name, folder: folder)
      switch audioDiagnostics {
      case .success(let diagnostics): checks.audio(diagnostics)
      case .failure(let error): checks.unreadable(error)
      }
      out.append((.audio, checks.findings))
    }
    let seconds = memo.durationSeconds
    if let name = readable(.transcript) {
      var checks = FileChecks(unescaped: name, folder: folder)
      do {
        let bytes = try open(.transcript, name).readAll()
        var cutShort = false
        if case .cutShort = memo.audio?.state { cutShort = true }
        checks.transcript(WebVTTParser.check(bytes), audioSeconds: seconds, audioCutShort: cutShort)
      } catch {
        checks.unreadable(error)
      }
      out.append((.transcript, checks.findings))
    }
    if let name = readable(.route) {
      var checks = FileChecks(unescaped: name, folder: folder)
      // The span is known only when the start is (not a guess from a modification time) and the length is.
      let span: ClosedRange<Double>? =
        memo.dateSource != .mtime && seconds != nil ? memo.recordedAt...(memo.recordedAt + seconds!) : nil
      do {
        checks.route(try open(.route, name).readAll(), span: span)
      } catch {
        checks.unreadable(error)
      }
      out.append((.route, checks.findings))
    }
    if let name = readable(.bookmarks) {
      var checks = FileChecks(unescaped: name, folder: folder)
      do {
        let bytes = try open(.bookmarks, name).readAll(limit: Bookmarks.maximumBytes)
        checks.add(Bookmarks.parse(bytes, audioLength: seconds).problems)
      } catch {
        checks.unreadable(error)
      }
      out.append((.bookmarks, checks.findings))
    }
    return out
  }
}
