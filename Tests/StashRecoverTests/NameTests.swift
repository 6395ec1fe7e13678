import StashRecover
import Testing

@Suite struct NameTests {
  @Test func partsNamesAreExactlyStashs() {
    #expect(PartsName("transcription.0001.vtt") == .transcript(1))
    #expect(PartsName("track.0042.gpx") == .route(42))
    #expect(PartsName("track.12345.gpx") == .route(12345))
    #expect(PartsName("track.withdrawn") == .withdrawn)
    for stranger in [
      "transcription.1.vtt", "transcription.0000.vtt", "transcription.00001.vtt", "transcription.0001.VTT",
      "track.0001.gpx.bak", "track..gpx", "track.-001.gpx", "notes.txt", "track.withdrawn ",
      ".track.0001.gpx",
      "transcription.0001.vtt.stash-tmp-abc123", "track.1234567890.gpx",
    ] {
      #expect(PartsName(stranger) == nil, "\(stranger) is not Stash's")
    }
    for part in [PartsName.transcript(7), .route(10_000), .withdrawn] {
      #expect(PartsName(part.fileName) == part)
    }
  }

  @Test func memoFileNames() {
    #expect(MemoFile.parse("2026-03-01_09-00-00_audio.m4a")?.base == "2026-03-01_09-00-00")
    #expect(MemoFile.parse("x_track.gpx")?.kind == .route)
    #expect(MemoFile.parse("_track.gpx") == nil)
    #expect(MemoFile.partsBase("x.parts") == "x")
    #expect(MemoFile.partsBase(".parts") == nil)
  }

  @Test func temporaryNamesAreRecognised() {
    let name = TemporaryName.make(for: "a_title.txt")
    #expect(name.hasPrefix(".a_title.txt.stash-tmp-"))
    #expect(TemporaryName.finalName(of: name) == "a_title.txt")
    #expect(TemporaryName.make(for: "a_title.txt") != name)
    for other in [
      ".a_title.txt.stash-tmp-abc12", "a_title.txt.stash-tmp-abc123", ".a.stash-tmp-ab-123",
      ".stash-tmp-abc123",
    ] {
      #expect(TemporaryName.finalName(of: other) == nil, "\(other)")
    }
  }
}
