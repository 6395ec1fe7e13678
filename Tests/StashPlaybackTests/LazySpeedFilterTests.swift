import Foundation
import StashTestSupport
import Testing

@testable import StashPlayback

/// libavfilter (for speeds other than 1×) is opened on first use, not linked (why: CAVFilter/shim.h).
@Suite struct LazySpeedFilterTests {
  @Test func theBrowserDoesNotLinkLibavfilter() throws {
    let libraries = try LazyLibraryTesting.needed("stash-tui")
    // ALSA is still linked: the list is the real one, not an empty read.
    #expect(libraries.contains { $0.hasPrefix("libasound.so.") }, "\(libraries)")
    #expect(!libraries.contains { $0.hasPrefix("libavfilter") }, "\(libraries)")
  }

  @Test func theInstalledLibavfilterOpensAndStretches() throws {
    // The soname is the headers' major version (libavfilter.so.8 for FFmpeg 5.1).
    #expect(SpeedFilterLibrary.soname.hasPrefix("libavfilter.so."))
    _ = try SpeedFilterLibrary.shared.get()
    let stretcher = try #require(TempoStretcher(rate: 48_000, channels: 1, tempo: 2))
    let tone = (0..<48_000).map { Float(sin(Double($0) * 0.05)) * 0.5 }
    let pushed = tone.withUnsafeBufferPointer { stretcher.push($0, frames: tone.count) }
    #expect(pushed)
    stretcher.finish()
    var out: [Float] = []
    while let got = stretcher.pull(into: &out), got > 0 {}
    // Twice the pace: about half as many frames come out.
    #expect(abs(out.count - 24_000) < 2_400, "\(out.count) frames")
  }

  @Test func aLibraryWithoutTheCallsIsRefusedNamingTheSymbol() {
    // libc is there, and has none of libavfilter's calls.
    guard case .failure(let error) = SpeedFilterLibrary.load(soname: "libc.so.6") else {
      Issue.record("libc.so.6 passed for libavfilter")
      return
    }
    #expect(error.message.contains("libc.so.6 lacks avfilter_get_by_name ("), "\(error.message)")
    #expect(error.message.contains("undefined symbol: avfilter_get_by_name"), "\(error.message)")
  }
}
