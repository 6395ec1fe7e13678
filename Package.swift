// swift-tools-version:6.0
import PackageDescription

/// `make check` (so `make test` and CI) builds with STASH_STRICT=1: every target of the product then
/// treats a warning as an error. Test targets are left out: Swift Testing's macros themselves warn
/// under this toolchain (`@section` on parameterised tests), which no test can avoid.
let strict: [SwiftSetting] =
  Context.environment["STASH_STRICT"] == "1" ? [.unsafeFlags(["-warnings-as-errors"])] : []

/// The C libraries come in through system-library targets; each has a small shim header for what
/// Swift cannot import directly (macros, variadic functions, globals under Swift 6 concurrency).
let package = Package(
  name: "stash",
  products: [
    .executable(name: "stash", targets: ["stash"]),
    .executable(name: "stash-tui", targets: ["stash-tui"]),
    .library(name: "StashFormat", targets: ["StashFormat"]),
    .library(name: "StashRecover", targets: ["StashRecover"]),
    .library(name: "StashPlayback", targets: ["StashPlayback"]),
  ],
  targets: [
    .systemLibrary(
      name: "CExpat", path: "Sources/CExpat", pkgConfig: "expat",
      providers: [.apt(["libexpat1-dev"])]),
    // No pkgConfig: ncursesw.pc gives only -D flags, which SwiftPM refuses (a "prohibited flag"
    // warning on every build) and the shim defines itself, and -lncursesw, which the module map
    // links (Debian's libncursesw.so brings in libtinfo). libncurses-dev provides it.
    .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
    // wcwidth alone, so the browser's library needs no curses.
    .systemLibrary(name: "CWcwidth", path: "Sources/CWcwidth"),
    .systemLibrary(
      name: "CALSA", path: "Sources/CALSA", pkgConfig: "alsa",
      providers: [.apt(["libasound2-dev"])]),
    // dlopen and dlsym behind a typed table of calls, for the libraries the browser opens on first
    // use rather than links (CAVCodec, CAVFilter): their shims include its header.
    .systemLibrary(name: "CLazyLibrary", path: "Sources/CLazyLibrary"),
    // The AAC decoder. libavcodec's headers only: the shim opens the library with dlopen when the
    // first memo is played, so its pkg-config (whose --libs would link it, and some 70 libraries
    // with it, into every start of the browser) is not used; libavutil's gives the same include
    // path, and libavutil itself stays linked.
    .systemLibrary(
      name: "CAVCodec", path: "Sources/CAVCodec", pkgConfig: "libavutil",
      providers: [.apt(["libavcodec-dev"])]),
    // sd-bus, for the browser's MPRIS server (media keys): the browser alone links it.
    .systemLibrary(
      name: "CDBus", path: "Sources/CDBus", pkgConfig: "libsystemd",
      providers: [.apt(["libsystemd-dev"])]),
    // atempo, for playing at another speed with the pitch kept. libavfilter's headers only: the
    // shim opens the library with dlopen on first use, so its pkg-config (whose --libs would link
    // it, and ~170 libraries with it, into every start of the browser) is not used; libavutil's
    // gives the same include path.
    .systemLibrary(
      name: "CICU", path: "Sources/CICU", pkgConfig: "icu-uc", providers: [.apt(["libicu-dev"])]),
    .systemLibrary(
      name: "CAVFilter", path: "Sources/CAVFilter", pkgConfig: "libavutil",
      providers: [.apt(["libavfilter-dev"])]),
    // SQLite, for reading the database Apple's Voice Memos keeps beside its recordings (titles,
    // dates, folders) when `stash import` brings them in: StashRecover's one adapter uses it.
    .systemLibrary(
      name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

    .target(name: "StashFormat", dependencies: ["CExpat"], swiftSettings: strict),
    .target(name: "StashRecover", dependencies: ["StashFormat", "CSQLite"], swiftSettings: strict),
    .target(
      name: "StashPlayback", dependencies: ["StashFormat", "CALSA", "CLazyLibrary", "CAVCodec", "CAVFilter"],
      swiftSettings: strict),
    .target(name: "StashLint", dependencies: ["StashFormat", "StashRecover"], swiftSettings: strict),
    .target(name: "StashSearch", dependencies: ["StashFormat", "CICU"], swiftSettings: strict),
    .executableTarget(
      name: "stash", dependencies: ["StashFormat", "StashRecover", "StashLint", "StashSearch"],
      swiftSettings: strict),
    // The browser's pure logic: model, views and the cell grid, tested in-process.
    .target(
      name: "StashBrowser", dependencies: ["StashFormat", "StashSearch", "CWcwidth"], swiftSettings: strict),
    .executableTarget(
      name: "stash-tui",
      dependencies: [
        "StashBrowser", "StashFormat", "StashRecover", "StashLint", "StashPlayback", "StashSearch",
        "CNcursesw", "CDBus",
      ],
      swiftSettings: strict),
    .executableTarget(
      // StashTestSupport: the bench builds its Voice Memos recordings as the tests do.
      name: "stash-bench", dependencies: ["StashFormat", "StashRecover", "StashTestSupport"],
      path: "Benchmarks/Harness", swiftSettings: strict),

    .target(
      name: "StashTestSupport", dependencies: ["StashFormat"], path: "Tests/StashTestSupport",
      swiftSettings: strict),
    .testTarget(name: "StashFormatTests", dependencies: ["StashFormat", "StashTestSupport"]),
    .testTarget(name: "StashRecoverTests", dependencies: ["StashRecover", "StashTestSupport"]),
    .testTarget(name: "StashPlaybackTests", dependencies: ["StashPlayback", "StashTestSupport"]),
    .testTarget(name: "StashLintTests", dependencies: ["StashLint", "StashFormat", "StashTestSupport"]),
    .testTarget(name: "StashSearchTests", dependencies: ["StashSearch", "StashFormat", "StashTestSupport"]),
    .testTarget(
      name: "StashCLITests", dependencies: ["StashFormat", "StashTestSupport"],
      // Golden outputs are read through #filePath, not bundled.
      exclude: ["Golden"]),
    .testTarget(name: "StashBrowserTests", dependencies: ["StashBrowser", "StashFormat"]),
    .testTarget(name: "StashTUITests", dependencies: ["StashBrowser", "StashFormat", "StashTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
