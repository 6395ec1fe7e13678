import Foundation
import StashFormat
import Testing

@testable import StashFormat

/// `ReadOnlyFile.start`, the one-read way a listing reads a title and a transcript's head, and
/// `contents(of:usuallyUpTo:)`, the way a search reads a transcript whole: the bytes and size
/// that opening the file and reading it give, and, for what is not a regular file
/// (here put where the listing would have seen a regular one), the very error opening it gives.
@Suite struct ReadOnlyFileTests {
  /// The bytes and size of `path` the long way: opened (`init`), then read from its start.
  func longWay(_ path: String, count: Int, listed: Bool) throws(FormatError) -> ([UInt8], Int) {
    let file = try ReadOnlyFile(FileLocation(path: path), listedAsRegularFile: listed)
    return (try file.read(at: 0, count: count), file.size)
  }

  @Test func aRegularFileReadsAsOpeningAndReadingIt() throws {
    let scratch = try FolderScratch("stash-read-only")
    defer { scratch.remove() }
    let count = 64
    // Empty, short, one short of the buffer, exactly the buffer, one more, much more.
    for size in [0, 1, 15, count - 1, count, count + 1, count + 2, 20_000] {
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
      let path = scratch.path + "/file-\(size)"
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      for listed in [true, false] {
        let location = FileLocation(path: path)
        let sized = try ReadOnlyFile.start(sizedUpTo: count, of: location, listedAsRegularFile: listed)
        #expect(sized.bytes == Array(bytes.prefix(count)), "\(size) \(listed)")
        #expect(sized.size == size, "\(size) \(listed)")
        let (long, longSize) = try longWay(path, count: count, listed: listed)
        #expect(sized.bytes == long && sized.size == longSize, "\(size) \(listed)")
        let head = try ReadOnlyFile.start(location, count: 16, listedAsRegularFile: listed)
        #expect(head == Array(bytes.prefix(16)), "\(size) \(listed)")
        // The whole file, read on past the first read when it is longer, or refused as `readAll`
        // refuses it when it is longer than the limit.
        let whole = try ReadOnlyFile.contents(of: location, usuallyUpTo: count, listedAsRegularFile: listed)
        #expect(whole == bytes, "\(size) \(listed)")
        for limit in [size - 1, size] where limit >= 0 {
          let opened = try ReadOnlyFile(location)
          let expected = Result { () throws(FormatError) in try opened.readAll(limit: limit) }
          let got = Result { () throws(FormatError) in
            try ReadOnlyFile.contents(
              of: location, usuallyUpTo: count, listedAsRegularFile: listed, limit: limit)
          }
          #expect(got == expected, "\(size) \(listed) \(limit)")
        }
      }
    }
  }

  /// A FIFO (with and without a writer that has written), a folder, a link and a missing file
  /// where the listing saw a regular file: each is refused with the error `init` gives it, and no
  /// writer's bytes are taken for the file's.
  @Test func whatIsNotARegularFileIsRefusedAsOpeningItRefusesIt() throws {
    let scratch = try FolderScratch("stash-read-only")
    defer { scratch.remove() }
    let p = scratch.path
    #expect(mkfifo(p + "/fifo", 0o644) == 0)
    #expect(mkfifo(p + "/fed", 0o644) == 0)
    try scratch.folder("folder")
    try scratch.write("target", "WEBVTT\n")
    try FileManager.default.createSymbolicLink(atPath: p + "/link", withDestinationPath: "target")
    // A writer holds "fed" open with bytes waiting in it: a read would return them.
    let writer = open(p + "/fed", O_RDWR | O_NONBLOCK)
    #expect(writer >= 0)
    defer { close(writer) }
    #expect(write(writer, "WEBVTT\n", 7) == 7)
    for name in ["fifo", "fed", "folder", "link", "missing"] {
      let path = p + "/" + name
      let expected: FormatError
      do {
        _ = try ReadOnlyFile(FileLocation(path: path), listedAsRegularFile: true)
        Issue.record("\(name) was opened")
        continue
      } catch {
        expected = error
      }
      #expect(throws: expected, "\(name)") {
        try ReadOnlyFile.start(sizedUpTo: 16, of: FileLocation(path: path), listedAsRegularFile: true)
      }
      #expect(throws: expected, "\(name)") {
        try ReadOnlyFile.start(FileLocation(path: path), count: 4, listedAsRegularFile: true)
      }
      #expect(throws: expected, "\(name)") {
        try ReadOnlyFile.contents(of: FileLocation(path: path), usuallyUpTo: 16, listedAsRegularFile: true)
      }
    }
  }
}
