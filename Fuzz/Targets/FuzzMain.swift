#if canImport(Glibc)
  import Glibc
#endif

// One libFuzzer binary holds every target, so the StashFormat and StashSearch sources are compiled
// (with the fuzzer and address sanitizers) once rather than once per target on a small, shared
// machine.
// STASH_FUZZ_TARGET picks the target; run-fuzz.sh sets it.

/// The target this process runs, chosen once at start-up.
nonisolated(unsafe) var fuzzTarget: (UnsafeBufferPointer<UInt8>) -> Void = { _ in }

/// Names of the targets and the function each runs on one input.
let fuzzTargets: [String: (UnsafeBufferPointer<UInt8>) -> Void] = [
  "mp4": MP4FuzzTarget.run,
  "webvtt": WebVTTFuzzTarget.run,
  "gpx": GPXFuzzTarget.run,
  "title": TitleFuzzTarget.run,
  "foldername": FolderNameFuzzTarget.run,
  "search": SearchFuzzTarget.run,
  "tsrp": TsrpFuzzTarget.run,
]

/// Reads STASH_FUZZ_TARGET and refuses to start without a known one.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  guard let raw = getenv("STASH_FUZZ_TARGET"), let target = fuzzTargets[String(cString: raw)] else {
    fputs("set STASH_FUZZ_TARGET to one of: \(fuzzTargets.keys.sorted().joined(separator: ", "))\n", stderr)
    exit(2)
  }
  fuzzTarget = target
  return 0
}

/// With `STASH_FUZZ_EVERY_PREFIX=1`, each input is read as every one of its prefixes, from 0 bytes
/// to the whole, in this process: `Fuzz/every-prefix.sh` checks files other software wrote that
/// way, which would take hours a process per prefix.
let everyPrefix = getenv("STASH_FUZZ_EVERY_PREFIX").map { String(cString: $0) == "1" } ?? false

/// `STASH_FUZZ_PREFIX_MARK` names a file that holds the length of the prefix being read, so the
/// one that crashed is known however the process ended.
let prefixMark: Int32 =
  getenv("STASH_FUZZ_PREFIX_MARK").map { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o600) } ?? -1

/// libFuzzer's entry point: one input, handed to the chosen target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  for length in everyPrefix ? Array(0...size) : [size] {
    if prefixMark >= 0 {
      let text = Array("\(length)\n".utf8)
      _ = ftruncate(prefixMark, 0)
      _ = pwrite(prefixMark, text, text.count, 0)
    }
    fuzzTarget(UnsafeBufferPointer(start: length == 0 ? nil : data, count: length))
  }
  return 0
}

/// Stops the run with `message` when an invariant fails, so libFuzzer saves the input as a crash.
func fuzzRequire(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() {
    fputs("INVARIANT FAILED: \(message())\n", stderr)
    abort()
  }
}

/// A file in memory-backed /dev/shm (or /tmp) holding one input, for readers that take a path.
enum FuzzScratch {
  /// The path the current input is written to; one per process.
  static let path: String = {
    let dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    return "\(dir)/stash-fuzz-\(getpid()).bin"
  }()

  /// Writes `bytes` to `path`, replacing what was there.
  static func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    fuzzRequire(fd >= 0, "cannot create \(path)")
    var done = 0
    while done < bytes.count {
      let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
      fuzzRequire(n > 0, "cannot write \(path)")
      done += n
    }
    close(fd)
  }
}
