import StashFormat
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Carries out a `SweepPlan` step by step and writes the report. Parts are removed highest number
/// first, so a removal cut short leaves an unbroken run from 0001 that the next sweep recognises as
/// already published (see `SweepPlan.Step.reconcile`).
struct SweepPerformer {
  let sweeper: Sweeper
  let folder: String
  let dryRun: Bool
  let routeConsent: @Sendable () -> Bool
  /// `--accept-loss`: parts kept as the sign of a loss go once the finished file holds all they could
  /// give, and the transcript notes the loss.
  var acceptLoss = false
  var fs: any FileSystem { sweeper.fileSystem }

  /// Held while audio is repaired, by whichever capture repairs: one repair at a time, since each
  /// holds a whole recording (up to the repairer's limit, a gigabyte) and its rewrite in memory.
  /// Shared by the copies that sweep captures at once.
  private let audioRepairs = Gate()
  /// A lock shared by reference.
  final class Gate: Sendable {
    let mutex = Mutex(())
  }
  /// Names a dry run has pretended to remove from the current parts folder.
  private var pretendRemoved = Set<String>()
  /// The leftover temporaries removed (or, in a dry run, that would be) before the captures,
  /// as paths from the memo folder.
  private var temporariesRemoved = Set<String>()
  /// Parts of the current capture removed but not yet made durable by an fsync of their folder.
  private var unsyncedRemovals = false

  init(sweeper: Sweeper, folder: String, dryRun: Bool, routeConsent: @escaping @Sendable () -> Bool) {
    self.sweeper = sweeper
    self.folder = folder
    self.dryRun = dryRun
    self.routeConsent = routeConsent
  }

  mutating func perform(_ plan: SweepPlan) -> SweepReport {
    var report = SweepReport(folder: folder, dryRun: dryRun, temporariesRemoved: [], captures: [])
    var temporaryFailure: SweepReport.Event?
    for name in plan.temporaries {
      do {
        if !dryRun { try fs.unlink(folder + "/" + name) }
        report.temporariesRemoved.append(name)
      } catch {
        temporaryFailure = Self.failure(error, names: [name])
      }
    }
    if !dryRun {
      for removedFrom in Set(report.temporariesRemoved.map { TemporaryName.folder(of: $0, in: folder) }) {
        try? fs.syncDirectory(removedFrom)
      }
    }
    if let temporaryFailure {
      report.captures.append(SweepReport.Capture(base: "", events: [temporaryFailure]))
    }
    temporariesRemoved = Set(report.temporariesRemoved)
    // A capture with nothing done to it (whole audio looked at for repair) says nothing.
    report.captures += perform(plan.captures).filter { !$0.events.isEmpty }
    report.audioLookedAt =
      plan.captures.filter { capture in
        capture.hold == nil
          && capture.steps.contains {
            if case .repairAudio = $0 { true } else { false }
          }
      }.count
    return report
  }

  /// Performs every capture's plan, several at once when the sweeper and its file system allow,
  /// each on a copy of this performer (its per-capture state is its own); the results in plan
  /// order.
  func perform(_ captures: [SweepPlan.Capture]) -> [SweepReport.Capture] {
    let workers = fs.allowsConcurrentCalls ? sweeper.workers : 1
    return Parallel.map(captures.count, on: { SweepWorkers.forEach($0, workers: workers, $1) }) { index in
      var performer = self
      return performer.perform(captures[index])
    }
  }

  mutating func perform(_ capture: SweepPlan.Capture) -> SweepReport.Capture {
    var events: [SweepReport.Event] = []
    unsyncedRemovals = false
    let partsFolder = capture.base + MemoFileKind.parts.suffix
    // A dry run's temporaries "removed" before the captures are gone from its parts folder too (the
    // plan once said it would remove one, then that it would keep it).
    pretendRemoved = []
    if dryRun {
      for path in temporariesRemoved where path.hasPrefix(partsFolder + "/") {
        pretendRemoved.insert(String(path.dropFirst(partsFolder.count + 1)))
      }
    }
    switch capture.hold {
    case .possiblyRecording(let age)?:
      let seconds = max(0, Int(age.rounded()))
      events.append(
        event(
          .skipped, [partsFolder],
          "possibly still recording: its audio or a part changed \(seconds) s ago; "
            + "run again later, or with --include-recent if the recording is over", needsPerson: true))
      return SweepReport.Capture(base: capture.base, events: events)
    case .partsNotAFolder?:
      events.append(
        event(
          .skipped, [partsFolder], "not a folder Stash wrote (a link or a file): left as it is",
          needsPerson: true))
      return SweepReport.Capture(base: capture.base, events: events)
    case .unreadable(let name, let reason)?:
      events.append(
        SweepReport.Event(
          action: .failed, names: [name], detail: "left alone, since it cannot be read: \(reason)",
          needsPerson: true, assembly: nil))
      return SweepReport.Capture(base: capture.base, events: events)
    case nil: break
    }
    // Each step stands on its own: one that fails (a full disk refusing the transcript) is
    // reported and the next still runs (a withdrawal needs no space), except the parts folder's
    // removal, which waits for a sweep where every step went through.
    var failed = false
    for step in capture.steps {
      do {
        switch step {
        case .assemble(let kind, let parts):
          try assemble(kind, parts: parts, base: capture.base, into: &events)
        case .reconcile(let kind, let parts):
          if acceptLoss {
            try accept(kind, parts: parts, base: capture.base, published: nil, into: &events)
          } else {
            try reconcile(kind, parts: parts, base: capture.base, into: &events)
          }
        case .withdraw(let parts, let finishedRoute):
          try withdraw(parts: parts, finishedRoute: finishedRoute, base: capture.base, into: &events)
        case .repairAudio(let recentAge):
          try repairAudio(base: capture.base, recentAge: recentAge, into: &events)
        case .removePartsFolderIfEmpty:
          guard !failed else { continue }
          try removeFolderIfEmpty(base: capture.base, strangers: capture.strangers, into: &events)
        }
      } catch {
        failed = true
        events.append(
          Self.failure(error, names: [name(of: error) ?? Self.subject(of: step, base: capture.base)]))
      }
    }
    // Best effort: the disk failing may refuse this too; a lost removal is redone.
    if failed && unsyncedRemovals { try? fs.syncDirectory(folder + "/" + partsFolder) }
    return SweepReport.Capture(base: capture.base, events: events)
  }

  /// The name, relative to the memo folder, of the file an error is about, when it is in it.
  func name(of error: any Error) -> String? {
    (error as? RecoverError)?.name(in: folder)
  }

  /// The file a step is about, for a failure that names no file of its own.
  static func subject(of step: SweepPlan.Step, base: String) -> String {
    switch step {
    case .assemble(let kind, _), .reconcile(let kind, _): kind.finishedFile.name(for: base)
    case .withdraw: MemoFileKind.route.name(for: base)
    case .repairAudio: MemoFileKind.audio.name(for: base)
    case .removePartsFolderIfEmpty: base + MemoFileKind.parts.suffix
    }
  }

  // MARK: Steps

  mutating func assemble(
    _ kind: PartsKind, parts numbers: [Int], base: String, into events: inout [SweepReport.Event]
  ) throws {
    let (parts, unread) = try read(kind, numbers, base: base)
    let assembly = sweeper.assembler.assemble(kind, parts: parts)
    let finished = kind.finishedFile.name(for: base)
    let partNames = Self.partNames(kind, numbers, base: base)
    // Consent is asked here, after the slow part, in the instant before the file is written.
    if kind == .route && !routeConsent() {
      try removeParts(kind, numbers, base: base, lowestFirst: true)
      events.append(
        event(
          .dropped, partNames,
          tense(
            "the route was not published (location consent does not hold); its parts were removed",
            "the route would not be published (location consent does not hold); its parts would be removed")))
      return
    }
    if !dryRun {
      do {
        try AtomicFile.write(assembly.bytes, named: finished, in: folder, mode: .createNew, fileSystem: fs)
      } catch let error as RecoverError where error.code == .exists {
        events.append(
          event(
            .kept, partNames, "a \(finished) appeared while assembling; the parts stay beside it",
            needsPerson: true))
        return
      }
    }
    var published = event(.published, [finished], Self.describe(assembly, kind))
    published.assembly = SweepReport.AssemblyFacts(
      kind: kind, items: assembly.items, segments: assembly.segments, gaps: assembly.gaps,
      unbroken: assembly.unbroken, unconfirmedWords: assembly.unconfirmedWords)
    events.append(published)
    if assembly.unbroken {
      try removeParts(kind, numbers, base: base, durableNow: false)
      events.append(
        event(
          .removed, partNames,
          tense(
            "the \(kind.rawValue) parts, now in \(finished)",
            "the \(kind.rawValue) parts, which would then be in \(finished)")))
    } else if acceptLoss {
      try accept(kind, parts: numbers, base: base, published: assembly.bytes, into: &events)
    } else {
      let loss = sweeper.assembler.loss(kind, parts: parts, unread: unread)
      var kept = event(
        .kept, partNames,
        "the parts stay beside \(finished) as the sign of what is missing: \(loss.summary). "
          + loss.acceptance, needsPerson: true)
      kept.lossToAccept = true
      events.append(kept)
    }
  }

  mutating func reconcile(
    _ kind: PartsKind, parts numbers: [Int], base: String, into events: inout [SweepReport.Event]
  ) throws {
    let finished = kind.finishedFile.name(for: base)
    let partNames = Self.partNames(kind, numbers, base: base)
    let (parts, unread) = try read(kind, numbers, base: base)
    let finishedBytes: [UInt8]?
    do {
      finishedBytes = try fs.read(folder + "/" + finished, limit: sweeper.readLimit)
    } catch {
      guard Self.isContentProblem(error) else { throw error }
      finishedBytes = nil
    }
    let runsFromOne = numbers == Array(1...max(1, numbers.count)) && !numbers.isEmpty
    if runsFromOne, parts.count == numbers.count, let finishedBytes,
      sweeper.assembler.finished(kind, finishedBytes, holdsAllOf: parts)
    {
      try removeParts(kind, numbers, base: base, durableNow: false)
      events.append(event(.removed, partNames, "\(finished) already holds everything in these parts"))
    } else {
      let loss = sweeper.assembler.loss(kind, parts: parts, unread: unread)
      var kept = event(
        .kept, partNames,
        "\(finished) exists beside these parts, so they are not assembled again; they stay as the sign of "
          + "what is missing: \(loss.summary). "
          + (loss.isEmpty
            ? "They hold what \(finished) does not, or it notes missing speech: compare them before removing any"
            : loss.acceptance),
        needsPerson: true)
      kept.lossToAccept = !loss.isEmpty
      events.append(kept)
    }
  }

  mutating func withdraw(
    parts numbers: [Int], finishedRoute: Bool, base: String, into events: inout [SweepReport.Event]
  ) throws {
    let partsFolder = base + MemoFileKind.parts.suffix
    try removeParts(.route, numbers, base: base)
    var names = Self.partNames(.route, numbers, base: base)
    if finishedRoute {
      let route = MemoFileKind.route.name(for: base)
      if !dryRun {
        try fs.unlink(folder + "/" + route)
        // Durable before the marker goes: a power cut must not leave the route without its marker.
        try fs.syncDirectory(folder)
      }
      names.append(route)
    }
    // The marker goes last: until then a rerun knows the deletion is unfinished.
    let marker = partsFolder + "/" + PartName.withdrawn.fileName
    if !dryRun {
      try fs.unlink(folder + "/" + marker)
      try fs.syncDirectory(folder + "/" + partsFolder)
    } else {
      pretendRemoved.insert(PartName.withdrawn.fileName)
    }
    names.append(marker)
    events.append(
      event(
        .withdrawn, names,
        tense(
          "location was turned off during the recording: its route deletion was finished",
          "location was turned off during the recording: its route deletion would be finished")))
  }

  mutating func repairAudio(base: String, recentAge: Double?, into events: inout [SweepReport.Event]) throws {
    let audio = MemoFileKind.audio.name(for: base)
    guard let repairer = sweeper.audioRepairer else {
      events.append(event(.kept, [audio], "this build cannot repair audio", needsPerson: true))
      return
    }
    let repair: AudioRepair
    do {
      // A recent file is only looked at (a dry run of the repair), never rewritten.
      let look = dryRun || recentAge != nil
      repair = try audioRepairs.mutex.withLock { _ in
        try repairer.repair(audio, in: folder, dryRun: look, fileSystem: fs)
      }
    } catch let error as RecoverError
      where error.code == .repairUnsupported || error.code == .repairFailed
    {
      events.append(event(.kept, [audio], error.message, needsPerson: true))
      return
    }
    if let recentAge, repair.rewritten {
      let seconds = max(0, Int(recentAge.rounded()))
      events.append(
        event(
          .skipped, [audio],
          "cut short, but it changed \(seconds) s ago: it may still be being written or copied; "
            + "run again later, or with --include-recent once it is complete", needsPerson: true))
    } else if repair.rewritten {
      events.append(event(.repaired, [audio], repair.detail))
    }
  }

  mutating func removeFolderIfEmpty(
    base: String, strangers: [String], into events: inout [SweepReport.Event]
  ) throws {
    let name = base + MemoFileKind.parts.suffix
    let path = folder + "/" + name
    if unsyncedRemovals {
      try fs.syncDirectory(path)
      unsyncedRemovals = false
    }
    let remaining = try fs.list(path).filter { !pretendRemoved.contains($0) }
    if remaining.isEmpty {
      if !dryRun {
        try fs.removeDirectory(path)
        try fs.syncDirectory(folder)
      }
      events.append(
        event(
          .removed, [name],
          tense("the parts folder, now empty", "the parts folder, which would then be empty")))
      return
    }
    let foreign = remaining.filter { strangers.contains($0) }
    // Parts already reported as kept (each kind with its reason) are not listed a second time:
    // the folder's line names only what no line above named.
    let named = Set(events.lazy.filter { $0.action == .kept }.flatMap(\.names))
    let unnamed = remaining.filter { !named.contains(name + "/" + $0) }
    var holds: [String] = []
    if unnamed.count < remaining.count { holds.append("the parts kept above") }
    if !unnamed.isEmpty { holds.append(unnamed.map { PathText.escaped($0) }.joined(separator: ", ")) }
    let detail =
      "the parts folder stays: it holds " + holds.joined(separator: " and ")
      + (foreign.isEmpty ? "" : "; files Stash did not write are never touched, move them out to tidy it")
    events.append(
      event(
        .kept, unnamed.isEmpty ? [name] : unnamed.map { name + "/" + $0 }, detail,
        needsPerson: !foreign.isEmpty))
  }

  // MARK: Helpers

  /// The parts' names as the report gives them, relative to the memo folder.
  static func partNames(_ kind: PartsKind, _ numbers: [Int], base: String) -> [String] {
    let prefix = base + MemoFileKind.parts.suffix + "/"
    return numbers.map { prefix + kind.partName($0).fileName }
  }

  /// Reads the parts; one too large or not a regular file is left out, which breaks the chain, and
  /// is given back in `unread` by number, with why.
  func read(_ kind: PartsKind, _ numbers: [Int], base: String) throws -> (
    parts: [Part], unread: [Int: String]
  ) {
    var parts: [Part] = []
    var unread: [Int: String] = [:]
    // Each path is one append to this: a sweep builds one per part, and a string built of several
    // appends costs an allocation each.
    let prefix = folder + "/" + base + MemoFileKind.parts.suffix + "/"
    for number in numbers {
      let path = prefix + kind.partName(number).fileName
      do {
        parts.append(Part(number: number, bytes: try fs.read(path, limit: sweeper.readLimit)))
      } catch {
        guard Self.isContentProblem(error) else { throw error }
        unread[number] = error.message
      }
    }
    return (parts, unread)
  }

  /// Removes parts by exact name, highest number first, then makes the removals durable: at once,
  /// or with `durableNow` false once for the whole capture, in `removeFolderIfEmpty` (its last
  /// step). Deferring is safe only for parts whose content is already in a published, fsynced
  /// file (an unbroken assembly, or a finished file that holds them all): a crash that loses such
  /// a removal leaves a part beside a finished file that holds it, which the next sweep removes
  /// again (`reconcile`), or, if the lost removals are not a run from 0001, keeps and reports;
  /// nothing is lost either way. Routes dropped for consent and withdrawn routes are made durable
  /// at once: a rerun must not find their parts without their marker, or publish them.
  /// A route dropped for consent has no finished file and no marker, so its parts go
  /// `lowestFirst`: a removal cut short then leaves a run that does not start at 0001, which a
  /// later sweep (with consent) can only assemble as a broken chain, never as a whole route.
  mutating func removeParts(
    _ kind: PartsKind, _ numbers: [Int], base: String, durableNow: Bool = true, lowestFirst: Bool = false
  ) throws {
    let partsPath = folder + "/" + base + MemoFileKind.parts.suffix
    let prefix = partsPath + "/"
    for number in lowestFirst ? numbers.sorted() : numbers.sorted(by: >) {
      let name = kind.partName(number).fileName
      if dryRun {
        pretendRemoved.insert(name)
      } else {
        try fs.unlink(prefix + name)
      }
    }
    guard !dryRun && !numbers.isEmpty else { return }
    if durableNow {
      try fs.syncDirectory(partsPath)
      unsyncedRemovals = false
    } else {
      unsyncedRemovals = true
    }
  }

  /// Errors that say what a file is, not that the disk failed: those make a part unreadable
  /// rather than stopping the capture.
  static func isContentProblem(_ error: RecoverError) -> Bool {
    error.code == .tooLarge || error.code == .notAFile || error.number == ELOOP
  }

  /// `past` for what was done; `would`, in the conditional, for what a dry run would do.
  func tense(_ past: String, _ would: String) -> String { dryRun ? would : past }

  func event(
    _ action: SweepReport.Event.Action, _ names: [String], _ detail: String, needsPerson: Bool = false
  ) -> SweepReport.Event {
    SweepReport.Event(action: action, names: names, detail: detail, needsPerson: needsPerson, assembly: nil)
  }

  static func failure(_ error: any Error, names: [String]) -> SweepReport.Event {
    let detail = (error as? RecoverError)?.description ?? "\(error)"
    return SweepReport.Event(action: .failed, names: names, detail: detail, needsPerson: true, assembly: nil)
  }

  static func describe(_ assembly: Assembly, _ kind: PartsKind) -> String {
    var words =
      kind == .transcript
      ? "\(assembly.items) cue\(assembly.items == 1 ? "" : "s")"
      : "\(assembly.items) point\(assembly.items == 1 ? "" : "s") in \(assembly.segments) segment\(assembly.segments == 1 ? "" : "s")"
    if !assembly.gaps.isEmpty {
      words +=
        ", \(assembly.gaps.count) gap\(assembly.gaps.count == 1 ? "" : "s"): "
        + assembly.gaps.map { Self.span($0, kind) }.joined(separator: ", ")
    }
    if assembly.unconfirmedWords { words += ", with words the speech engine never confirmed (marked)" }
    return words
  }

  /// A gap in words: recording time for a transcript, UTC time of day for a route.
  static func span(_ gap: Gap, _ kind: PartsKind) -> String {
    guard kind == .route else { return "\(TimeText.clock(gap.start))–\(TimeText.clock(gap.end))" }
    func utc(_ seconds: Double) -> String { RecordingDate.utcClock(time_t(seconds)) }
    return "\(utc(gap.start))–\(utc(gap.end)) UTC"
  }

}
