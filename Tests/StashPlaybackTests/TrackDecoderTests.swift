import Foundation
import StashTestSupport
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

  /// An index entry of size 0 (found by the fuzzer) once reached FFmpeg as an empty packet, which
  /// 5.1 refuses with EINVAL, and playback failed there. The reproducer's run of empty samples now
  /// plays as silence in its place on the timeline. (The damage also misplaced the bytes around
  /// the run, so the range, pre-roll included, stays inside it; the clean case is below.)
  @Test func theFuzzersEmptySamplesPlayAsSilence() throws {
    let path = Fixtures.folder("regressions").appendingPathComponent("mp4/zero-size-sample.m4a").path
    let track = try AudioTrack.read(path: path)
    let empty = try #require(track.samples.firstIndex { $0.size == 0 })
    let after = track.samples[empty...].firstIndex { $0.size > 0 } ?? track.samples.count
    #expect(after - empty > 8)
    let decoder = try TrackDecoder(track: track)
    let timeline = decoder.timeline
    // Starting four samples in, the pre-roll begins at the first empty sample.
    let from = timeline.absoluteStart(ofSample: empty + 4) - timeline.primingFrames
    let to = timeline.absoluteStart(ofSample: after) - timeline.primingFrames
    decoder.start(atHeardFrame: from, until: to)
    var ours: [Float] = []
    var expectedFirst = from
    while let (first, samples) = try decoder.next() {
      #expect(first == expectedFirst)
      ours += samples
      expectedFirst += samples.count / decoder.channels
    }
    #expect(ours.count == (to - from) * decoder.channels)
    #expect(ours.allSatisfy { $0 == 0 })
  }

  /// An empty sample in a clean track: its span is silent, the track keeps its length, and the
  /// audio after it is ffmpeg's decode at the same times (from the second sample after it on; the
  /// first still overlaps the skipped one).
  @Test func anEmptySampleIsSkippedInItsTime() throws {
    let folder = try TestAudio.folder()
    let path = folder.appendingPathComponent("sweep-empty.aac").path
    try TestAudio.sweep(path, seconds: 2)
    var track = try ADTSTrack.read(path)
    let empty = 40
    track.samples[empty].size = 0
    let decoder = try TrackDecoder(track: track)
    decoder.start(atHeardFrame: 0)
    var ours: [Float] = []
    while let (_, samples) = try decoder.next() { ours += samples }
    let reference = try TestAudio.ffmpegDecode(path)
    #expect(ours.count == track.samples.count * 1024 - 1024)
    // Heard frame h is absolute frame h + 1024; sample k decodes to absolute [1024 k, 1024 (k + 1)).
    let silent = ours[(empty - 1) * 1024..<empty * 1024]
    #expect(silent.allSatisfy { $0 == 0 })
    #expect(reference[empty * 1024..<(empty + 1) * 1024].contains { abs($0) > 0.01 })
    let later = (empty + 1) * 1024
    let difference = TestAudio.maxDifference(ours[later...], reference[(later + 1024)...])
    #expect(difference != nil && difference! < 1e-5)
  }
}

@Suite struct TrackTimelineTests {
  /// A damaged index can hold decode times near the largest 64-bit value (the reader holds a sum
  /// of durations there rather than wrap): the timeline's arithmetic saturates instead of trapping.
  @Test func decodeTimesNearTheLargestValueDoNotTrap() {
    let samples = [
      AudioTrack.Sample(offset: 0, size: 10, decodeTime: 0, duration: 1024),
      AudioTrack.Sample(offset: 10, size: 10, decodeTime: Int64.max - 10, duration: 1024),
    ]
    let track = AudioTrack(
      path: "/dev/null", audioSpecificConfig: [0x11, 0x88], sampleRate: 48_000, channels: 1,
      timescale: 48_000, samples: samples, primingSamples: 1024, endTrimSamples: 0, lengthKnown: true)
    let timeline = TrackTimeline(track: track, outputRate: 48_000)
    #expect(timeline.endFrame == Int(TrackTimeline.frameLimit))
    #expect(timeline.primingFrames == 1024)
    #expect(timeline.absoluteStart(ofSample: 1) == Int(TrackTimeline.frameLimit))
    #expect(timeline.absoluteStart(ofSample: 2) == Int(TrackTimeline.frameLimit))
    #expect(timeline.sample(containing: Int.max) == 1)
    #expect(timeline.sample(containing: 500) == 0)
    #expect(timeline.heardFrame(atSeconds: 1e300) == timeline.heardFrames)
    #expect(timeline.frames(lasting: Int64.max) == TrackTimeline.longestAccessUnit)
  }

  /// Ordinary times convert exactly: a frame count is `units × rate / timescale`, rounded down.
  @Test func ordinaryTimesConvertExactly() {
    let samples = (0..<4).map {
      AudioTrack.Sample(offset: $0 * 10, size: 10, decodeTime: Int64($0) * 1024, duration: 1024)
    }
    let track = AudioTrack(
      path: "/dev/null", audioSpecificConfig: [0x11, 0x88], sampleRate: 44_100, channels: 1,
      timescale: 44_100, samples: samples, primingSamples: 1024, endTrimSamples: 100, lengthKnown: true)
    let timeline = TrackTimeline(track: track, outputRate: 48_000)
    #expect(timeline.primingFrames == 1024 * 48_000 / 44_100)
    #expect(timeline.endFrame == (4 * 1024 - 100) * 48_000 / 44_100)
    #expect(timeline.absoluteStart(ofSample: 3) == 3 * 1024 * 48_000 / 44_100)
    // Sample 2 starts at frame 2229.1: frame 2229 is still sample 1's, 2230 is sample 2's.
    #expect(timeline.sample(containing: 2229) == 1)
    #expect(timeline.sample(containing: 2230) == 2)
  }
}
