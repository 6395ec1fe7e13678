import CALSA

#if canImport(Glibc)
  import Glibc
#endif

/// How ALSA return codes are worded: in libasound's own words (`snd_strerror`).
enum ALSACall {
  /// `snd_strerror(code)`.
  static func message(_ code: Int32) -> String {
    guard let text = snd_strerror(code) else { return "ALSA error \(code)" }
    return String(cString: text)
  }

  /// Silences ALSA's own printing of errors (`snd_lib_error_set_handler` through the shim).
  static let silenced: Void = { _ = stash_alsa_silence_errors() }()
}
