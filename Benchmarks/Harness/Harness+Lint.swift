import Foundation
import StashFormat

extension Harness {
  /// `stash lint` over the memo folder, when the command exists: wall and CPU time of the default
  /// (human) output, warm cache, and the findings by code, so the figure shows what folder it was.
  mutating func lint(_ memos: MemoFolderCorpus) throws {
    let name = "`stash lint`, \(memos.count) memos"
    // An unknown command exits 2; `lint --help` exits 0 once the command exists.
    guard try ChildRun.run([stash, "lint", "--help"]).status == 0 else {
      figures.append(
        .missing("#8", name, target: "≤ 3 s", because: "not yet measurable: `stash lint` is not built yet"))
      return
    }
    // The untimed first run warms the cache; its JSON gives the findings by code.
    // Findings exit 1; only 2 (usage or I/O) is a failure.
    let first = try ChildRun.checked(
      [stash, "lint", "--format", "json", "--no-cache", memos.folder], accepting: [0, 1])
    guard let object = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any],
      let findings = object["findings"] as? [[String: Any]]
    else { throw HarnessError("stash lint --format json printed no findings") }
    var byCode: [String: Int] = [:]
    for finding in findings { byCode[finding["code"] as? String ?? "?", default: 0] += 1 }
    let codes =
      byCode.isEmpty
      ? "none"
      : byCode.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.value) \($0.key)" }
        .joined(separator: ", ")
    let broken = MemoFolderCorpus.brokenCounts(memos.count).map { "\($0.memos) \($0.kind)" }
      .joined(separator: ", ")
    log("  findings by code: \(codes)")
    // A lint far over its target gets fewer runs, so the whole bench stays within minutes.
    let timed = try RepeatedRuns(
      [stash, "lint", "--no-cache", memos.folder], count: first.wall > 10 ? 2 : runs, accepting: [0, 1])
    let wall = timed.wall
    // #8's target is for 10,000 memos; #20 asks for 10 s and 150 MB at 100,000.
    let lifetime = memos.count > 10_000
    let seconds = lifetime ? 10.0 : 3
    figures.append(
      Figure(
        issue: lifetime ? "#20" : "#8", name: name + ": peak memory", result: timed.peak.text(1, unit: " MB"),
        target: lifetime ? "≤ 150 MB" : "report",
        verdict: lifetime ? .verdict(timed.peak.median <= 150) : .info,
        note: "default (human) output; memory must not grow with the findings"))
    figures.append(
      Figure(
        issue: lifetime ? "#20" : "#8", name: name, result: wall.text(3, unit: " s"),
        target: "≤ \(Int(seconds)) s", verdict: .verdict(wall.median <= seconds),
        note:
          "exit \(first.status); CPU time " + timed.cpu.text(3, unit: " s")
          + "; \(findings.count) findings (\(codes)) on a folder with memos broken on purpose (\(broken))"))
    // Warm (#45): the findings cache filled by one run first; a memo whose entry holds findings is
    // checked again, to say them.
    _ = try ChildRun.checked([stash, "lint", memos.folder], keepOutput: false, accepting: [0, 1])
    let warm = try RepeatedRuns([stash, "lint", memos.folder], count: runs, accepting: [0, 1])
    figures.append(
      Figure(
        issue: "#45", name: name + ", findings cache warm", result: warm.wall.text(3, unit: " s"),
        target: lifetime ? "≤ 3 s" : "report", verdict: lifetime ? .verdict(warm.wall.median <= 3) : .info,
        note: "CPU time " + warm.cpu.text(3, unit: " s") + "; the same findings as the cold run's"))
    do {
      figures.append(try expatFloor(memos, against: timed.cpu))
    } catch {
      figures.append(
        .missing(lifetime ? "#20" : "#8", name + ": expat alone", target: "report", because: "\(error)"))
    }
  }

  /// Lint reads every byte of every route through expat: the same bare expat loop in C as the GPX
  /// figure's ceiling (`expat-count.c`, one thread, counting start tags) over the folder's routes,
  /// run after lint in the same run, is a floor no lint can go below. Half its CPU time is the
  /// least wall time two cores could take for expat alone.
  func expatFloor(_ memos: MemoFolderCorpus, against lintCPU: Runs) throws -> Figure {
    let counter = try compile("expat-count", libraries: ["-lexpat"])
    let routes = try FileManager.default.contentsOfDirectory(atPath: memos.folder)
      .filter { $0.hasSuffix(MemoFileKind.route.suffix) }.sorted().map { memos.folder + "/" + $0 }
    let list = Harness.scratch + "/lint-routes.txt"
    try Files.write(list, routes.joined(separator: "\n") + "\n")
    var cpus: [Double] = []
    var bytes = 0
    for _ in 0..<(quick ? 2 : 3) {
      let run = try ChildRun.checked(["sh", "-c", "exec \"$0\" - < \"\(list)\"", counter])
      let fields = run.stdout.split(whereSeparator: \.isWhitespace)
      guard fields.count == 4, let read = Int(fields[1]), let cpu = Double(fields[3]) else {
        throw HarnessError("expat-count printed no figures: \(run.stdout)")
      }
      (bytes, cpus) = (read, cpus + [cpu])
    }
    let expat = Runs(values: cpus)
    let lifetime = memos.count > 10_000
    return Figure(
      issue: lifetime ? "#20" : "#8", name: "`stash lint`, \(memos.count) memos: CPU over expat alone",
      result: ratioText(lintCPU.median / expat.median), target: "report", verdict: .info,
      note:
        "expat-count.c over the \(routes.count) routes (\(bytes / 1_000_000) MB), 1 thread: CPU "
        + expat.text(3, unit: " s") + String(format: " (%.0f MB/s)", rate(bytes, expat.median))
        + String(format: "; expat alone needs at least %.2f s of wall time on 2 cores", expat.median / 2))
  }
}
