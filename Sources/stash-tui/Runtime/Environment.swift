#if canImport(Glibc)
  import Glibc
#endif

/// Reads environment variables through `getenv`. Only this executable reads the environment: the
/// browser's library is given what it needs (the model's `home`).
enum Environment {
  /// The variable's value, or nil when unset.
  static func value(_ name: String) -> String? {
    guard let p = getenv(name) else { return nil }
    return String(cString: p)
  }
}
