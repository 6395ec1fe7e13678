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
  /// are kept.
  package static func read(
    _ candidate: FolderGrouping.Candidate, folder: String, now: Double, opened: OpenFolder,
    configuration: LintConfiguration = LintConfiguration(), collisions: [LintFinding] = []
  ) -> MemoAccount {
    let (memo, found) = findings(candidate, folder: folder, now: now, opened: opened, deepAudio: false)
    var all = found
    if !collisions.isEmpty {
      all += collisions.filter { PartsFolderArgument.belongs($0.name, to: candidate.base) }
    }
    if configuration.changesFindings { all = all.compactMap(configuration.apply) }
    return MemoAccount(memo: memo, findings: LintFinding.sorted(all))
  }

  /// The memo of `candidate` read as lint reads it, and every finding of its files, unsorted and
  /// as found (no configuration): what `stash lint` reports for one memo.
  package static func findings(
    _ candidate: FolderGrouping.Candidate, folder: String, now: Double, opened: OpenFolder, deepAudio: Bool
  ) -> (memo: Memo, findings: [LintFinding]) {
    // Lint reads the transcript and route whole, so the listing's sniffs (whose codes it drops)
    // would only open them once more; the audio is read once for the summary and the full index.
    let (memo, audio) = Memo.readForLint(
      candidate, folder: folder, now: now, opened: opened,
      fullAudioIndex: { MemoChecks.wantsFullIndex($0, deepAudio: deepAudio) })
    let checks = MemoChecks(
      memo: memo, listedAsFiles: MemoChecks.listedAsFiles(candidate), folder: folder, opened: opened,
      audioDiagnostics: audio)
    return (memo, checks.findings())
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
