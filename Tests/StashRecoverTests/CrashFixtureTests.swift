import Foundation
import StashFormat
import StashRecover
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The sweep over `SyntheticFixtures/crash`, with the real WebVTT and GPX assembly, against what
/// its MANIFEST says each capture becomes.
@Suite struct CrashFixtureTests {
  @Test func eachCaptureBecomesWhatTheManifestSays() throws {
    let folder = try CrashFolder()
    defer { folder.remove() }
    let report = try folder.sweep()
    #expect(report.exitCode == 1)
    for (base, entry) in folder.captures {
      #expect(try folder.files(of: base) == entry["after"] as! [String], "\(base)")
      let events = report.captures.first { $0.base == base }?.events ?? []
      #expect(events.contains(where: \.needsPerson) == entry["needsPerson"] as! Bool, "\(base): \(events)")
      let published = Dictionary(
        events.compactMap { event in event.assembly.map { ($0.kind, $0) } }, uniquingKeysWith: { a, _ in a })
      if let transcript = entry["transcript"] as? [String: Any] {
        let bytes = Array(
          try Data(contentsOf: folder.root.appendingPathComponent(base + "_transcription.vtt")))
        let document = WebVTTParser.parse(bytes)
        #expect(document.cues.count == transcript["cueCount"] as! Int, "\(base)")
        #expect(published[.transcript]?.items == transcript["cueCount"] as? Int, "\(base)")
        let gaps = document.missingSpeech.map {
          [($0.start * 1000).rounded() / 1000, ($0.end * 1000).rounded() / 1000]
        }
        #expect(gaps == (transcript["missingSpeech"] as! [[Double]]), "\(base)")
        let runs = document.cues.reduce(0) {
          $0 + $1.text.components(separatedBy: "<c.unconfirmed>").count - 1
        }
        #expect(runs == transcript["unconfirmedRuns"] as! Int, "\(base)")
        #expect(!document.diagnostics.contains { $0.severity == .error }, "\(base): \(document.diagnostics)")
        if let torn = entry["tornCueText"] as? String {
          #expect(document.cues.last?.text == torn + "</c>", "the torn span is closed, its marking kept")
        }
      }
      if let route = entry["route"] as? [String: Any] {
        let bytes = Array(try Data(contentsOf: folder.root.appendingPathComponent(base + "_track.gpx")))
        let document = GPXReader.read(bytes)
        #expect(!document.isDamaged)
        let segments = document.tracks.flatMap(\.segments)
        #expect(segments.map(\.points.count) == route["pointsPerSegment"] as! [Int], "\(base)")
        #expect(published[.route]?.segments == route["segments"] as? Int, "\(base)")
      }
    }
    // A second sweep finds nothing more to do and changes nothing.
    let after = try FolderTree(folder.root)
    let again = try folder.sweep()
    #expect(try FolderTree(folder.root) == after)
    #expect(
      again.captures.allSatisfy {
        !$0.events.contains { [.published, .removed, .withdrawn].contains($0.action) }
      })
  }

  @Test func publishedRoutesValidateAgainstTheGPXSchema() throws {
    let folder = try CrashFolder()
    defer { folder.remove() }
    _ = try folder.sweep()
    for base in ["2026-04-01T09-00-00", "2026-04-02T09-00-00", "2026-04-03T09-00-00"] {
      let result = try runProcessChecked(
        "xmllint",
        [
          "--noout", "--schema", Fixtures.repositoryRoot.path + "/Tests/Schemas/gpx.xsd",
          folder.root.path + "/" + base + "_track.gpx",
        ])
      #expect(result == 0, "\(base)")
    }
  }

  /// The case: a copy gives every file the time of the copy. The capture touched to now
  /// is dated April and plays seconds, so nothing is recording into it: it is swept at once.
  @Test func aFreshCopyOfAKilledRecordingIsSweptAtOnce() throws {
    let folder = try CrashFolder()
    defer { folder.remove() }
    let base = "2026-04-13T09-00-00"
    let report = try folder.sweep()
    #expect(report.captures.first { $0.base == base }?.events.map(\.action).contains(.skipped) == false)
    #expect(
      try folder.files(of: base) == [base + "_audio.m4a", base + "_track.gpx", base + "_transcription.vtt"])
  }

  /// The safety kept: a capture named for fifteen seconds ago whose audio plays 13.5 s, changed
  /// just now, is a recording that may be running: left, and swept only with --include-recent.
  @Test func aCaptureWhoseTimesFitARecordingRunningNowIsLeftUnlessIncludeRecent() throws {
    let folder = try CrashFolder()
    defer { folder.remove() }
    let base = RecordingDate.isoUTC((folder.now - 15).rounded(.down)).replacing(":", with: "-")
    let fixture = Fixtures.folder("crash").appendingPathComponent("2026-04-01T09-00-00_audio.m4a")
    try FileManager.default.copyItem(at: fixture, to: folder.root.appendingPathComponent(base + "_audio.m4a"))
    try put(
      "WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n", base + ".parts/transcription.0001.vtt", in: folder.root)
    let report = try folder.sweep()
    #expect(report.captures.first { $0.base == base }?.events.map(\.action) == [.skipped])
    #expect(try folder.files(of: base).contains(base + ".parts/transcription.0001.vtt"))
    _ = try folder.sweep(options: { $0.includeRecent = true })
    #expect(try folder.files(of: base) == [base + "_audio.m4a", base + "_transcription.vtt"])
  }

  @Test func droppingRoutesPublishesNoneAndRemovesTheirParts() throws {
    let folder = try CrashFolder()
    defer { folder.remove() }
    _ = try folder.sweep(consent: false)
    let paths = try FolderTree(folder.root).paths
    let routes = paths.filter { $0.hasSuffix("_track.gpx") }
    #expect(routes == ["2026-04-05T09-00-00_track.gpx"], "only the track published before stays")
    #expect(
      paths.filter {
        $0.contains(".parts/track.") && !$0.hasPrefix("2026-04-05")
      }.isEmpty)
  }

  @Test func dryRunTouchesNothing() throws {
    let folder = try CrashFolder()
    defer { folder.remove() }
    let before = try FolderTree(folder.root)
    let report = try folder.sweep(options: { $0.repairAudio = true }, dryRun: true)
    #expect(try FolderTree(folder.root) == before)
    #expect(report.captures.flatMap(\.events).contains { $0.action == .published })
    #expect(report.captures.flatMap(\.events).contains { $0.action == .repaired })
  }

  /// A leftover temporary in a parts folder beside a stranger's file: the plan removes the one and
  /// keeps the other, as the run then does (it once said it would remove the temporary, then that
  /// it would keep it with the stranger's file).
  @Test func theDryRunKeepsWhatTheRunKeeps() throws {
    let folder = try CrashFolder()
    defer { folder.remove() }
    try put("j", "2026-04-01T09-00-00.parts/.transcription.0004.vtt.stash-tmp-AAAAAA", in: folder.root)
    try put("j", "2026-04-01T09-00-00.parts/.hidden", in: folder.root)
    let kept = { (report: SweepReport) in
      report.captures.flatMap(\.events).filter { $0.action == .kept }.flatMap(\.names).sorted()
    }
    let plan = try folder.sweep(dryRun: true)
    let run = try folder.sweep()
    #expect(plan.temporariesRemoved == run.temporariesRemoved && !run.temporariesRemoved.isEmpty)
    #expect(
      kept(plan) == kept(run) && kept(run).contains("2026-04-01T09-00-00.parts/.hidden"), "\(kept(plan))")
    #expect(!kept(run).contains { $0.contains("stash-tmp") }, "\(kept(run))")
  }

  /// Kills the sweep at every step, checks no cue or point on disk was lost, reruns, and expects the
  /// folder an uninterrupted sweep leaves. fsync is off in this loop (the stops are simulated in
  /// process, where the page cache holds every write) to keep it fast.
  @Test func killedAtEveryStepARerunConvergesAndNothingIsLost() throws {
    let reference = try CrashFolder()
    defer { reference.remove() }
    let original = try reference.data()
    let counter = FaultyFileSystem(base: SystemFileSystem(synchronizes: false))
    _ = try reference.sweep(fileSystem: counter)
    let expected = try FolderTree(reference.root)
    // Routes being withdrawn are meant to go.
    let kept = original.points.filter { !$0.hasPrefix("2026-04-06") && !$0.hasPrefix("2026-04-07") }
    #expect(counter.steps > 100)
    for stop in 1...counter.steps {
      let folder = try CrashFolder()
      defer { folder.remove() }
      _ = try? folder.sweep(
        fileSystem: FaultyFileSystem(base: SystemFileSystem(synchronizes: false), stopAt: stop))
      let now = try folder.data()
      #expect(original.cues.isSubset(of: now.cues), "cues lost when killed at step \(stop)")
      #expect(kept.isSubset(of: now.points), "points lost when killed at step \(stop)")
      _ = try folder.sweep(fileSystem: SystemFileSystem(synchronizes: false))
      #expect(try FolderTree(folder.root) == expected, "killed at step \(stop)")
    }
  }

  @Test func aFailingCallAtEveryStepLosesNothingAndARerunConverges() throws {
    let reference = try CrashFolder()
    defer { reference.remove() }
    let original = try reference.data()
    let counter = FaultyFileSystem(base: SystemFileSystem(synchronizes: false))
    _ = try reference.sweep(fileSystem: counter)
    let expected = try FolderTree(reference.root)
    let errors: [Int32] = [ENOSPC, EIO, EACCES, EINTR]
    for step in 1...counter.steps {
      let folder = try CrashFolder()
      defer { folder.remove() }
      let failure = errors[step % errors.count]
      _ = try? folder.sweep(
        fileSystem: FaultyFileSystem(
          base: SystemFileSystem(synchronizes: false), failAt: step, failure: failure))
      #expect(original.cues.isSubset(of: try folder.data().cues), "errno \(failure) at step \(step)")
      _ = try folder.sweep(fileSystem: SystemFileSystem(synchronizes: false))
      #expect(try FolderTree(folder.root) == expected, "errno \(failure) at step \(step)")
    }
  }
}

/// Runs a program and returns its exit status.
func runProcessChecked(_ program: String, _ arguments: [String]) throws -> Int32 {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [program] + arguments
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  return process.terminationStatus
}
