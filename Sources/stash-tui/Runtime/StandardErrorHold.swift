#if canImport(Glibc)
  import Glibc
#endif

/// Standard error as it was before the screen started, while it is held (or -1).
nonisolated(unsafe) private var savedError: Int32 = -1
/// The read end of the pipe standard error goes to while it is held.
nonisolated(unsafe) private var heldRead: Int32 = -1
/// Room to copy the pipe out in, made before any signal handler may need it.
nonisolated(unsafe) private var drainSpace: UnsafeMutableRawPointer?

/// Keeps what libraries write to standard error off the screen while curses runs: libpulse, for
/// one, writes there on its own when a PulseAudio device is opened and it finds no home folder,
/// and what it writes stays on the screen over the browser until a full redraw. Standard error
/// goes to a pipe of its own meanwhile (a full pipe drops what is written rather than stop the
/// writer), and what it holds is written out once the screen is given back.
enum StandardErrorHold {
  /// F_SETPIPE_SZ (Linux): the pipe's size.
  private static let setPipeSize: Int32 = 1031

  /// Sends standard error to the pipe; nothing when it cannot.
  static func start() {
    guard savedError < 0 else { return }
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return }
    let saved = fcntl(2, F_DUPFD_CLOEXEC, 3)
    guard saved >= 0 else {
      for fd in fds { close(fd) }
      return
    }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(fds[1], setPipeSize, 1 << 20)
    for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    guard dup2(fds[1], 2) >= 0 else {
      for fd in fds + [saved] { close(fd) }
      return
    }
    close(fds[1])
    drainSpace = drainSpace ?? UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
    heldRead = fds[0]
    savedError = saved
  }

  /// Gives standard error back, then writes there what the pipe holds. Only `dup2`, `read`,
  /// `write` and `close`: safe in a signal handler.
  static func giveBack() {
    let saved = savedError
    guard saved >= 0 else { return }
    savedError = -1
    _ = dup2(saved, 2)
    if let space = drainSpace {
      while true {
        let got = read(heldRead, space, 4096)
        guard got > 0 else { break }
        var done = 0
        while done < got {
          let wrote = write(2, space + done, got - done)
          guard wrote > 0 else { break }
          done += wrote
        }
        guard done == got else { break }
      }
    }
    close(heldRead)
    close(saved)
    heldRead = -1
  }
}
