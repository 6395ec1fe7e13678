import Foundation
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `stash lint` prints findings as it finds them (issue #20): memory does not grow with the
/// number of findings, and the order is still the one sorted output would have.
@Suite struct LintStreamingTests {
  /// A folder of `orphans` orphaned titles named `a-…` (one finding each, some 100 bytes of output),
  /// then memos named `z-…` whose transcripts lint reads.
  static func folder(orphans: Int, memos: Int) throws -> URL {
    let folder = try Fixtures.scratchFolder("stash-lint-stream")
    for n in 0..<orphans {
      try Data("orphan \(n)\n".utf8).write(to: folder.appendingPathComponent("a-orphan-\(n)_title.txt"))
    }
    for n in 0..<memos {
      let base = String(format: "z-memo-%04d", n)
      try Data().write(to: folder.appendingPathComponent(base + "_audio.m4a"))
      try Data("WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n".utf8)
        .write(to: folder.appendingPathComponent(base + "_transcription.vtt"))
    }
    return folder
  }

  /// With its standard output a pipe nobody reads, a streaming lint fills the pipe with the
  /// orphans' findings and waits there, before it has opened the memos' transcripts (which sort
  /// after them); a lint that sorted everything at the end would have read every file first.
  /// inotify reports every open of a file in the folder.
  @Test func findingsArePrintedBeforeTheRestOfTheFolderIsRead() throws {
    let folder = try Self.folder(orphans: 1_500, memos: 20)
    defer { try? FileManager.default.removeItem(at: folder) }
    let watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    try #require(watch >= 0)
    defer { close(watch) }
    try #require(inotify_add_watch(watch, folder.path, UInt32(IN_OPEN)) >= 0)

    var pipeEnds: [Int32] = [0, 0]
    try #require(pipe(&pipeEnds) == 0)
    let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
    let process = Process()
    process.executableURL = Fixtures.product("stash")
    process.arguments = ["lint", folder.path]
    process.environment = ["TZ": "UTC", "LC_ALL": "C.UTF-8"]
    process.standardOutput = FileHandle(fileDescriptor: writeEnd, closeOnDealloc: false)
    process.standardError = FileHandle.nullDevice
    try process.run()
    close(writeEnd)
    defer {
      if process.isRunning { process.terminate() }
      close(readEnd)
    }

    // Wait until the pipe is full (the child is then blocked writing), or the child has ended.
    let capacity = Int(fcntl(readEnd, 1032))  // F_GETPIPE_SZ, which Glibc does not export
    var waiting = 0
    while process.isRunning {
      var queued: Int32 = 0
      _ = ioctl(readEnd, UInt(FIONREAD), &queued)
      if Int(queued) >= capacity { break }
      usleep(10_000)
      waiting += 1
      try #require(waiting < 6_000, "the pipe never filled")
    }
    // A little longer, in case a child not blocked on the pipe were still opening files.
    usleep(300_000)
    let openedBefore = Self.opened(watch)
    #expect(process.isRunning, "lint ended without filling the pipe: it printed too little to tell")
    #expect(
      !openedBefore.contains { $0.hasSuffix("_transcription.vtt") },
      "transcripts were read before the first findings were taken: \(openedBefore.filter { $0.hasPrefix("z") })"
    )

    // Read the rest: every finding arrives, and then the transcripts have been read.
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let got = read(readEnd, &buffer, buffer.count)
      if got <= 0 { break }
      output.append(contentsOf: buffer[..<got])
    }
    process.waitUntilExit()
    let text = String(decoding: output, as: UTF8.self)
    #expect(text.components(separatedBy: "[folder-orphan]").count - 1 == 1_500)
    #expect(Self.opened(watch).contains { $0.hasSuffix("_transcription.vtt") })
  }

  /// The names of the files opened since the last look.
  static func opened(_ watch: Int32) -> [String] {
    var names: [String] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let got = read(watch, &buffer, buffer.count)
      guard got > 0 else { break }
      var offset = 0
      while offset < got {
        let length = buffer.withUnsafeBytes {
          Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
        }
        let nameStart = offset + 16
        let raw = buffer[nameStart..<nameStart + length]
        names.append(String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self))
        offset = nameStart + length
      }
    }
    return names
  }

  /// Findings from names that sort into one another (a base and its prefix, a parts folder, an
  /// orphan between a memo's files) print in byte order of their paths, then line, as before.
  @Test func interleavedNamesPrintInPathOrder() throws {
    let folder = try Fixtures.scratchFolder("stash-lint-order")
    defer { try? FileManager.default.removeItem(at: folder) }
    let bases = ["m", "m-", "m.", "mZ", "m_", "m_x", "n", "é", "e\u{301}"]
    for base in bases {
      try Data().write(to: folder.appendingPathComponent(base + "_audio.m4a"))
      try Data("WEBVTT\n\nbroken cue\n00:02.000 --> 00:01.000\nbackwards\n".utf8)
        .write(to: folder.appendingPathComponent(base + "_transcription.vtt"))
      try Data("<gpx".utf8).write(to: folder.appendingPathComponent(base + "x_track.gpx"))
    }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("m.parts"), withIntermediateDirectories: false)
    let result = try runProcess(
      Fixtures.product("stash").path, ["lint", "--format", "gcc", folder.path], environment: ["TZ": "UTC"])
    #expect(result.status == 1)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count > 3 * bases.count, "\(result.standardOutput)")
    // path[:line[:column]]: …; the path never holds ": " here.
    let keys = lines.map { line -> ([UInt8], Int) in
      let head = line.components(separatedBy: ": ")[0].split(separator: ":")
      return (Array(head[0].utf8), head.count > 1 ? Int(head[1]) ?? 0 : 0)
    }
    for (a, b) in zip(keys, keys.dropFirst()) {
      let ordered = a.0.lexicographicallyPrecedes(b.0) || (a.0 == b.0 && a.1 <= b.1)
      #expect(ordered, "\(String(decoding: a.0, as: UTF8.self)) then \(String(decoding: b.0, as: UTF8.self))")
    }
  }
}
