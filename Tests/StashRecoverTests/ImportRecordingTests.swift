import Foundation
import StashFormat
import StashRecover
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A recording still running on the source is left alone, told apart from a fresh copy.
@Suite struct ImportRecordingTests {
  /// Appends to a file every 20 ms on its own thread until stopped, as the phone's recorder does.
  final class Writer: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var running = true
    private var thread: Thread?
    private(set) var appended = 0

    init(path: String) {
      self.path = path
      let thread = Thread { [self] in
        let handle = FileHandle(forWritingAtPath: path)!
        handle.seekToEndOfFile()
        while lock.withLock({ running }) {
          handle.write(Data(repeating: 0x55, count: 4096))
          lock.withLock { appended += 4096 }
          usleep(20_000)
        }
        try? handle.close()
      }
      self.thread = thread
      thread.start()
    }

    func stop() {
      lock.withLock { running = false }
      while !(thread?.isFinished ?? true) { usleep(1_000) }
    }
  }

  @Test func aMemoWhoseAudioGrowsDuringTheImportIsLeftAndImportedOnceItStops() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    let base = "2026-04-11T09-00-00"
    let audio = folders.source.path + "/" + base + "_audio.m4a"
    let writer = Writer(path: audio)
    let report: ImportReport
    do {
      defer { writer.stop() }
      report = try folders.run(options: {
        $0.now = Date().timeIntervalSince1970
        $0.settle = 0.3
      })
    }
    #expect(writer.appended > 0)
    let memo = report.memos.first { $0.base == base }
    #expect(memo?.outcome == .stillRecording, "\(report.textLines)")
    // Seen growing between the two looks, or (on a machine too busy for the writer to run in
    // between) while it was copied.
    let detail = memo?.detail ?? ""
    #expect(
      detail.contains("its audio grew by") || detail.contains("changed while it was copied"), "\(detail)")
    #expect(report.exitCode == 0, "a memo still recording waits; nobody has anything to fix")
    #expect(!FileManager.default.fileExists(atPath: folders.target.path + "/" + base + "_audio.m4a"))
    #expect(
      !FileManager.default.fileExists(atPath: folders.target.path + "/" + base + "_transcription.vtt"),
      "nothing of a memo still recording is copied: no half memo")
    #expect(report.memos.filter { $0.outcome == .copied }.count == 12, "the others are imported meanwhile")

    // Stopped, and the window past: it comes in whole, with every byte the writer added.
    let later = try folders.run(options: { $0.now = Date().timeIntervalSince1970 + 600 })
    #expect(later.memos.first { $0.base == base }?.outcome == .copied)
    let (found, expected) = (try ImportFolders.state(folders.target), try folders.expectedTarget())
    #expect(
      found == expected,
      "differs at \(Set(found.keys).union(expected.keys).filter { found[$0] != expected[$0] }.sorted().map { "\($0): \(found[$0] ?? "-") against \(expected[$0] ?? "-")" }); \(later.textLines)"
    )
  }

  @Test func aMemoThatChangesWhileItIsCopiedLeavesNothingOfItBehind() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    let base = "2026-04-05T09-00-00"
    let audio = folders.source.path + "/" + base + "_audio.m4a"
    let faulty = FaultyFileSystem()
    // The audio is copied last: by then its parts, transcript and route have landed.
    faulty.beforeOpen = { path in
      if path == audio, let handle = FileHandle(forWritingAtPath: path) {
        handle.seekToEndOfFile()
        handle.write(Data(repeating: 1, count: 100))
        try? handle.close()
      }
    }
    let report = try folders.run(fileSystem: faulty)
    let memo = report.memos.first { $0.base == base }
    #expect(memo?.outcome == .stillRecording, "\(report.textLines)")
    #expect(memo?.detail.contains("changed while it was copied") == true)
    #expect(
      faulty.calls.contains { $0.hasPrefix("renameNoReplace ") && $0.hasSuffix(base + "_transcription.vtt") })
    let left = try FolderTree(folders.target).paths.filter { $0.hasPrefix(base) }
    #expect(left.isEmpty, "what landed before the change goes again: \(left)")
  }

  /// A memo named for a minute ago whose audio plays about that long, changed just now.
  func liveLooking(in folders: ImportFolders, dated date: Double) throws -> String {
    let base = RecordingDate.isoUTC(date.rounded(.down)).replacing(":", with: "-")
    let fixture = Fixtures.folder("crash").appendingPathComponent("2026-04-01T09-00-00_audio.m4a")
    try FileManager.default.copyItem(
      at: fixture, to: folders.source.appendingPathComponent(base + "_audio.m4a"))
    try put(
      "WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n", base + ".parts/transcription.0001.vtt", in: folders.source
    )
    return base
  }

  @Test func aStillMemoWhoseTimesFitARecordingRunningNowIsLeft() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    let now = Date().timeIntervalSince1970
    // The fixture's audio plays 13.5 s: a recording started 15 s ago, flushed 1.5 s ago.
    let base = try liveLooking(in: folders, dated: now - 15)
    let report = try folders.run(options: { $0.now = now })
    let memo = report.memos.first { $0.base == base }
    #expect(memo?.outcome == .stillRecording, "\(report.textLines)")
    #expect(memo?.detail.contains("fits its recording date and length") == true, "\(memo?.detail ?? "")")
  }

  @Test func aFreshCopyOfAnOlderRecordingIsImported() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    let now = Date().timeIntervalSince1970
    // The same files, named for a recording of three days ago: the copy gave them today's times.
    let base = try liveLooking(in: folders, dated: now - 3 * 86_400 - 7)
    let report = try folders.run(options: { $0.now = now })
    #expect(report.memos.first { $0.base == base }?.outcome == .copied, "\(report.textLines)")
  }
}
