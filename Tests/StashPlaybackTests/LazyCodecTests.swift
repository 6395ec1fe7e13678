import Foundation
import StashTestSupport
import Testing

@testable import StashPlayback

/// libavcodec is opened when the first memo is played, not linked: linked, it and the libraries it
/// needs cost every start of the browser some 35 ms in the dynamic loader, and browsing never
/// decodes. Decoding through the opened library is what every other playback suite does.
@Suite struct LazyCodecTests {
  @Test func neitherProgramLinksLibavcodec() throws {
    let browser = try LazyLibraryTesting.needed("stash-tui")
    // ALSA and libavutil are still linked: the list is the real one, not an empty read.
    #expect(browser.contains { $0.hasPrefix("libasound.so.") }, "\(browser)")
    #expect(browser.contains { $0.hasPrefix("libavutil.so.") }, "\(browser)")
    #expect(!browser.contains { $0.hasPrefix("libavcodec") }, "\(browser)")
    // Nor through another library: ldd lists everything the loader maps at start.
    let loaded = try runProcess("ldd", [Fixtures.product("stash-tui").path])
    #expect(loaded.status == 0 && loaded.standardOutput.contains("libasound.so."), "\(loaded.standardOutput)")
    #expect(!loaded.standardOutput.contains("libavcodec"), "\(loaded.standardOutput)")
  }

  /// A machine that only lints installs expat alone: the CLI maps none of the browser's libraries.
  @Test func theCommandLineLinksOnlyWhatListingNeeds() throws {
    let loaded = try runProcess("ldd", [Fixtures.product("stash").path])
    #expect(loaded.status == 0 && loaded.standardOutput.contains("libexpat.so."), "\(loaded.standardOutput)")
    for library in [
      "libncurses", "libtinfo", "libasound", "libavcodec", "libavutil", "libavfilter", "libsystemd",
    ] {
      #expect(!loaded.standardOutput.contains(library), "\(library): \(loaded.standardOutput)")
    }
  }

  @Test func theVersionIsTheHeadersAndTheOpenedLibraryIsThatMajor() throws {
    // Known without opening anything: FFmpeg 5.1's headers are libavcodec 59.
    let version = StashPlayback.codecLibraryVersion
    #expect(version.hasPrefix("59."), "\(version)")
    #expect(CodecLibrary.soname == "libavcodec.so.59")
    let opened = try CodecLibrary.shared.get().calls.pointee.avcodec_version()
    #expect(StashPlayback.versionText(opened).hasPrefix("59."), "\(StashPlayback.versionText(opened))")
  }

  @Test func aLibraryWithoutTheCallsIsRefusedNamingTheSymbol() throws {
    let folder = try Fixtures.scratchFolder("stash-lazy-codec")
    defer { try? FileManager.default.removeItem(at: folder) }
    // The first call is there, the second is not.
    let fake = try LazyLibraryTesting.fakeLibrary(
      "libavcodec.so.59", in: folder, source: "unsigned avcodec_version(void) { return 59u << 16; }\n")
    guard case .failure(let error) = CodecLibrary.load(soname: fake.path) else {
      Issue.record("a libavcodec with one call passed")
      return
    }
    #expect(
      error.message.hasPrefix("no AAC decoder: \(fake.path) lacks avcodec_find_decoder ("), "\(error.message)"
    )
    #expect(error.message.contains("undefined symbol: avcodec_find_decoder"), "\(error.message)")
  }

  /// With a libavcodec.so.59 that has none of the calls first on the loader's path, the browser
  /// still starts and shows the folder as it does with the real one, and playing a memo fails
  /// with the library's name and the loader's reason. Linked, the program would not start at all.
  @Test func withoutAUsableLibavcodecTheBrowserWorksAndPlayingSaysWhy() throws {
    let folder = try Fixtures.scratchFolder("stash-lazy-codec")
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try LazyLibraryTesting.fakeLibrary(
      "libavcodec.so.59", in: folder, source: "int stash_fake_libavcodec = 1;\n")
    let memos = folder.appendingPathComponent("memos")
    try FileManager.default.createDirectory(at: memos, withIntermediateDirectories: true)
    let audio = memos.appendingPathComponent("2026-01-01_10-00-00_audio.m4a")
    try TestTone.mp4(seconds: 2).write(to: audio)
    try "A tone\n".write(
      to: memos.appendingPathComponent("2026-01-01_10-00-00_title.txt"), atomically: true, encoding: .utf8)
    let tui = Fixtures.product("stash-tui").path
    var environment = ProcessInfo.processInfo.environment
    environment["LC_ALL"] = "C.UTF-8"
    environment["TZ"] = "UTC"
    environment["STASH_ALSA_DEVICE"] = "null"
    let screen = try runProcess(tui, ["--render-once", "100x30", memos.path], environment: environment)
    #expect(screen.status == 0, "\(screen.standardError)")
    #expect(screen.standardOutput.contains("A tone"), "\(screen.standardOutput)")
    environment["LD_LIBRARY_PATH"] = folder.path
    let without = try runProcess(tui, ["--render-once", "100x30", memos.path], environment: environment)
    #expect(without.status == 0, "\(without.standardError)")
    #expect(without.standardOutput == screen.standardOutput)
    let play = try runProcess(tui, ["--play", audio.path], environment: environment)
    #expect(play.status == 1)
    #expect(
      play.standardError.contains("no AAC decoder: libavcodec.so.59 lacks avcodec_version ("),
      "\(play.standardError)")
    #expect(
      play.standardError.contains(
        folder.appendingPathComponent("libavcodec.so.59").path + ": undefined symbol: avcodec_version"),
      "\(play.standardError)")
  }
}
