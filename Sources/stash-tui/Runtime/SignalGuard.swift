import CNcursesw

#if canImport(Glibc)
  import Glibc
#endif

/// The write end of the pipe the quit signals write to; read by the loop.
nonisolated(unsafe) private var quitPipeWrite: Int32 = -1
/// How many quit signals arrived; the second one ends the process at once.
nonisolated(unsafe) private var quitSignals: Int32 = 0

/// Gives the terminal back however the browser ends. Ctrl-C, SIGTERM and SIGHUP ask the loop to
/// quit cleanly (it stops playback and calls `endwin`); a second one, or a crash signal, restores
/// the terminal from the handler itself, and a crash is re-raised so it is still reported.
enum SignalGuard {
  /// Installs the handlers (`sigaction`); returns the descriptor the loop polls for a quit request.
  static func install() -> Int32 {
    var fds: [Int32] = [-1, -1]
    if pipe(&fds) == 0 {
      for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
      for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      quitPipeWrite = fds[1]
    }
    for signal in [SIGINT, SIGTERM, SIGHUP] {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { number in
        quitSignals += 1
        if quitSignals > 1 || quitPipeWrite < 0 {
          _ = endwin()
          StandardErrorHold.giveBack()
          _exit(128 + number)
        }
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(quitPipeWrite, &byte, 1)
      }
      sigemptyset(&action.sa_mask)
      sigaction(signal, &action, nil)
    }
    for signal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { number in
        _ = endwin()
        StandardErrorHold.giveBack()
        // The default action comes back (SA_RESETHAND); raising again reports the crash as it was.
        raise(number)
      }
      sigemptyset(&action.sa_mask)
      action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
      sigaction(signal, &action, nil)
    }
    return fds[0]
  }
}
