#if canImport(Glibc)
  import Glibc
#endif

/// The one place our libraries and commands retry a call that a signal interrupted (EINTR),
/// in both conventions they meet (-1 and `errno`, as libc; a negative errno, as libasound), and
/// finish a short write.
package enum SystemCall {
  /// Runs `call` (-1 and `errno` on failure) again while it fails with EINTR.
  @inline(__always)
  package static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
      let result = call()
      if result < 0 && errno == EINTR { continue }
      return result
    }
  }

  /// Runs a library call that returns a negative errno on failure (libasound) again while it
  /// returns -EINTR.
  @inline(__always)
  package static func retryingNegative<T: SignedInteger>(_ call: () -> T) -> T {
    while true {
      let result = call()
      if result == T(-EINTR) { continue }
      return result
    }
  }

  /// Closes `descriptor` (`close(2)`, never retried: on Linux the descriptor is gone even when
  /// a signal interrupted the call, and a second close could close another thread's new one).
  /// Returns 0 when it closed or was interrupted, else the `errno` of the failure.
  package static func close(_ descriptor: Int32) -> Int32 {
    if Glibc.close(descriptor) == 0 { return 0 }
    return errno == EINTR ? 0 : errno
  }

  /// Writes all of `bytes` to `descriptor` (`write(2)`, again after EINTR or a short write).
  /// Returns 0 when every byte was written, else the `errno` of the failure (EIO for a write that
  /// wrote nothing).
  @discardableResult
  package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var done = 0
    while done < bytes.count {
      let n = retrying { write(descriptor, bytes.baseAddress! + done, bytes.count - done) }
      if n < 0 { return errno }
      if n == 0 { return EIO }
      done += n
    }
    return 0
  }

  /// `writeAll` of an array's bytes.
  @discardableResult
  package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 {
    bytes.withUnsafeBytes { writeAll(descriptor, $0) }
  }
}
