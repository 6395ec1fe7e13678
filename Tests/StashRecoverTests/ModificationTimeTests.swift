import Foundation
import StashRecover
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// An import keeps a file's modification time to the nanosecond: a Double holds today's times to
/// about a quarter of a microsecond, and a copy's time rounded from it differed from the source's.
@Suite struct ModificationTimeTests {
  @Test func aTimeIsSetExactlyAsAnotherFileHasIt() throws {
    let scratch = try ScratchFolder("stash-mtime")
    defer { scratch.remove() }
    let fs = SystemFileSystem()
    let source = scratch.path + "/source"
    try Data("x".utf8).write(to: URL(fileURLWithPath: source))
    for nanoseconds in [123_456_789, 999_999_999, 500_000, 1, 0] {
      var times = (
        timespec(tv_sec: 1_796_408_047, tv_nsec: nanoseconds),
        timespec(tv_sec: 1_796_408_047, tv_nsec: nanoseconds)
      )
      let set = withUnsafePointer(to: &times) {
        $0.withMemoryRebound(to: timespec.self, capacity: 2) { utimensat(AT_FDCWD, source, $0, 0) }
      }
      #expect(set == 0)
      let status = try #require(try fs.status(source))
      #expect(status.modificationNanoseconds == 1_796_408_047 * 1_000_000_000 + Int64(nanoseconds))
      let copy = scratch.path + "/copy\(nanoseconds)"
      let fd = try fs.createExclusive(copy)
      try fs.setModificationTime(fd, nanoseconds: status.modificationNanoseconds)
      try fs.close(fd)
      #expect(
        try fs.status(copy)
          == FileStatus(
            kind: .regular, size: 0, modificationTime: status.modificationTime,
            modificationNanoseconds: status.modificationNanoseconds, device: status.device))
    }
  }
}
