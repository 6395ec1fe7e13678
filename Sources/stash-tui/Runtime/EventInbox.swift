import StashBrowser
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Where work off the interface thread (a transcript search, the recovery sweep, the player's
/// state changes) leaves its events, with a self-pipe the loop includes in its poll set so the
/// interface wakes as soon as something arrives instead of polling on a timer.
final class EventInbox: Sendable {
  private let events = Mutex<[BrowserEvent]>([])
  /// The pipe's read end (polled by the loop) and write end (written by `wake`).
  let descriptor: Int32
  private let writeEnd: Int32

  /// An empty inbox with its pipe; both ends are non-blocking so a full pipe never stalls a
  /// worker (one unread byte is enough to wake the loop).
  init() {
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for fd in ends {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      }
    } else {
      ends = [-1, -1]
    }
    descriptor = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
    if writeEnd >= 0 { close(writeEnd) }
  }

  /// Leaves `event` for the loop and wakes it. Safe from any thread.
  func post(_ event: BrowserEvent) {
    events.withLock { $0.append(event) }
    wake()
  }

  /// Wakes the loop without an event (the player changed: the loop reads its snapshot).
  func wake() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// Empties the pipe and returns the events left since the last call, oldest first.
  func take() -> [BrowserEvent] {
    var buffer = [UInt8](repeating: 0, count: 256)
    while read(descriptor, &buffer, buffer.count) > 0 {}
    return events.withLock { pending in
      defer { pending.removeAll() }
      return pending
    }
  }
}
