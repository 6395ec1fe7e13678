import Foundation
import StashFormat

extension Harness {
  /// `stash ls --json` over the memo folder: wall time and peak memory of the process, warm page
  /// cache, no findings cache (`--no-cache`: every memo checked, as on a fresh machine).
  mutating func listing(_ memos: MemoFolderCorpus) throws {
    let command = [stash, "ls", "--json", "--no-cache", memos.folder]
    // The untimed first run warms the cache, and its answer is checked.
    let first = try ChildRun.checked(command)
    guard let list = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [[String: Any]]
    else {
      throw HarnessError("stash ls --json printed no array")
    }
    let known = list.filter { $0["durationSeconds"] is NSNumber }.count
    let timed = try RepeatedRuns(command, count: quick ? 5 : 7)
    let (wall, peak) = (timed.wall, timed.peak)
    let note =
      "\(list.count) memos listed, \(known) with a length; \(first.stdout.utf8.count / 1000) kB of JSON; "
      + "CPU time " + timed.cpu.text(3, unit: " s")
    // #2's targets are for 10,000 memos; at a lifetime's 100,000 (#20) the time is set against the
    // floor (`listingFloor`) and the memory against the browser's and lint's 150 MB.
    let lifetime = memos.count > 10_000
    figures.append(
      Figure(
        issue: lifetime ? "#20" : "#2", name: "`stash ls --json`, \(memos.count) memos: wall",
        result: wall.text(3, unit: " s"), target: lifetime ? "report" : "≤ 0.3 s",
        verdict: lifetime ? .info : .verdict(wall.median <= 0.3), note: note))
    let memoryTarget = lifetime ? 150.0 : 100
    figures.append(
      Figure(
        issue: lifetime ? "#20" : "#2", name: "`stash ls --json`, \(memos.count) memos: peak memory",
        result: peak.text(1, unit: " MB"), target: "≤ \(Int(memoryTarget)) MB",
        verdict: .verdict(peak.median <= memoryTarget)))
  }

  /// Lengths side by side: our reader (AudioSummary, in process) against mutagen on a sample of the
  /// memo folder, and against ffprobe (a process per file, as a script would call it) on a smaller one.
  mutating func lengths(_ memos: MemoFolderCorpus) throws {
    let sample = Array(memos.audioPaths.prefix(quick ? 500 : 2_000))
    var ours: [AudioSummary] = []
    let ourRuns = Runs(
      values: (0..<runs).map { _ in
        Measure.time { ours = sample.map { AudioSummary.read(path: $0) } }.wall
      })
    let fragmented = ours.filter(\.fragmented).count
    let input = "\(sample.count) memo audio files (\(fragmented) fragmented)"
    do {
      let mutagen = try peer(["lengths"], sample)
      peers.append(
        PeerRow(
          task: "audio lengths", peer: "mutagen", input: input,
          theirs: Runs(values: mutagen.times).text(2, unit: " s"), ours: ourRuns.text(3, unit: " s"),
          ratio: ratioText(Runs(values: mutagen.times).median / ourRuns.median) + " faster",
          agreement: agreement(ours: ours, theirs: mutagen.values, error: mutagen.error)))
    } catch {
      peers.append(
        PeerRow(
          task: "audio lengths", peer: "mutagen", input: input, theirs: "—",
          ours: ourRuns.text(3, unit: " s"),
          ratio: "—", agreement: "\(error)"))
    }
    // ffprobe, a process per file as a script calls it, against ours the same way
    // (`stash inspect FILE --json`), on every n-th file of the sample (fragmented and finished).
    let stride = quick ? 25 : 50
    let probeIndexes = Array(Swift.stride(from: 0, to: sample.count, by: stride))
    var probed: [Double?] = []
    var inspected: [AudioSummary] = []
    var probeSeconds = 0.0
    var inspectSeconds = 0.0
    for index in probeIndexes {
      let probe = try ChildRun.run([
        "ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", sample[index],
      ])
      probeSeconds += probe.wall
      probed.append(Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
      let inspect = try ChildRun.checked([stash, "inspect", sample[index], "--json"])
      inspectSeconds += inspect.wall
      let object = try? JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any]
      var summary = ours[index]
      summary.durationSeconds = (object?["durationSeconds"] as? NSNumber)?.doubleValue
      inspected.append(summary)
    }
    peers.append(
      PeerRow(
        task: "audio lengths, a process per file", peer: "ffprobe",
        input: "\(probeIndexes.count) of those files",
        theirs: String(format: "%.2f s (1 run)", probeSeconds),
        ours: String(format: "%.2f s (`stash inspect --json`, 1 run)", inspectSeconds),
        ratio: ratioText(probeSeconds / inspectSeconds) + " faster",
        agreement: agreement(ours: inspected, theirs: probed, error: nil)))
  }

  /// Where a peer's lengths differ from ours by more than 50 ms, by layout.
  func agreement(ours: [AudioSummary], theirs: [Double?], error: String?) -> String {
    var differ: [String: (count: Int, example: String)] = [:]
    var worst = 0.0
    for (summary, answer) in zip(ours, theirs) {
      let layout = summary.fragmented ? "fragmented" : "finished"
      let mine = summary.durationSeconds
      if let mine, let answer, abs(mine - answer) <= 0.05 {
        worst = max(worst, abs(mine - answer))
        continue
      }
      let example = String(
        format: "%@ where we read %@", answer.map { String(format: "%.2f s", $0) } ?? "no length",
        mine.map { String(format: "%.2f s", $0) } ?? "none")
      differ[layout, default: (0, example)].count += 1
    }
    var text =
      differ.isEmpty
      ? "agrees on all \(ours.count) (within \(String(format: "%.0f", worst * 1000)) ms)"
      : "differs on "
        + differ.sorted { $0.key < $1.key }.map { "\($0.value.count) \($0.key) (e.g. \($0.value.example))" }
        .joined(separator: "; ")
        + "; agrees on the other \(ours.count - differ.values.map(\.count).reduce(0, +))"
    if let error { text += "; first error: \(error.prefix(120))" }
    return text
  }
}
