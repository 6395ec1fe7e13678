#if canImport(Glibc)
  import Glibc
#endif

/// The one place an interrupted call (EINTR) is retried, for both conventions the module meets.
enum SystemCall {
  /// Runs a system call (-1 and `errno` on failure, as `poll`) again while it fails with EINTR;
  /// returns its result, or the negative errno.
  static func retrying(_ call: () -> Int32) -> Int32 {
    while true {
      let result = call()
      if result >= 0 { return result }
      if errno == EINTR { continue }
      return -errno
    }
  }

  /// Runs a library call that returns a negative errno on failure (libasound) again while it
  /// returns -EINTR.
  static func retryingNegative<T: SignedInteger>(_ call: () -> T) -> T {
    while true {
      let result = call()
      if result == T(-EINTR) { continue }
      return result
    }
  }
}
