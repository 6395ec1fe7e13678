import StashFormat
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The one wrapper of system calls: an interrupted call is made again, nothing else is.
@Suite struct SystemCallTests {
  @Test func retriesAnInterruptedCallUntilItAnswers() {
    var calls = 0
    let result = SystemCall.retrying { () -> Int32 in
      calls += 1
      if calls < 3 {
        errno = EINTR
        return -1
      }
      return 7
    }
    #expect(result == 7)
    #expect(calls == 3)
  }

  @Test func returnsAnyOtherFailureAtOnce() {
    var calls = 0
    let result = SystemCall.retrying { () -> Int in
      calls += 1
      errno = EIO
      return -1
    }
    #expect(result == -1)
    #expect(errno == EIO)
    #expect(calls == 1)
  }

  @Test func retriesANegativeEINTRFromALibrary() {
    var calls = 0
    let result = SystemCall.retryingNegative { () -> Int in
      calls += 1
      return calls < 2 ? -Int(EINTR) : -Int(EPIPE)
    }
    #expect(result == -Int(EPIPE))
    #expect(calls == 2)
  }

  @Test func writesEveryByteThroughAPipe() {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { _ = SystemCall.close(ends[0]) }
    let bytes = (0..<40_000).map { UInt8(truncatingIfNeeded: $0) }
    // More than a pipe holds at once (64 KiB) would block here; this much fits whole.
    #expect(SystemCall.writeAll(ends[1], bytes) == 0)
    #expect(SystemCall.close(ends[1]) == 0)
    var read: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = SystemCall.retrying { Glibc.read(ends[0], &buffer, buffer.count) }
      if n <= 0 { break }
      read += buffer[..<n]
    }
    #expect(read == bytes)
  }

  @Test func reportsTheErrnoOfAFailedWriteOrClose() {
    // -1, not a closed descriptor: another test may be given that number meanwhile.
    #expect(SystemCall.writeAll(-1, [1, 2, 3]) == EBADF)
    #expect(SystemCall.close(-1) == EBADF)
  }
}
