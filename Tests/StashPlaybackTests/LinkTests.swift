import StashPlayback
import Testing

@Suite struct LinkTests {
  @Test func linksLibavcodecFive() {
    // FFmpeg 5.1 ships libavcodec 59; the shim's macros are written against that API.
    #expect(StashPlayback.codecLibraryVersion.hasPrefix("59."))
  }
}
