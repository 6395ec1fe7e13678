import Foundation
import StashRecover

extension Harness {
  /// The recovery sweep over `captures` crashed captures of 40 transcript and 40 route parts each
  /// (parts made by WebVTTWriter and GPXWriter), through StashRecover in process, once on a
  /// fresh folder per run with fsync and once without (the file-system seam's switch): the run
  /// without is the work besides fsync.
  mutating func sweep(captures: Int, audio: AudioCorpus) throws {
    let parts = 40
    let transcriptParts = (1...parts).map { TextCorpus.transcriptPart($0) }
    let routeParts = (1...parts).map { TextCorpus.routePart($0) }
    // How many captures the sweep takes at once, and so the width the floor is measured at too.
    let workers = Sweeper.defaultWorkers
    var serial = 0
    // In `parent` (the scratch folder, or one on another file system), linking the audio to
    // `audioSource`, which must be on the same file system.
    func makeFolder(in parent: String = Harness.scratch, audioSource: String = audio.finished[0]) throws
      -> String
    {
      serial += 1
      let folder = parent + "/captures-\(serial)"
      try Files.makeFolder(folder)
      for capture in 0..<captures {
        let base =
          folder + String(format: "/2026-04-01T09-%02d-%02d_%04d", capture / 60 % 60, capture % 60, capture)
        try Files.link(audioSource, base + "_audio.m4a")
        try Files.makeFolder(base + ".parts")
        for number in 1...parts {
          let digits = String(format: "%04d", number)
          try Files.write(base + ".parts/transcription.\(digits).vtt", transcriptParts[number - 1])
          try Files.write(base + ".parts/track.\(digits).gpx", routeParts[number - 1])
        }
      }
      // Settle what making the folder left dirty, so a sweep's fsyncs flush only its own writes.
      sync()
      return folder
    }
    func sweep(
      synchronizes: Bool, in parent: String = Harness.scratch, audioSource: String = audio.finished[0]
    ) throws -> (seconds: Double, cpu: Double, fs: CountingFileSystem) {
      let folder = try makeFolder(in: parent, audioSource: audioSource)
      let fs = CountingFileSystem(SystemFileSystem(synchronizes: synchronizes))
      var sweeper = Sweeper(fileSystem: fs, assembler: FormatAssembler())
      sweeper.workers = workers
      // The captures were made just now: includeRecent, or the sweep would leave them as still recording.
      let options = SweepOptions(now: Date().timeIntervalSince1970, includeRecent: true)
      var report: SweepReport?
      let time = try Measure.time { report = try sweeper.run(folder, options: options) }
      let published = report!.captures.flatMap(\.events).filter { $0.action == .published }.count
      guard published == 2 * captures else {
        throw HarnessError("the sweep published \(published) files, not \(2 * captures)")
      }
      return (time.wall, time.cpu, fs)
    }
    // A sweep with its fsyncs takes minutes on a busy disk: it runs once in a full run; the
    // runs without (the figure with a target) twice (QUICK: two of each).
    var without: [Double] = []
    var withoutCPU: [Double] = []
    var with: [Double] = []
    var withCPU: [Double] = []
    var syncs = (files: 0, folders: 0)
    // The floor (sweep-floor.c) runs beside each sweep without fsync, on its own fresh folder, at
    // one thread and at the sweep's width, so the ratio compares runs made under the same load.
    let floorProgram = try compile("sweep-floor", libraries: ["-lexpat", "-pthread"])
    func floor(threads: Int, in parent: String = Harness.scratch, audioSource: String = audio.finished[0])
      throws -> (wall: Double, cpu: Double)
    {
      let folder = try makeFolder(in: parent, audioSource: audioSource)
      let line = try ChildRun.checked([floorProgram, folder, String(threads)]).stdout
      var fields: [String: Double] = [:]
      for field in line.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
        let pair = field.split(separator: "=", maxSplits: 1)
        if pair.count == 2, let value = Double(pair[1]) { fields[String(pair[0])] = value }
      }
      guard let wall = fields["wall"], let cpu = fields["cpu"], fields["captures"] == Double(captures),
        fields["parts"] == Double(2 * parts * captures)
      else { throw HarnessError("sweep-floor did not sweep every part: \(line)") }
      return (wall, cpu)
    }
    var floorWalls: [Int: [Double]] = [:]
    var floorCPUs: [Int: [Double]] = [:]
    for run in 0..<2 {
      let off = try sweep(synchronizes: false)
      without.append(off.seconds)
      withoutCPU.append(off.cpu)
      for threads in Set([workers, 1]).sorted(by: >) {
        let time = try floor(threads: threads)
        floorWalls[threads, default: []].append(time.wall)
        floorCPUs[threads, default: []].append(time.cpu)
      }
      guard run == 0 || quick else { continue }
      let on = try sweep(synchronizes: true)
      with.append(on.seconds)
      withCPU.append(on.cpu)
      syncs = (on.fs.fileSyncs, on.fs.folderSyncs)
    }
    let off = Runs(values: without)
    let on = Runs(values: with)
    let name = "Recovery sweep, \(captures) captures × \(parts)+\(parts) parts"
    figures.append(
      Figure(
        issue: "#5", name: name + ": work besides fsync", result: off.text(3, unit: " s"), target: "< 1 s",
        verdict: .verdict(off.median < 1),
        note:
          "\(2 * captures) files published, \(2 * captures * parts) parts removed; fsync switched off through "
          + "the seam; CPU time \(Runs(values: withoutCPU).text(3, unit: " s"))"))
    // On a busy disk the wall time waits on more than fsync: when the sweep with fsync is not the
    // slower one, its share cannot be read off the two and the note says so.
    let share =
      on.median > off.median
      ? String(
        format: "fsync ≈ %.3f s (%.0f%%) of it", on.median - off.median,
        (on.median - off.median) / on.median * 100)
      : "fsync share not measurable in this run: the sweep with fsync took less wall time than without "
        + "(disk waits, not CPU, dominate both)"
    figures.append(
      Figure(
        issue: "#5", name: name + ": with its fsyncs", result: on.text(3, unit: " s"), target: "report",
        verdict: .info,
        note:
          share + "; CPU time \(Runs(values: withCPU).text(3, unit: " s")); "
          + "\(syncs.files) file and \(syncs.folders) folder fsyncs per sweep"))

    // The same floor, and the sweep, once on a memory file system, in a folder of our own there:
    // how much of the disk-backed floor is the disk (ext4 here discards at every unlink), and the
    // sweep's work with no disk under it at all.
    var memory: [Int: (wall: Double, cpu: Double)] = [:]
    var memorySweep: (seconds: Double, cpu: Double)?
    var memoryProblem = ""
    var template = Array("/dev/shm/stash-bench-floor.XXXXXX".utf8CString)
    if let made = mkdtemp(&template) {
      let shm = String(cString: made)
      // Made by mkdtemp just above: nothing but the floor's folder and its audio is in it.
      defer { _ = try? FileManager.default.removeItem(atPath: shm) }
      do {
        // Audio is hard-linked into a capture, so its source must be on the same file system.
        let source = shm + "/audio.m4a"
        try Files.copy(audio.finished[0], to: source)
        let swept = try sweep(synchronizes: false, in: shm, audioSource: source)
        memorySweep = (swept.seconds, swept.cpu)
        for threads in Set([workers, 1]).sorted(by: >) {
          memory[threads] = try floor(threads: threads, in: shm, audioSource: source)
        }
      } catch {
        memoryProblem = "failed: \(error)"
      }
    } else {
      memoryProblem = "no writable /dev/shm: \(String(cString: strerror(errno)))"
    }

    let floorOne = Runs(values: floorWalls[1]!)
    let floorWide = Runs(values: floorWalls[workers]!)
    let cpuText = { (threads: Int) in Runs(values: floorCPUs[threads]!).text(3, unit: " s") }
    figures.append(
      Figure(
        issue: "#5", name: name + ": floor, bare C, 1 thread", result: floorOne.text(3, unit: " s"),
        target: "report", verdict: .info,
        note:
          "sweep-floor.c on a fresh folder: list, lstat, open+fstat+read every part, expat over every "
          + "route part, a line count over every transcript part, write and rename the two files, "
          + "unlink the parts, rmdir; no fsync; CPU time \(cpuText(1))"))
    figures.append(
      Figure(
        issue: "#5", name: name + ": floor, bare C, at the sweep's width",
        result: floorWide.text(3, unit: " s"),
        target: "report", verdict: .info,
        note:
          "\(workers) threads, each taking the next capture; CPU time \(cpuText(workers)) "
          + "(all threads)"))
    // Each sweep is set against the floor run just after it, then the median of those ratios.
    let ratios = Runs(values: zip(without, floorWalls[workers]!).map { $0 / $1 })
    let cpuRatios = Runs(values: zip(withoutCPU, floorCPUs[workers]!).map { $0 / $1 })
    let oneRatios = Runs(values: zip(without, floorWalls[1]!).map { $0 / $1 })
    figures.append(
      Figure(
        issue: "#5", name: name + ": work besides fsync over the floor at the same width",
        result: ratios.text(2, unit: "x"), target: "report", verdict: .info,
        note:
          "wall time of the sweep without fsync ÷ the floor's at \(workers) threads, each pair in the same "
          + "run; by CPU time \(cpuRatios.text(2, unit: "x")); over the 1-thread floor "
          + oneRatios.text(2, unit: "x")))
    // One run each on /dev/shm: the figure, or why it is missing.
    func memoryFigure(_ suffix: String, seconds: Double?, note: () -> String) {
      guard let seconds else {
        figures.append(.missing("#5", name + suffix, target: "report", because: memoryProblem))
        return
      }
      figures.append(
        Figure(
          issue: "#5", name: name + suffix, result: String(format: "%.3f s (1 run)", seconds),
          target: "report",
          verdict: .info, note: note()))
    }
    let wide = memory[workers]
    memoryFigure(": floor on /dev/shm at the sweep's width", seconds: wide?.wall) {
      let one = memory[1]!
      return String(
        format:
          "tmpfs, same program and folder: CPU time %.3f s at %d threads; 1 thread %.3f s wall, "
          + "%.3f s CPU; the disk is ≈ %.0f%% of the disk-backed floor's wall time at %d threads",
        wide!.cpu, workers, one.wall, one.cpu, (floorWide.median - wide!.wall) / floorWide.median * 100,
        workers)
    }
    memoryFigure(": work besides fsync on /dev/shm", seconds: wide == nil ? nil : memorySweep?.seconds) {
      String(
        format:
          "the same sweep without fsync on tmpfs, no disk under it: CPU time %.3f s; %.2fx the floor "
          + "there by wall time, %.2fx by CPU time", memorySweep!.cpu, memorySweep!.seconds / wide!.wall,
        memorySweep!.cpu / wide!.cpu)
    }
  }
}
