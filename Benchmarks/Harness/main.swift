// stash-bench: generates its corpora in a temporary folder, measures every speed figure the issues
// name, runs the peers on the same files, prints the table and writes docs/BENCHMARKS.md.
//   stash-bench --bin DIR [--repo DIR] [--out FILE] [--quick] [--large] [--keep] [--only WORD]
//     [--command TEXT]
// --large (`make bench BENCH_LARGE=1`) adds the 100,000-memo tier: about 3 GB of disk.
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let option = { (name: String) -> String? in
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  return arguments[index + 1]
}
let repo = option("--repo") ?? FileManager.default.currentDirectoryPath
guard let bin = option("--bin") else {
  log(
    "usage: stash-bench --bin DIR [--repo DIR] [--out FILE] [--quick] [--large] [--keep] [--only WORD] "
      + "[--command TEXT]"
  )
  exit(2)
}
let quick = arguments.contains("--quick")
let large = arguments.contains("--large")
let out = option("--out") ?? repo + "/docs/BENCHMARKS.md"
let command = option("--command") ?? (quick ? "make bench QUICK=1" : "make bench")

let started = Date()
let loadAtStart = Measure.load()
let clock = Measure.now()
let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
var template = Array((temporary + "/stash-bench.XXXXXX").utf8CString)
guard let made = mkdtemp(&template) else {
  log("stash-bench: cannot make a temporary folder")
  exit(2)
}
Harness.scratch = String(cString: made)
log("stash-bench: corpora in \(Harness.scratch); load average \(Report.loadText(loadAtStart))")

var harness = Harness(bin: bin, repo: repo, quick: quick, only: option("--only"))
do {
  Harness.peakHelper = try harness.compile("peak-memory")
} catch {
  log("stash-bench: no peak-memory helper (\(error)); memory figures are upper bounds")
}
do {
  log("· peers")
  harness.preparePeers()
  // Every child's findings cache goes to the scratch folder, never the home folder's: the cold
  // figures pass --no-cache, and the warm ones fill it with one run first (issue #45). Set after
  // the peers, whose virtual environment stays in the home folder's cache between runs.
  setenv("XDG_CACHE_HOME", Harness.scratch + "/cache", 1)
  log("· corpora: audio (ffmpeg), \(quick ? 2_000 : 10_000) memos")
  let start = Measure.now()
  let audio = try AudioCorpus.make(in: Harness.scratch + "/audio")
  let memos = try MemoFolderCorpus.make(in: Harness.scratch, count: quick ? 2_000 : 10_000, audio: audio)
  // A lifetime of memos (ten a day for 27 years): the same generator, ten times over.
  let lifetime =
    large
    ? try MemoFolderCorpus.make(in: Harness.scratch, name: "memos-large", count: 100_000, audio: audio) : nil
  // Write the corpora out now: the kernel's writeback of a few hundred megabytes would otherwise
  // run during the first timings (on this VM's disk, with its discards, for seconds).
  sync()
  log(String(format: "  (%.1f s)", Measure.now() - start))

  harness.section("#2", "`stash ls --json`", target: "≤ 0.3 s, ≤ 100 MB") { try $0.listing(memos) }
  for corpus in [memos] + (lifetime.map { [$0] } ?? []) {
    harness.section("#20", "listing floor, \(corpus.count) memos", target: "≤ 2x the C floor") {
      try $0.listingFloor(corpus)
    }
  }
  harness.section("#2", "audio lengths side by side", target: "") { try $0.lengths(memos) }
  harness.section("#7", "Browser first screen", target: "≤ 0.5 s, < 150 MB") { try $0.firstScreen(memos) }
  harness.section("#8", "`stash lint`", target: "≤ 3 s") { try $0.lint(memos) }
  harness.section("#34", "`stash search`", target: "≤ 1.0x rg") { try $0.search(memos) }
  if let lifetime {
    harness.section("#20", "`stash ls --json`, large", target: "≤ 2x the C floor, ≤ 150 MB") {
      try $0.listing(lifetime)
    }
    harness.section("#20", "Browser first screen, large", target: "≤ 0.2 s, ≤ 150 MB") {
      try $0.firstScreen(lifetime)
    }
    harness.section("#20", "Keys while the rest is read, large", target: "≤ 50 ms") {
      try $0.keysWhileFilling(lifetime)
    }
    harness.section("#20", "`stash lint`, large", target: "≤ 10 s, ≤ 150 MB") { try $0.lint(lifetime) }
    harness.section("#34", "`stash search`, large", target: "≤ 1.0x rg, ≤ 100 MB") { try $0.search(lifetime) }
  }
  harness.section("#3", "WebVTT reading", target: "≥ 200 MB/s") {
    try $0.transcripts(megabytes: quick ? 20 : 100)
  }
  harness.section("#47", "Voice Memos transcript", target: "≤ 50 ms") { try $0.voiceMemoTranscript() }
  harness.section("#47", "Voice Memos import", target: "≤ 1.2x Stash memos") {
    try $0.voiceMemoImport(count: quick ? 100 : 500, minutes: quick ? 8 : 16, audio: audio)
  }
  harness.section("#4", "GPX reading", target: "≥ 110 MB/s, ≤ 1.5x expat") {
    try $0.routes(megabytes: quick ? 30 : 150)
  }
  harness.section("#6", "Decode a 40-minute memo", target: "≤ 1.2x ffmpeg") { try $0.decode(audio) }
  harness.section("#6", "Seek in a two-hour memo", target: "≤ 50 ms") { try $0.seeks(audio) }
  harness.section("#48", "A 2-minute clip from a two-hour memo", target: "≤ 0.1 s") { try $0.clip(audio) }
  harness.section("#48", "A bookmark from the browser's key", target: "≤ 50 ms") { try $0.bookmarkKey(audio) }
  harness.section("#6", "CPU while playing", target: "< 2 %") { try $0.playingCPU(audio) }
  harness.section("#36", "Waveform strip", target: "≤ 5 s whole, ≤ 0.3 s around, keys ≤ 50 ms, < 1 % CPU") {
    try $0.waveform(audio)
  }
  harness.section("#19", "Speed: pitch and length", target: "440 ± 2 Hz, within 1 %") { try $0.speedPitch() }
  harness.section("#19", "Speed: CPU at 2x", target: "< 3 %") { try $0.speedCPU(audio) }
  harness.section("#35", "Voice boost and enhance", target: "-16 ± 1 LUFS, ≤ -1 dBTP, < 3 %") {
    try $0.voiceBoost(audio)
  }
  harness.section("#19", "Speed, volume, boost, enhance, skip, seek: to the device", target: "< 100 ms") {
    try $0.changeLatency(audio)
  }
  harness.section("#35", "Skip silence: length and onsets", target: "within 3 %, every onset") {
    try $0.skipSilenceLength()
  }
  harness.section("#35", "Skip silence: CPU at 1x and 2x", target: "< 3 %, < 4 %") { try $0.skipSilenceCPU() }
  harness.section("#35", "Skip silence: the clock after ten minutes", target: "within 50 ms") {
    try $0.skipSilenceClock()
  }
  harness.section("#15", "Playing on PulseAudio", target: "≤ 100 ms seeks, ≤ 50 ms clock") {
    try $0.realServer("pulseaudio", label: "PulseAudio")
  }
  harness.section("#15", "Playing on PipeWire", target: "≤ 100 ms seeks, ≤ 50 ms clock") {
    try $0.realServer("pipewire", label: "PipeWire")
  }
  for (kind, label) in [("pulseaudio", "PulseAudio"), ("pipewire", "PipeWire")] {
    for rate in [44_100, 48_000] {
      harness.section(
        "#32", "Heard after play and seeks, \(label) at \(rate) Hz", target: "≤ 100 ms, clock ≤ 50 ms"
      ) {
        try $0.heardLatency(kind, label: label, rate: rate)
      }
    }
  }
  harness.section("#19", "MPRIS Seek", target: "≤ 100 ms") { try $0.mprisSeek() }
  harness.section("#5", "Recovery sweep", target: "< 1 s besides fsync") {
    try $0.sweep(captures: quick ? 100 : 1_000, audio: audio)
  }
  harness.section("#18", "`stash import`", target: "≥ 80 % of cp -a; second run ≤ 1 s") {
    try $0.importing(count: quick ? 200 : 1_000, audio: audio)
  }
} catch {
  log("stash-bench: \(error)")
  harness.figures.append(.missing("—", "corpus generation", target: "—", because: "failed: \(error)"))
}

let report = Report(
  started: started, loadAtStart: loadAtStart, loadAtEnd: Measure.load(), seconds: Measure.now() - clock,
  command: command, quick: quick, peerVersions: harness.peerVersions(), figures: harness.figures,
  peers: harness.peers)
if arguments.contains("--keep") {
  log("kept \(Harness.scratch)")
} else {
  // Our own scratch folder, made by mkdtemp above: nothing else is in it.
  _ = try? FileManager.default.removeItem(atPath: Harness.scratch)
}
do {
  try report.markdown.write(toFile: out, atomically: true, encoding: .utf8)
} catch {
  log("stash-bench: cannot write \(out): \(error)")
}
print(report.plain, terminator: "")
print("\nwritten to \(out)")
