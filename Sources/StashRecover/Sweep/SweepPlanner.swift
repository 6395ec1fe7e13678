import StashFormat

/// Decides what a sweep does from a snapshot, touching nothing: pure, so the same snapshot always
/// gives the same plan and a dry run writes nothing. (Its tests build real folders and plan from
/// the snapshots read from them.)
public enum SweepPlanner {
  /// The plan for `snapshot` under `options`.
  public static func plan(_ snapshot: FolderSnapshot, options: SweepOptions) -> SweepPlan {
    SweepPlan(
      folder: snapshot.folder, temporaries: snapshot.temporaries,
      captures: snapshot.captures.compactMap { plan($0, options: options) })
  }

  static func plan(_ capture: FolderSnapshot.Capture, options: SweepOptions) -> SweepPlan.Capture? {
    var plan = SweepPlan.Capture(
      base: capture.base, hold: nil, steps: [],
      strangers: capture.entries.filter { $0.part == nil }.map(\.name))
    if let parts = capture.partsFolder, parts.kind != .directory {
      plan.hold = .partsNotAFolder
      return plan
    }
    if let problem = capture.problem {
      plan.hold = .unreadable(
        name: capture.problemName ?? capture.base + MemoFileKind.parts.suffix, reason: problem)
      return plan
    }
    let repair = options.repairAudio && capture.files[.audio]?.kind == .regular
    guard capture.partsFolder != nil || repair else { return nil }

    // A time in the future (a clock set wrong) counts as recent: leaving a capture is harmless.
    let age = options.now - capture.newestChange
    let recent = !options.includeRecent && age < options.recentWindow
    // Recent parts are held only while the folder does not show them to be a copy: a copy gives
    // every file the time of the copy, and would otherwise keep every capture for two minutes.
    if recent && capture.partsFolder != nil,
      case .possiblyRecording = RecordingActivity.judge(
        newest: capture.newestChange, recordedAt: capture.recordedAt, audioSeconds: capture.audioSeconds,
        now: options.now, window: options.recentWindow)
    {
      plan.hold = .possiblyRecording(age: age)
      return plan
    }

    func numbers(_ kind: PartsKind) -> [Int] {
      capture.entries.compactMap { entry -> Int? in
        switch (kind, entry.part) {
        case (.transcript, .transcript(let n)?), (.route, .route(let n)?): n
        default: nil
        }
      }.sorted()
    }
    let routes = numbers(.route)
    let withdrawn = capture.entries.contains { $0.part == .withdrawn }
    // A withdrawal comes first: it only deletes, and nothing that fails after it may hold it back.
    if withdrawn {
      plan.steps.append(.withdraw(parts: routes, finishedRoute: capture.files[.route] != nil))
    }
    let transcripts = numbers(.transcript)
    if !transcripts.isEmpty {
      plan.steps.append(
        capture.files[.transcript] == nil
          ? .assemble(.transcript, parts: transcripts) : .reconcile(.transcript, parts: transcripts))
    }
    if !withdrawn && !routes.isEmpty {
      plan.steps.append(
        capture.files[.route] == nil ? .assemble(.route, parts: routes) : .reconcile(.route, parts: routes))
    }
    // Audio alone (no parts) that changed just now is most likely a fresh copy: only a torn one
    // could be a file still being written, and the performer looks before it leaves it.
    if repair { plan.steps.append(.repairAudio(recentAge: recent ? age : nil)) }
    if capture.partsFolder != nil { plan.steps.append(.removePartsFolderIfEmpty) }
    return plan
  }
}
