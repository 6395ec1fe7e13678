import Foundation
import Testing

@testable import StashPlayback

@Suite struct TrackDecoderTests {
  /// The whole track decoded equals ffmpeg's decode of the same file, less the 1024 priming frames
  /// ffmpeg keeps for a stream without an edit list.
  @Test func wholeTrackMatchesFFmpeg() throws {
    let folder = try TestAudio.folder()
    let path = folder.appendingPathComponent("sweep.aac").path
    try TestAudio.sweep(path, seconds: 3)
    let track = try ADTSTrack.read(path)
    let decoder = try TrackDecoder(track: track)
    #expect(decoder.rate == 48_000)
    #expect(decoder.channels == 1)
    decoder.start(atHeardFrame: 0)
    var ours: [Float] = []
    var expectedFirst = 0
    while let (first, samples) = try decoder.next() {
      #expect(first == expectedFirst)
      ours += samples
      expectedFirst += samples.count
    }
    let reference = try TestAudio.ffmpegDecode(path)
    #expect(ours.count == track.samples.count * 1024 - 1024)
    #expect(reference.count == track.samples.count * 1024)
    let difference = TestAudio.maxDifference(ours[...], reference[1024...])
    #expect(difference != nil && difference! < 1e-6)
  }

  /// Starting anywhere gives the same frames as decoding from the start: the pre-roll is enough.
  @Test(arguments: [0, 1, 1023, 1024, 1025, 48_000, 70_001, 130_000])
  func startAnywhereIsSampleAccurate(start: Int) throws {
    let folder = try TestAudio.folder()
    let path = folder.appendingPathComponent("sweep.aac").path
    try TestAudio.sweep(path, seconds: 3)
    let reference = try TestAudio.ffmpegDecode(path)
    let decoder = try TrackDecoder(track: try ADTSTrack.read(path))
    decoder.start(atHeardFrame: start, until: start + 5000)
    var ours: [Float] = []
    var first: Int? = nil
    while let (at, samples) = try decoder.next() {
      first = first ?? at
      ours += samples
    }
    #expect(first == start)
    let expected = reference[(1024 + start)..<min(reference.count, 1024 + start + 5000)]
    let difference = TestAudio.maxDifference(ours[...], expected)
    #expect(difference != nil && difference! < 1e-5)
  }
}
