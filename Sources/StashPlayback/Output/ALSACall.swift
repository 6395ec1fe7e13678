import CALSA

#if canImport(Glibc)
  import Glibc
#endif

/// The one place ALSA return codes are retried and worded: EINTR is retried here, and errors take
/// libasound's own words (`snd_strerror`).
enum ALSACall {
  /// Runs `call` again while it fails with EINTR.
  static func retrying<T: SignedInteger>(_ call: () -> T) -> T {
    while true {
      let result = call()
      if result == T(-EINTR) { continue }
      return result
    }
  }

  /// `snd_strerror(code)`.
  static func message(_ code: Int32) -> String {
    guard let text = snd_strerror(code) else { return "ALSA error \(code)" }
    return String(cString: text)
  }

  /// Silences ALSA's own printing of errors (`snd_lib_error_set_handler` through the shim).
  static let silenced: Void = { _ = stash_alsa_silence_errors() }()
}
