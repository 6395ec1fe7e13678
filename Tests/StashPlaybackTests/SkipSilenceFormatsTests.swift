import Foundation
import StashFormat
import StashTestSupport
import Testing

@testable import StashPlayback

/// Skip silence on the memo files the format allows beyond plain AAC-LC: HE-AAC, whose decoder
/// runs at twice the rate the container states, and a fragmented recording torn inside its last
/// fragment by a kill. The memo of tone bursts after known pauses, played to the end at medium
/// onto ALSA's `file` PCM: every burst whole, each long pause shortened to the level's length,
/// the end reported in memo time.
@Suite struct SkipSilenceFormatsTests {
  typealias Audio = SkipSilenceAudio

  /// Plays `path` to its end at medium onto a WAV; the first channel of what the device got (a
  /// mono HE-AAC stream decodes to two channels, since parametric stereo may come), and the last
  /// snapshot.
  func playSkipping(_ path: String, name: String) throws -> (written: [Float], end: PlaybackSnapshot) {
    let wav = try TestAudio.folder().appendingPathComponent("\(name).wav").path
    let player = Player(device: "file:FILE=\(wav),FORMAT=wav")
    player.setSkipSilence(.medium)
    try player.load(path: path)
    player.play()
    let end = waitFor(player, seconds: 60) { $0.state != .playing && $0.state != .idle }
    let channels = try HEAACOutputRateTests().readWAV(wav).channels
    let samples = Array(try TestAudio.floats(wav).dropFirst(11))
    return (stride(from: 0, to: samples.count, by: channels).map { samples[$0] }, end)
  }

  /// Each burst `out` holds came out whole, and each pause before it kept what the level keeps,
  /// within `slack` frames where the reference was decoded otherwise than the player decodes.
  func checkPauses(_ out: [Range<Int>], memo: [Range<Int>], rate: Int, slack: Int = 0) throws {
    let (memoGaps, gaps) = (Audio.gaps(memo), Audio.gaps(out))
    for (index, (memoGap, gap)) in zip(memoGaps, gaps).enumerated() {
      let expected = try #require(SilenceSkipperTests.expectedGap(memoGap, level: .medium, rate: rate))
      let within = (expected.lowerBound - slack)...(expected.upperBound + slack)
      #expect(within.contains(gap), "pause \(index) of \(memoGap) frames kept \(gap)")
    }
    for (burst, original) in zip(out, memo) {
      // The coder smears a burst's edges by a few samples; its length is kept.
      #expect(
        abs(burst.count - original.count) <= max(slack, rate / 1000),
        "a burst of \(original.count) came out \(burst.count)")
    }
  }

  @Test func heAACIsSkippedAtTheDecodersRate() throws {
    let memo = Audio(rate: HEAACOutputRateTests.coreRate)
    let path = try memo.memoFile("skip-he-aac")
    try HEAACOutputRateTests.signalSBR(path)
    let audio = try MP4Audio.read(path: path)
    try #require(audio.sbr && audio.sampleRate == HEAACOutputRateTests.outputRate)
    let rate = HEAACOutputRateTests.outputRate
    let (written, end) = try playSkipping(path, name: "skip-he-aac")
    #expect(end.state == .ended)
    let length = try #require(audio.durationSeconds)
    #expect(abs(end.position - length) < 1e-6, "ended at \(end.position) s of \(length) s")
    // What was left out is what the device did not get.
    let memoFrames = Int((length * Double(rate)).rounded())
    #expect(abs(end.silenceSkipped * Double(rate) - Double(memoFrames - written.count)) < 2)
    let reference = try TestAudio.ffmpegDecode(path, rate: rate)
    let memoBursts = Audio.bursts(in: reference, channels: 1, rate: rate)
    let out = Audio.bursts(in: written, channels: 1, rate: rate)
    try #require(memoBursts.count == Audio.pauses.count, "\(memoBursts.count) bursts decoded")
    try #require(out.count == memoBursts.count, "\(out.count) bursts came out")
    // ffmpeg's reference is the two channels mixed down, a level a little off the player's first
    // channel, so a burst's 5 ms ramp crosses the level that finds it some frames apart (≤ 1 ms).
    try checkPauses(out, memo: memoBursts, rate: rate, slack: rate / 1000)
  }

  @Test func aTornRecordingIsSkippedUpToItsLastWholeSample() throws {
    let rate = 48_000
    let memo = Audio(rate: rate)
    let whole = try memo.memoFile("skip-torn")
    // Laid out as the phone records, in fragments, then cut inside the last one's media data.
    let torn = whole.replacingOccurrences(of: "_audio.m4a", with: "-torn_audio.m4a")
    let remux = try runProcess(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-i", whole, "-c", "copy", "-movflags",
        "+frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "1000000", torn,
      ])
    try #require(remux.status == 0, "\(remux.standardError)")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: torn))
    try bytes.prefix(bytes.count - 3000).write(to: URL(fileURLWithPath: torn))
    let audio = try MP4Audio.read(path: torn)
    try #require(audio.cutShort, "the cut was expected inside the media data")
    let length = try #require(audio.durationSeconds)
    let (written, end) = try playSkipping(torn, name: "skip-torn")
    #expect(end.state == .ended)
    #expect(abs(end.position - length) < 1e-6, "ended at \(end.position) s of \(length) s")
    let memoFrames = Int((length * Double(rate)).rounded())
    #expect(abs(end.silenceSkipped * Double(rate) - Double(memoFrames - written.count)) < 2)
    // The bursts before the cut, from the whole file's decode.
    let reference = try TestAudio.ffmpegDecode(whole, rate: rate)
    let memoBursts = Audio.bursts(in: Array(reference.prefix(memoFrames)), channels: 1, rate: rate)
      .filter { $0.upperBound < memoFrames - rate / 100 }
    let out = Audio.bursts(in: written, channels: 1, rate: rate)
    try #require(memoBursts.count >= 3, "the cut left \(memoBursts.count) bursts")
    try #require(out.count >= memoBursts.count, "\(out.count) bursts came out of \(memoBursts.count)")
    try checkPauses(Array(out.prefix(memoBursts.count)), memo: memoBursts, rate: rate)
  }
}
