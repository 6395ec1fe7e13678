#if canImport(Glibc)
  import Glibc
#endif

/// The one place our libraries and commands retry a system call that a signal interrupted
/// (EINTR) and finish a short write. (StashPlayback keeps its own for the calls that return
/// -EINTR, ALSA's convention.)
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
