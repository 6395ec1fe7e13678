import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// A wake-up another thread can wait for, as a self-pipe so it can sit in one `poll` beside the
/// sound device's own descriptors (Glibc's module does not export eventfd). Signals made while
/// nobody waits are kept until the next wait.
final class Wakeup: @unchecked Sendable {
  // @unchecked: the descriptors are set once; pipes are safe to use from any thread.
  /// The descriptor to poll for POLLIN.
  let descriptor: Int32
  private let writer: Int32

  init() {
    var ends: [Int32] = [-1, -1]
    precondition(pipe(&ends) == 0, "pipe failed: \(String(cString: strerror(errno)))")
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    descriptor = ends[0]
    writer = ends[1]
  }

  deinit {
    close(descriptor)
    close(writer)
  }

  /// Wakes the waiter (now, or at its next wait). A full pipe already holds a wake-up.
  func signal() {
    var one: UInt8 = 1
    _ = write(writer, &one, 1)
  }

  /// Forgets the signals made so far (the waiter is about to look at everything anyway).
  func clear() {
    // On the stack: the output thread clears at every turn.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { sink in
      while read(descriptor, sink.baseAddress, sink.count) == sink.count {}
    }
  }

  /// Waits for a signal or `timeout` ms (-1: no limit), then clears it.
  func wait(timeout: Int32 = -1) {
    var wake = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    _ = SystemCall.retrying { poll(&wake, 1, timeout) }
    clear()
  }
}
