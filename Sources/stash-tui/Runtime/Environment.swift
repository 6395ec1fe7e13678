#if canImport(Glibc)
  import Glibc
#endif

/// Reads environment variables through `getenv`.
enum Environment {
  /// The variable's value, or nil when unset.
  static func value(_ name: String) -> String? {
    guard let p = getenv(name) else { return nil }
    return String(cString: p)
  }
}
