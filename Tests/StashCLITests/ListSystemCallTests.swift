import Foundation
import StashTestSupport
import Testing

/// The system calls `stash ls --json` makes per memo (issue #20), counted by a small library
/// preloaded into the real command (built here with the toolchain's clang) that counts the calls
/// into libc before passing them on.
@Suite struct ListSystemCallTests {
  let stash = Fixtures.product("stash").path

  /// Counts `fstat`/`fstatat` (every form), `read`/`pread`, `open`/`openat` and `close`, and
  /// writes the counts to `$STASH_CALL_COUNTS` at exit.
  static let counter = """
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <fcntl.h>
    #include <stdarg.h>
    #include <stdatomic.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <sys/stat.h>
    #include <unistd.h>
    static atomic_long stats, reads, opens, closes;
    #define REAL(name) static __typeof__(name) *real; if (!real) real = dlsym(RTLD_NEXT, #name)
    int fstat(int fd, struct stat *info) { REAL(fstat); stats++; return real(fd, info); }
    int fstat64(int fd, struct stat64 *info) { REAL(fstat64); stats++; return real(fd, info); }
    int fstatat(int at, const char *path, struct stat *info, int flags) {
      REAL(fstatat); stats++; return real(at, path, info, flags);
    }
    int fstatat64(int at, const char *path, struct stat64 *info, int flags) {
      REAL(fstatat64); stats++; return real(at, path, info, flags);
    }
    int stat(const char *path, struct stat *info) { REAL(stat); stats++; return real(path, info); }
    int lstat(const char *path, struct stat *info) { REAL(lstat); stats++; return real(path, info); }
    int statx(int at, const char *path, int flags, unsigned mask, struct statx *info) {
      REAL(statx); stats++; return real(at, path, flags, mask, info);
    }
    ssize_t read(int fd, void *into, size_t count) { REAL(read); reads++; return real(fd, into, count); }
    ssize_t pread(int fd, void *into, size_t count, off_t at) {
      REAL(pread); reads++; return real(fd, into, count, at);
    }
    ssize_t pread64(int fd, void *into, size_t count, off64_t at) {
      REAL(pread64); reads++; return real(fd, into, count, at);
    }
    int openat(int at, const char *path, int flags, ...) {
      REAL(openat); va_list rest; va_start(rest, flags); int mode = va_arg(rest, int); va_end(rest);
      opens++; return real(at, path, flags, mode);
    }
    int open(const char *path, int flags, ...) {
      REAL(open); va_list rest; va_start(rest, flags); int mode = va_arg(rest, int); va_end(rest);
      opens++; return real(path, flags, mode);
    }
    int close(int fd) { REAL(close); closes++; return real(fd); }
    __attribute__((destructor)) static void report(void) {
      long s = stats, r = reads, o = opens, c = closes;
      const char *out = getenv("STASH_CALL_COUNTS");
      FILE *file = out ? fopen(out, "w") : NULL;
      if (file) { fprintf(file, "%ld %ld %ld %ld\\n", s, r, o, c); fclose(file); }
    }
    """

  /// 200 memos, each with audio, a title, a transcript longer than the sniffed head and a route
  /// longer than the sniffed tail: four regular files.
  static let memoCount = 200

  func makeFolder(in scratch: URL) throws -> URL {
    let folder = scratch.appendingPathComponent("memos")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    func write(_ name: String, _ data: Data) throws {
      try data.write(to: folder.appendingPathComponent(name))
    }
    let transcript = Data(
      ("WEBVTT\n\n" + String(repeating: "00:00.000 --> 00:01.000\nhello\n\n", count: 20)).utf8)
    let route = Data(
      ("<gpx version=\"1.1\"><trk><trkseg>"
        + String(
          repeating: "<trkpt lat=\"1.0\" lon=\"2.0\"><time>2025-01-01T00:00:00Z</time></trkpt>", count: 20)
        + "</trkseg></trk></gpx>\n").utf8)
    for n in 0..<Self.memoCount {
      let base = String(format: "2025-03-%02dT%02d-%02d-00Z", 1 + n % 28, n % 24, n % 60)
      try write(base + "_audio.m4a", ListCommandTests.audio)
      try write(base + "_title.txt", Data("Walk number \(n)\n".utf8))
      try write(base + "_transcription.vtt", transcript)
      try write(base + "_track.gpx", route)
    }
    return folder
  }

  /// The counted calls of `stash ARGUMENTS`, and its output.
  func counted(_ arguments: [String], scratch: URL, exits: Set<Int32> = [0], cache: URL? = nil) throws -> (
    calls: [Int], output: String
  ) {
    let source = scratch.appendingPathComponent("count.c")
    try Self.counter.write(to: source, atomically: true, encoding: .utf8)
    let library = scratch.appendingPathComponent("count.so")
    let built = try runProcess("clang", ["-shared", "-fPIC", "-O1", "-o", library.path, source.path, "-ldl"])
    #expect(built.status == 0, "\(built.standardError)")
    let counts = scratch.appendingPathComponent("counts")
    var environment = ProcessInfo.processInfo.environment
    environment["LD_PRELOAD"] = library.path
    environment["STASH_CALL_COUNTS"] = counts.path
    if let cache { environment["XDG_CACHE_HOME"] = cache.path }
    let result = try runProcess(stash, arguments, environment: environment)
    #expect(exits.contains(result.status), "\(result.standardError)")
    let text = try String(contentsOf: counts, encoding: .utf8)
    return (text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }, result.standardOutput)
  }

  /// Per memo the listing reads what lint reads, for the memo's one account of its problems
  /// (`MemoAccount`): the audio opened, stat'ed and read; the title read with one `pread` and no
  /// stat (the listing said it is a regular file); the transcript and the route each stat'ed for
  /// their size and read whole. Four opens and four closes, three stats.
  @Test func aListingStatsOnlyTheFilesWhoseSizeItNeeds() throws {
    let scratch = try Fixtures.scratchFolder("stash-ls-calls")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let folder = try makeFolder(in: scratch)
    let (calls, output) = try counted(["ls", "--json", "--no-cache", folder.path], scratch: scratch)
    #expect(calls.count == 4, "\(calls)")
    guard calls.count == 4 else { return }
    let (stats, reads, opens, closes) = (calls[0], calls[1], calls[2], calls[3])
    let n = Self.memoCount
    // One memo a line, between the lines of the brackets.
    #expect(output.split(separator: "\n").count == n + 2)
    // The counter sees the calls at all: at least one open, one close and the audio's stat per memo.
    #expect(opens >= 4 * n && closes >= 4 * n && stats >= n, "\(calls)")
    // A few calls beyond the memos' are the command's own (its folder, standard streams).
    let slack = 40
    #expect(stats <= 3 * n + slack, "stats \(stats) for \(n) memos")
    #expect(reads <= 5 * n + slack, "reads \(reads) for \(n) memos")
    #expect(opens <= 4 * n + slack && closes <= 4 * n + slack, "\(calls)")
  }

  /// Warm (the findings cache filled by an earlier run), the marks need no transcript or route:
  /// per memo the audio and the title are opened, and the audio, transcript and route stat'ed
  /// for the entry's key (and the audio once more for its size).
  @Test func aWarmListingOpensOnlyTheAudioAndTheTitle() throws {
    let scratch = try Fixtures.scratchFolder("stash-ls-warm-calls")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let folder = try makeFolder(in: scratch)
    // What changed in the second before a run is not kept (FindingsCache.key).
    usleep(2_100_000)
    let cache = scratch.appendingPathComponent("cache")
    let (_, cold) = try counted(["ls", folder.path], scratch: scratch, cache: cache)
    let (calls, warm) = try counted(["ls", folder.path], scratch: scratch, cache: cache)
    #expect(warm == cold)
    #expect(calls.count == 4, "\(calls)")
    guard calls.count == 4 else { return }
    let (stats, opens, closes) = (calls[0], calls[2], calls[3])
    let n = Self.memoCount
    #expect(opens >= 2 * n && opens <= 2 * n + 40 && closes <= 2 * n + 40, "opens and closes \(calls)")
    #expect(stats <= 4 * n + 40, "stats \(stats) for \(n) memos")
  }

  /// Lint opens each file of a memo once: `Memo.read` does not sniff the transcript and route
  /// first for it (the sniffs' codes are the listing's, which lint drops), and the audio is read
  /// once for its summary and its full index. Here half the memos have a finished file (read in
  /// full) and half a fragmented one cut short (summarised, then walked in full from the same
  /// open file): four opens and four closes a memo.
  @Test func lintOpensEachFileOnce() throws {
    let scratch = try Fixtures.scratchFolder("stash-lint-calls")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let folder = try makeFolder(in: scratch)
    let fragmented = try TestTone.mp4(seconds: 6, frequency: 330, fragmented: true)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix("_audio.m4a")
    }
    #expect(names.count == Self.memoCount)
    for name in names.sorted().enumerated().filter({ $0.offset % 2 == 1 }).map(\.element) {
      try fragmented.prefix(fragmented.count - 100).write(to: folder.appendingPathComponent(name))
    }
    // Findings exit 1 (the routes' times are outside their recordings); only 2 is a failure.
    let (calls, output) = try counted(
      ["lint", "--format", "json", "--no-cache", folder.path], scratch: scratch, exits: [0, 1])
    #expect(calls.count == 4, "\(calls)")
    guard calls.count == 4 else { return }
    let (opens, closes) = (calls[2], calls[3])
    let n = Self.memoCount
    #expect(output.contains("\"findings\""))
    // The fragmented files were found cut short, so their index was read.
    #expect(output.components(separatedBy: "mp4-torn-tail").count - 1 == n / 2, "\(output.prefix(2000))")
    #expect(opens >= 4 * n && closes >= 4 * n, "\(calls)")
    #expect(opens <= 4 * n + 40 && closes <= 4 * n + 40, "opens and closes \(calls) for \(n) memos")
  }
}
