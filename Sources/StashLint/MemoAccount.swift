import StashFormat

/// One account of a memo's problems: the findings `stash lint` gives for it. `stash ls` and the
/// browser's list mark `!` from it, `stash show` and the browser's detail pane list it, and lint
/// prints it, so none of them can disagree (FORMAT.md §1.9).
package struct MemoAccount: Sendable {
  /// The memo as read for its checks.
  package var memo: Memo
  /// Its findings in print order, the folder's configuration applied.
  package var findings: [LintFinding]

  /// Whether the memo earns `!`: a finding that is a warning or an error, other than the one that
  /// says parts wait to be assembled (folder-needs-recovery), which has the `*` mark of its own.
  package var hasProblem: Bool {
    findings.contains { $0.severity >= .warning && $0.code != .reader(.folderNeedsRecovery) }
  }

  /// The findings that earn `!`, as one line each: `name: message`.
  package var problemLines: [String] {
    findings.filter { $0.severity >= .warning && $0.code != .reader(.folderNeedsRecovery) }
      .map { "\($0.name): \($0.message)" }
  }

  /// Reads the memo of `candidate` in `folder` as lint does and checks it; `collisions` are the
  /// folder's name-collision findings (`LintEngine.collisionFindings`), of which the memo's own
  /// are kept. With a `cache`, a memo whose checked files have not changed is not checked again;
  /// without `messages`, the findings the cache answers for carry no message (only `hasProblem`
  /// is asked: the `!` mark), else a memo with findings is checked again to say them.
  package static func read(
    _ candidate: FolderGrouping.Candidate, folder: String, now: Double, opened: OpenFolder,
    configuration: LintConfiguration = LintConfiguration(), collisions: [LintFinding] = [],
    cache: FindingsCache? = nil, messages: Bool = true
  ) -> MemoAccount {
    let (memo, found) = findings(
      candidate, folder: folder, now: now, opened: opened, deepAudio: false, cache: cache, messages: messages)
    var all = found
    if !collisions.isEmpty {
      all += collisions.filter { PartsFolderArgument.belongs($0.name, to: candidate.base) }
    }
    if configuration.changesFindings { all = all.compactMap(configuration.apply) }
    return MemoAccount(memo: memo, findings: LintFinding.sorted(all))
  }

  /// The memo of `candidate` read as lint reads it, and every finding of its files, unsorted and
  /// as found (no configuration): what `stash lint` reports for one memo. With a `cache` (not
  /// used with `deepAudio`), the file checks' findings come from the memo's entry when its files
  /// and its date and length are as they were (see `read` for `messages`), and a memo checked is
  /// kept there.
  package static func findings(
    _ candidate: FolderGrouping.Candidate, folder: String, now: Double, opened: OpenFolder, deepAudio: Bool,
    cache: FindingsCache? = nil, messages: Bool = true
  ) -> (memo: Memo, findings: [LintFinding]) {
    guard let cache, !deepAudio else {
      return checked(candidate, folder: folder, now: now, opened: opened, deepAudio: deepAudio).account
    }
    // The stats are taken before any byte is read: a file changed after them has another key.
    let (key, settled) = FindingsCache.key(candidate, opened: opened, now: now)
    if let entry = cache.entry(key), !(messages && !entry.findings.isEmpty) {
      let memo = Memo.read(candidate, folder: folder, now: now, opened: opened, sniffing: false)
      if entry.fits(memo) {
        let checks = MemoChecks(
          memo: memo, listedAsFiles: MemoChecks.listedAsFiles(candidate), folder: folder, opened: opened,
          audioDiagnostics: nil)
        return (memo, checks.problemFindings() + entry.lintFindings(memo, folder: folder))
      }
    }
    let (account, files) = checked(candidate, folder: folder, now: now, opened: opened, deepAudio: false)
    if settled, files.reduce(0, { $0 + $1.findings.count }) <= FindingsCacheFile.findingsLimit {
      let kept = files.flatMap { file in
        file.findings.map { finding in
          FindingsCache.Finding(
            kind: file.kind, code: finding.code, severity: finding.severity, location: finding.location,
            unlisted: finding.unlisted)
        }
      }
      cache.store(key, FindingsCache.Entry(account.memo, findings: kept))
    }
    return account
  }

  /// The memo read for lint and every check run: the account, and the file checks' findings by file.
  private static func checked(
    _ candidate: FolderGrouping.Candidate, folder: String, now: Double, opened: OpenFolder, deepAudio: Bool
  ) -> (
    account: (memo: Memo, findings: [LintFinding]), files: [(kind: MemoFileKind, findings: [LintFinding])]
  ) {
    // Lint reads the transcript and route whole, so the listing's sniffs (whose codes it drops)
    // would only open them once more; the audio is read once for the summary and the full index.
    let (memo, audio) = Memo.readForLint(
      candidate, folder: folder, now: now, opened: opened,
      fullAudioIndex: { MemoChecks.wantsFullIndex($0, deepAudio: deepAudio) })
    let checks = MemoChecks(
      memo: memo, listedAsFiles: MemoChecks.listedAsFiles(candidate), folder: folder, opened: opened,
      audioDiagnostics: audio)
    let files = checks.fileFindings()
    return ((memo, checks.problemFindings() + files.flatMap(\.findings)), files)
  }

  /// The folder's own configuration (`.stashlint` in it), or none when it has none. One that
  /// cannot be used is handed to `warn` and the defaults are used, so a listing still lists.
  package static func configuration(of folder: String, warn: (String) -> Void) -> LintConfiguration {
    do {
      return try LintConfiguration.load(
        PathText.join(folder, LintConfiguration.fileName), required: false) ?? LintConfiguration()
    } catch {
      warn("\(error.message); the marks use every rule at its own severity")
      return LintConfiguration()
    }
  }
}

extension LintFinding {
  /// The finding in the shape of a memo's `problems` in `stash ls --json` and `stash show --json`
  /// (README): `file` (the name in the folder), `code`, `severity`, `line`, `column`, `offset`,
  /// `message`, and `unlisted` when it stands for others.
  package var problemJSON: JSONValue {
    .object(
      [
        ("file", .string(name)), ("code", .string(code.rawValue)), ("severity", .string(severity.rawValue)),
        ("line", .optional(location.line)), ("column", .optional(location.column)),
        ("offset", .optional(location.offset)), ("message", .string(message)),
      ] + (unlisted > 0 ? [("unlisted", .int(unlisted))] : []))
  }
}
