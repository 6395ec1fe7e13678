import CLazyLibrary

/// A C library opened with dlopen on first use rather than linked (CLazyLibrary): the table of its
/// calls a shim's `STASH_LAZY_LIBRARY` opener resolved. Linked, libavcodec and libavfilter and the
/// libraries they need would cost every start of the browser over 100 ms in the dynamic loader,
/// for what only playing needs.
final class LazyLibrary<Calls>: @unchecked Sendable {  // immutable after init; the table is never freed
  /// The calls, resolved.
  let calls: UnsafePointer<Calls>

  private init(_ calls: UnsafePointer<Calls>) { self.calls = calls }

  /// Opens `soname` through `open` (a shim's `<name>_open`: soname, a buffer for the loader's
  /// reason, its size). A failure is `refused` of "<soname> could not be loaded (<dlerror's text,
  /// which names the file missing or the symbol it lacks>)".
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
      return .failure(refused("\(soname) could not be loaded (\(text))"))
    }
    return .success(LazyLibrary(calls))
  }
}
