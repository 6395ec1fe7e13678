import CLazyLibrary

/// A C library opened with dlopen on first use rather than linked (CLazyLibrary): the table of its
/// calls a shim's `STASH_LAZY_LIBRARY` opener resolved. Linked, libavcodec and libavfilter and the
/// libraries they need would be mapped by the dynamic loader at every start of the browser, for
/// what only playing needs.
final class LazyLibrary<Calls>: @unchecked Sendable {  // immutable after init; the table is never freed
  /// The calls, resolved.
  let calls: UnsafePointer<Calls>

  private init(_ calls: UnsafePointer<Calls>) { self.calls = calls }

  /// Opens `soname` through `open` (a shim's `<name>_open`: soname, a buffer for what failed, its
  /// size). A failure is `refused` of the opener's words: "<soname> could not be loaded (<dlerror>)"
  /// or "<soname> lacks <call> (<dlerror>)" (stash_lazy_open words both).
  static func load(
    soname: String,
    _ open: (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>, Int) -> UnsafePointer<Calls>?,
    refused: (String) -> PlaybackError
  ) -> Result<LazyLibrary, PlaybackError> {
    var reason = [CChar](repeating: 0, count: 1024)
    let count = reason.count
    let calls = soname.withCString { name in
      reason.withUnsafeMutableBufferPointer { open(name, $0.baseAddress!, count) }
    }
    guard let calls else {
      let text = reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      return .failure(refused(text))
    }
    return .success(LazyLibrary(calls))
  }
}
