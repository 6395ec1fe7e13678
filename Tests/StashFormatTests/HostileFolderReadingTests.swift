import Dispatch
import Foundation
import StashTestSupport
import Testing

@testable import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// Folders that came from somewhere strange: special files under memo names, links to devices and
/// loops, names no phone writes, and a folder that changes while it is read.
@Suite struct HostileFolderReadingTests {
  /// Runs `body` on another thread and fails the test if it has not finished within `limit`
  /// seconds: a read that blocks on a FIFO would otherwise hang the whole test run. (A guard
  /// against a hang, not a speed test: the limit is far above any real read.)
  static func finishes<T: Sendable>(within limit: Double = 120, _ body: @escaping @Sendable () throws -> T)
    throws -> T
  {
    nonisolated(unsafe) var result: Result<T, any Error>?
    let done = DispatchSemaphore(value: 0)
    Thread {
      result = Result { try body() }
      done.signal()
    }.start()
    guard done.wait(timeout: .now() + limit) == .success else {
      Issue.record("the read did not finish within \(limit) s: something blocked")
      throw CancellationError()
    }
    return try result!.get()
  }

  static func makeSocket(_ path: String) -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    precondition(bound == 0, "bind \(path): \(errno)")
    return fd
  }

  @Test func specialFilesAndLinksUnderEveryMemoNameAreNeverOpened() throws {
    let scratch = try FolderScratch("stash-hostile")
    defer { scratch.remove() }
    let outside = try FolderScratch("stash-hostile-outside")
    defer { outside.remove() }
    let p = scratch.path
    // A FIFO with no writer: opening it for reading without O_NONBLOCK would block forever.
    for name in ["fifo_transcription.vtt", "fifo_track.gpx", "fifo_title.txt"] {
      #expect(mkfifo(p + "/" + name, 0o644) == 0)
    }
    try scratch.write("fifo_audio.m4a")
    try scratch.folder("fifo.parts")
    #expect(mkfifo(p + "/fifo.parts/transcription.0001.vtt", 0o644) == 0)
    #expect(mkfifo(p + "/fifo.parts/track.0001.gpx", 0o644) == 0)
    #expect(mkfifo(outside.path + "/pipe", 0o644) == 0)
    try FileManager.default.createSymbolicLink(
      atPath: p + "/linkedfifo_audio.m4a", withDestinationPath: outside.path + "/pipe")
    // Links to devices that never end or act when read.
    for name in ["zero_audio.m4a", "zero_transcription.vtt", "zero_title.txt", "zero_track.gpx"] {
      try FileManager.default.createSymbolicLink(atPath: p + "/" + name, withDestinationPath: "/dev/zero")
    }
    try FileManager.default.createSymbolicLink(
      atPath: p + "/random_title.txt", withDestinationPath: "/dev/urandom")
    try scratch.write("random_audio.m4a")
    // Device nodes made here (as root) and a bound socket.
    // A character device with /dev/zero's numbers (makedev(1, 5)).
    let madeDevices = mknod(p + "/device_audio.m4a", S_IFCHR | 0o644, dev_t((1 << 8) | 5)) == 0
    let socketFD = Self.makeSocket(p + "/socket_audio.m4a")
    defer { close(socketFD) }
    // Loops and dangling links.
    try FileManager.default.createSymbolicLink(
      atPath: p + "/loop_audio.m4a", withDestinationPath: "loop_audio.m4a")
    try FileManager.default.createSymbolicLink(atPath: p + "/a_title.txt", withDestinationPath: "b_title.txt")
    try FileManager.default.createSymbolicLink(atPath: p + "/b_title.txt", withDestinationPath: "a_title.txt")
    try scratch.write("a_audio.m4a")
    try FileManager.default.createSymbolicLink(
      atPath: p + "/gone_audio.m4a", withDestinationPath: outside.path + "/nothing")
    try FileManager.default.createSymbolicLink(atPath: p + "/loop.parts", withDestinationPath: ".")
    try FileManager.default.createSymbolicLink(
      atPath: p + "/gone_track.gpx", withDestinationPath: outside.path + "/nothing")
    // A link to a real memo file outside the folder is read through.
    let real = outside.url.appendingPathComponent("real.m4a")
    try FolderScratch.audio.write(to: real)
    try FileManager.default.createSymbolicLink(
      atPath: p + "/outside_audio.m4a", withDestinationPath: real.path)

    let path = scratch.path
    let folder = try Self.finishes { try MemoFolder.read(path: path) }
    func memo(_ base: String) -> Memo? { folder.memos.first { $0.base == base } }

    for base in ["linkedfifo", "zero", "socket", "loop", "gone"] + (madeDevices ? ["device"] : []) {
      let m = try #require(memo(base), "\(base)")
      guard case .damaged? = m.audio?.state else {
        Issue.record(
          "\(base): audio that is not a regular file must read as damaged, got \(String(describing: m.audio?.state))"
        )
        continue
      }
      #expect(
        m.problems.contains { $0.file?.hasSuffix("_audio.m4a") == true }, "\(base): \(m.problems.map(\.code))"
      )
    }
    let fifo = try #require(memo("fifo"))
    for name in ["fifo_transcription.vtt", "fifo_track.gpx", "fifo_title.txt"] {
      #expect(
        fifo.problems.contains { $0.file == name && $0.code == .folderNotAFile },
        "\(name): \(fifo.problems)")
    }
    // A name that is not a file is no finished file: no T or R mark (they once said present).
    #expect(!fifo.hasTranscript && !fifo.hasRoute)
    let gone = try #require(memo("gone"))
    #expect(!gone.hasRoute)
    #expect(
      gone.problems.contains {
        $0.file == "gone_track.gpx" && $0.code == .folderNotAFile && $0.message.contains("leads nowhere")
      })
    let zero = try #require(memo("zero"))
    #expect(!zero.hasTranscript && !zero.hasRoute)
    #expect(zero.title?.text == nil)
    #expect(memo("random")?.title?.text == nil)
    // A title in a loop of links cannot be read (FORMAT.md §5), which the open's own error says.
    let loop = try #require(memo("a"))
    #expect(loop.title?.text == nil)
    #expect(
      loop.problems.map(\.code) == [.titleUnreadable]
        && loop.problems[0].message.contains("Too many levels of symbolic links"), "\(loop.problems)")
    let outsideMemo = try #require(memo("outside"))
    #expect(outsideMemo.audio?.state == .ok)
    #expect(outsideMemo.durationSeconds.map { abs($0 - 3) < 0.1 } == true)
    // Nothing was changed: the FIFOs are still FIFOs, the links still links.
    var info = stat()
    #expect(lstat(p + "/fifo_title.txt", &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
    #expect(lstat(p + "/zero_audio.m4a", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
  }

  @Test func namesNoPhoneWritesAreListedAndNeverMisread() throws {
    let scratch = try FolderScratch("stash-hostile-names")
    defer { scratch.remove() }
    let audio = [UInt8](FolderScratch.audio)
    // Invalid UTF-8 in a base: never part of a memo (FORMAT.md §1.2), listed as unrecognised.
    scratch.write(rawName: [0x66, 0xFF, 0xFE] + Array("_audio.m4a".utf8), audio)
    // Newlines and control characters are valid UTF-8: a memo, kept byte for byte.
    try scratch.write("line\nbreak\u{1B}[31m_audio.m4a")
    // The longest name a file system allows: 255 bytes.
    let longBase = String(repeating: "é", count: (255 - 10) / 2) + "x"
    #expect((longBase + "_audio.m4a").utf8.count == 255)
    try scratch.write(longBase + "_audio.m4a")
    try scratch.write(longBase + "_title.txt", "Long one")

    let folder = try MemoFolder.read(path: scratch.path)
    #expect(Set(folder.memos.map(\.base)) == ["line\nbreak\u{1B}[31m", longBase])
    let invalid = try #require(folder.others.first { $0.bytes.contains(0xFF) })
    guard case .unrecognised = invalid.role else {
      Issue.record("an invalid UTF-8 name must be unrecognised, was \(invalid.role)")
      return
    }
    #expect(folder.memos.first { $0.base == longBase }?.displayName == "Long one")
    #expect(folder.memos.allSatisfy { $0.audio?.state == .ok })
  }

  @Test func aFourGigabyteSparseAudioFileIsReadWithoutReadingItsBody() throws {
    let scratch = try FolderScratch("stash-hostile-sparse")
    defer { scratch.remove() }
    let file = try scratch.write("big_audio.m4a")
    // Real audio, then four gigabytes of holes: a copy cut off with zeros past its end.
    #expect(truncate(file.path, 4 << 30 + 17) == 0)
    let path = file.path
    let (summary, audio) = try Self.finishes {
      (AudioSummary.read(path: path), try MP4Audio.read(path: path))
    }
    #expect(audio.samples.allSatisfy { $0.offset + $0.size <= FolderScratch.audio.count })
    #expect(audio.samples.count > 100)
    #expect(summary.durationSeconds.map { $0 < 4 } ?? true)
    // The tail of zeros is not audio; whatever the reader calls it, it says so.
    #expect(audio.tailBytes > 0 || !audio.diagnostics.isEmpty || audio.damaged != nil)
  }

  @Test func aFolderChangingWhileItIsReadIsAlwaysReadWhole() throws {
    let scratch = try FolderScratch("stash-hostile-churn")
    defer { scratch.remove() }
    for n in 0..<6 { try scratch.write("2026-01-0\(n + 1)T10-00-00Z_audio.m4a") }
    let path = scratch.path
    let audio = [UInt8](FolderScratch.audio)
    let stop = Atomic(false)
    // A writer that adds, removes, grows and cuts files under memo names as fast as it can.
    let writer = Thread {
      var round = 0
      while !stop.load() {
        round += 1
        let name = path + "/2026-02-\(String(format: "%02d", round % 20 + 1))T10-00-00Z"
        let fd = open(name + "_audio.m4a", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd >= 0 {
          // Written in pieces, so a reader meets every length of it.
          var offset = 0
          while offset < audio.count {
            let piece = min(4096, audio.count - offset)
            _ = audio.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, piece) }
            offset += piece
          }
          close(fd)
        }
        "WEBVTT\n\n00:00.000 --> 00:01.000\nhi\n".withCString { text in
          let t = open(name + "_transcription.vtt", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
          _ = Glibc.write(t, text, strlen(text))
          close(t)
        }
        if round % 3 == 0 {
          unlink(path + "/2026-02-\(String(format: "%02d", (round + 7) % 20 + 1))T10-00-00Z_audio.m4a")
        }
        if round % 5 == 0 {
          truncate(path + "/2026-01-01T10-00-00Z_audio.m4a", off_t(audio.count - round % 3000))
        }
        if round % 7 == 0 { mkdir(name + ".parts", 0o755) } else { rmdir(name + ".parts") }
      }
    }
    writer.start()
    defer { stop.store(true) }
    var reads = 0
    for _ in 0..<20 {
      let folder = try Self.finishes { try MemoFolder.read(path: path) }
      reads += 1
      // The six memos that stay are always there; nothing read is out of bounds.
      #expect(folder.memos.filter { $0.base.hasPrefix("2026-01-") }.count == 6)
      for memo in folder.memos {
        #expect(memo.durationSeconds.map { $0.isFinite && $0 >= 0 && $0 < 4 } ?? true, "\(memo.base)")
      }
    }
    stop.store(true)
    #expect(reads == 20)
  }
}

/// A flag shared with the writer thread.
private final class Atomic: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Bool
  init(_ value: Bool) { self.value = value }
  func load() -> Bool { lock.withLock { value } }
  func store(_ new: Bool) { lock.withLock { value = new } }
}
