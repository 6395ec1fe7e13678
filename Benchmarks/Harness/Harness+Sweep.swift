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
    var serial = 0
    func makeFolder() throws -> String {
      serial += 1
      let folder = Harness.scratch + "/captures-\(serial)"
      try Files.makeFolder(folder)
      for capture in 0..<captures {
        let base =
          folder + String(format: "/2026-04-01T09-%02d-%02d_%04d", capture / 60 % 60, capture % 60, capture)
        try Files.link(audio.finished[0], base + "_audio.m4a")
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
    func sweep(synchronizes: Bool) throws -> (seconds: Double, cpu: Double, fs: CountingFileSystem) {
      let folder = try makeFolder()
      let fs = CountingFileSystem(SystemFileSystem(synchronizes: synchronizes))
      let sweeper = Sweeper(fileSystem: fs, assembler: FormatAssembler())
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
    for run in 0..<2 {
      let off = try sweep(synchronizes: false)
      without.append(off.seconds)
      withoutCPU.append(off.cpu)
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
  }
}
