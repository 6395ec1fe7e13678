import StashPlayback
import Testing

@Suite struct LinkTests {
  @Test func builtAgainstLibavcodecFiftyNine() {
    // FFmpeg 5.1 ships libavcodec 59; the shim's macros are written against that API. The version
    // is the headers' (the library itself opens on first play: LazyCodecTests checks it matches).
    #expect(StashPlayback.codecLibraryVersion.hasPrefix("59."))
  }
}
