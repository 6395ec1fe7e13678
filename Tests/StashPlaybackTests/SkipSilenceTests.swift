import Foundation
import StashTestSupport
import Testing

@testable import StashPlayback

/// Skip silence through the whole player, on ALSA's `file` PCM (what the device got) and on the
/// simulated device (its clock is the frames the test lets it play, so nothing here depends on
/// how fast the machine is): a memo of tone bursts after known pauses, coded as AAC.
@Suite struct SkipSilenceTests {
  typealias Audio = SkipSilenceAudio

  /// The bursts of `samples` and the pauses before them.
  static func measure(_ samples: [Float], channels: Int = 1, rate: Int = 48_000) -> (
    bursts: [Range<Int>], gaps: [Int]
  ) {
    let bursts = Audio.bursts(in: samples, channels: channels, rate: rate)
    return (bursts, Audio.gaps(bursts))
  }

  /// Played to the end on the `file` PCM at medium: each pause longer than 0.3 s keeps 0.3 s
  /// (and up to 40 ms more), shorter ones are left to the frame, every burst reaches the device whole
  /// and as decoded, the end is reported at the memo's length (memo time, not the time played),
  /// and the snapshot's seconds saved are what the device did not get. Over a hum, no step
  /// between samples outside the bursts is more than twice the hum's own: the cuts do not click.
  @Test(arguments: [
    (48_000, 1, Audio.Bed.noise(dbfs: -45)), (48_000, 2, Audio.Bed.noise(dbfs: -30)),
    (8_000, 1, Audio.Bed.noise(dbfs: -45)), (48_000, 1, Audio.Bed.hum(dbfs: -30)),
  ])
  func longPausesAreShortenedOnALSAsFilePCM(rate: Int, channels: Int, bed: Audio.Bed) throws {
    let memo = Audio(rate: rate, channels: channels, bed: bed)
    let name = "skip-\(rate)-\(channels)-\(bed)"
    let (track, reference) = try memo.track(name)
    let raw = try TestAudio.folder().appendingPathComponent("\(name).raw").path
    let player = Player(device: "file:FILE=\(raw),FORMAT=raw")
    player.setSkipSilence(.medium)
    try player.load(track)
    player.play()
    let end = waitFor(player, seconds: 60) { $0.state != .playing && $0.state != .idle }
    let written = try TestAudio.floats(raw)
    let memoFrames = reference.count / channels
    let frames = written.count / channels
    #expect(end.state == .ended)
    #expect(end.position == Double(memoFrames) / Double(rate))
    #expect(end.skipSilence == .medium)
    #expect(
      abs(end.silenceSkipped * Double(rate) - Double(memoFrames - frames)) < 1, "\(end.silenceSkipped) s")
    let memoSide = Self.measure(reference, channels: channels, rate: rate)
    let out = Self.measure(written, channels: channels, rate: rate)
    try #require(memoSide.bursts.count == Audio.pauses.count)
    try #require(out.bursts.count == memoSide.bursts.count, "\(out.bursts.count) bursts came out")
    for (index, (memoGap, gap)) in zip(memoSide.gaps, out.gaps).enumerated() {
      let expected = try #require(SilenceSkipperTests.expectedGap(memoGap, level: .medium, rate: rate))
      #expect(expected.contains(gap), "pause \(index) of \(memoGap) frames kept \(gap)")
    }
    for (burst, original) in zip(out.bursts, memoSide.bursts) {
      #expect(burst.count == original.count)
      let heard = written[(burst.lowerBound * channels)..<(burst.upperBound * channels)]
      let decoded = reference[(original.lowerBound * channels)..<(original.upperBound * channels)]
      let difference = TestAudio.maxDifference(heard, decoded)
      #expect(difference != nil && difference! < 1e-5, "the burst at \(original.lowerBound) changed")
    }
    if case .hum = bed {
      let mono = stride(from: 0, to: written.count, by: channels).map { written[$0] }
      let hum = Self.largestStepOutside(memoSide.bursts, reference, rate: rate)
      let skipped = Self.largestStepOutside(out.bursts, mono, rate: rate)
      #expect(skipped <= hum * 2, "a step of \(skipped) where the hum makes \(hum) at most")
    }
  }

  /// The largest step between samples in the pauses before `bursts`, 30 ms clear of them (the
  /// coder smears a burst's edges over a frame of 1,024 samples; it ends the stream with a step of
  /// its own, so the end is left out).
  static func largestStepOutside(_ bursts: [Range<Int>], _ samples: [Float], rate: Int) -> Float {
    let edge = rate * 3 / 100
    let edges =
      [0] + bursts.dropLast().flatMap { [$0.lowerBound - edge, $0.upperBound + edge] } + [
        (bursts.last?.lowerBound ?? 0) - edge
      ]
    return stride(from: 0, to: edges.count - 1, by: 2).reduce(Float(0)) { largest, index in
      let range = max(0, edges[index])..<min(samples.count, edges[index + 1])
      guard range.count > 1 else { return largest }
      return max(largest, ListeningAudio.largestStep(samples[range]))
    }
  }

  /// At 2× with the voice boost and the volume at 80 %: the device gets half of what the rules
  /// leave (within 2 %), and the end is reported at the memo's length.
  @Test func itWorksWithTheSpeedTheBoostAndTheVolume() throws {
    let memo = Audio(rate: 48_000, bed: .noise(dbfs: -45))
    let (track, reference) = try memo.track("skip-2x")
    let raw = try TestAudio.folder().appendingPathComponent("skip-2x.raw").path
    let player = Player(device: "file:FILE=\(raw),FORMAT=raw")
    #expect(player.setSpeed(2) == nil)
    #expect(player.setVoiceBoost(true) == nil)
    player.setVolume(80)
    player.setSkipSilence(.strong)
    try player.load(track)
    player.play()
    let end = waitFor(player, seconds: 60) { $0.state != .playing && $0.state != .idle }
    #expect(end.state == .ended)
    #expect(end.position == Double(reference.count) / 48_000)
    let kept = Self.measure(reference).gaps.reduce(0) { $0 + min($1, Int(0.15 * 48_000)) }
    let rules = Double(reference.count - Self.measure(reference).gaps.reduce(0, +) + kept)
    let written = try TestAudio.floats(raw)
    let ratio = Double(written.count) / (rules / 2)
    #expect(abs(ratio - 1) <= 0.02, "lasted \(ratio) of half what the rules leave")
    #expect(end.silenceSkipped > 8, "saved \(end.silenceSkipped) s")
  }

  /// On the simulated device: a seek into a long pause lands where it was asked; the pause from
  /// there is shortened; once the next burst has played 0.2 s, the position is its memo time
  /// to the frame. Then a seek to just before a burst, played through an untouched pause and a
  /// cut one into the burst after: the position is that burst's memo time again, to the frame.
  @Test func theClockStaysInMemoTimeAcrossSeeksAndCuts() throws {
    let memo = Audio(rate: 48_000, bed: .noise(dbfs: -45))
    let (track, reference) = try memo.track("skip-clock")
    let bursts = Self.measure(reference).bursts
    try #require(bursts.count == Audio.pauses.count)
    let rig = ListeningTests.Rig()
    rig.player.setSkipSilence(.medium)
    try rig.player.load(track)

    /// Plays until the device has heard 0.2 s of the first burst after `from` (the frame heard
    /// when asked); its first frame's index in what was heard since.
    func playIntoTheNextBurst(from: Int) throws -> Int {
      var onset: Int? = nil
      while rig.player.snapshot.state == .playing {
        let heard = Array(rig.device.heard[from...])
        if let first = Self.measure(heard).bursts.first, heard.count >= first.lowerBound + 9_600 {
          onset = first.lowerBound
          let over = heard.count - (first.lowerBound + 9_600)
          // Back to exactly 0.2 s into it: the device plays what it heard last.
          _ = over
          break
        }
        rig.play(1200)
      }
      return try #require(onset)
    }

    // Two seconds into the 5 s pause before the fifth burst.
    let target = bursts[3].upperBound + 96_000
    rig.player.play(from: Double(target) / 48_000)
    rig.refilled()
    #expect(rig.player.snapshot.position == Double(target) / 48_000)
    let start = rig.device.heard.count
    let onset = try playIntoTheNextBurst(from: start)
    // From the seek to the burst, 3 s of the pause were left: 0.3 s of it were played.
    #expect((14_400...16_320).contains(onset), "the rest of the pause kept \(onset) frames")
    var into = rig.device.heard.count - start - onset
    var position = rig.player.snapshot.position * 48_000
    #expect(
      abs(position - Double(bursts[4].lowerBound + into)) <= 2,
      "at \(position), not \(bursts[4].lowerBound + into)")
    let savedBefore = rig.player.snapshot.silenceSkipped
    #expect(savedBefore > 2.5, "saved \(savedBefore) s")

    // A tenth of a second before the end of the fifth burst: through the 0.1 s pause, the sixth
    // burst and the 1.5 s pause into the seventh.
    let before = bursts[4].upperBound - 4_800
    rig.player.seek(to: Double(before) / 48_000)
    rig.refilled()
    #expect(rig.player.snapshot.position == Double(before) / 48_000)
    let second = rig.device.heard.count
    let first = try playIntoTheNextBurst(from: second)
    #expect(first <= 48, "the fifth burst's end came \(first) frames late")
    var heard = Array(rig.device.heard[second...])
    while Self.measure(heard).bursts.count < 3
      || heard.count < Self.measure(heard).bursts[2].lowerBound + 9_600
    {
      guard rig.player.snapshot.state == .playing else { break }
      rig.play(1200)
      heard = Array(rig.device.heard[second...])
    }
    let found = Self.measure(heard)
    try #require(found.bursts.count >= 3)
    // The 0.1 s pause left as it was, the 1.5 s one kept to 0.3 s.
    #expect(found.gaps[1] == Self.measure(reference).gaps[5])
    #expect((14_400...16_320).contains(found.gaps[2]), "the 1.5 s pause kept \(found.gaps[2]) frames")
    into = heard.count - found.bursts[2].lowerBound
    position = rig.player.snapshot.position * 48_000
    #expect(
      abs(position - Double(bursts[6].lowerBound + into)) <= 2,
      "at \(position), not \(bursts[6].lowerBound + into)")
    #expect(rig.player.snapshot.silenceSkipped > savedBefore + 1.1)
    _ = rig.playToTheEnd()
    #expect(rig.player.snapshot.position == Double(reference.count) / 48_000)
  }

  /// Turned on while playing, in the middle of the 5 s pause: the frames already handed over
  /// are the memo's, and the next burst reaches the device no later than the level's length and
  /// 100 ms of frames after them, where it would have come 2.5 s later.
  @Test func turningItOnWhilePlayingReachesTheDeviceWithin100ms() throws {
    let memo = Audio(rate: 48_000, bed: .noise(dbfs: -30))
    let (track, reference) = try memo.track("skip-on")
    let bursts = Self.measure(reference).bursts
    try #require(bursts.count == Audio.pauses.count)
    let rig = ListeningTests.Rig()
    try rig.player.load(track)
    rig.player.play(from: Double(bursts[3].upperBound + 48_000) / 48_000)
    rig.refilled()
    for _ in 0..<40 { rig.play(1200) }
    let onAt = rig.device.heard.count + rig.device.queued
    rig.player.setSkipSilence(.strong)
    #expect(rig.player.snapshot.skipSilence == .strong)
    var heard: [Float] = []
    var onset: Int? = nil
    while rig.player.snapshot.state == .playing {
      rig.play(1200)
      heard = rig.device.heard
      guard heard.count > onAt else { continue }
      if let burst = Self.measure(Array(heard[onAt...])).bursts.first, heard.count > onAt + burst.upperBound {
        onset = burst.lowerBound
        break
      }
    }
    let onsetFrame = try #require(onset)
    #expect(onsetFrame <= 7_200 + 4_800, "the burst came \(onsetFrame) frames after the change")
    // What was handed over before the change is the memo, as decoded.
    let from = bursts[3].upperBound + 48_000
    let difference = TestAudio.maxDifference(heard[0..<onAt], reference[from..<(from + onAt)])
    #expect(difference != nil && difference! < 1e-5)
  }

  /// The same with the voice boost and the noise reduction on, at 1× and at 0.5× (the filters and
  /// the speed filter hold 200-400 ms between the skipper and the device, which a change used to
  /// wait behind): the burst still comes no later than the level's length and 100 ms of frames
  /// after those handed over before the change, and the change is timed within 100 ms.
  @Test(arguments: [1.0, 0.5])
  func withTheBoostAndEnhanceATurnOnStillReachesTheDeviceWithin100ms(speed: Double) throws {
    let memo = Audio(rate: 48_000, bed: .noise(dbfs: -30))
    let (track, reference) = try memo.track("skip-on-boosted-\(speed)")
    let bursts = Self.measure(reference).bursts
    try #require(bursts.count == Audio.pauses.count)
    let rig = ListeningTests.Rig()
    #expect(rig.player.setVoiceBoost(true) == nil)
    #expect(rig.player.setEnhance(true) == nil)
    #expect(rig.player.setSpeed(speed) == nil)
    try rig.player.load(track)
    rig.player.play(from: Double(bursts[3].upperBound + 48_000) / 48_000)
    rig.refilled()
    for _ in 0..<40 { rig.play(1200) }
    let onAt = rig.device.heard.count + rig.device.queued
    rig.player.setSkipSilence(.strong)
    var onset: Int? = nil
    while rig.player.snapshot.state == .playing {
      rig.play(1200)
      let heard = rig.device.heard
      guard heard.count > onAt else { continue }
      if let burst = Self.measure(Array(heard[onAt...])).bursts.first, heard.count > onAt + burst.upperBound {
        onset = burst.lowerBound
        break
      }
    }
    let onsetFrame = try #require(onset)
    let limit = Int(7_200 / speed) + 4_800
    #expect(onsetFrame <= limit, "the burst came \(onsetFrame) frames after the change at \(speed)x")
    let latency = try #require(rig.player.snapshot.lastSkipSilenceLatency)
    #expect(latency <= 0.1, "the change took \(latency) s of the device's clock at \(speed)x")
    _ = rig.playToTheEnd()
    #expect(rig.player.snapshot.position == Double(reference.count) / 48_000)
    // The cuts dropped with what the filters held are made again, not counted twice: as much is
    // left out as when the same change is made at the same memo time on the memo alone at 1×
    // (nothing held to drop).
    let plain = ListeningTests.Rig()
    try plain.player.load(track)
    plain.player.play(from: Double(bursts[3].upperBound + 48_000) / 48_000)
    plain.refilled()
    // As far into the memo as the run at `speed` was.
    for _ in 0..<Int(40 * speed) { plain.play(1200) }
    plain.player.setSkipSilence(.strong)
    _ = plain.playToTheEnd()
    let saved = rig.player.snapshot.silenceSkipped
    let alone = plain.player.snapshot.silenceSkipped
    #expect(abs(saved - alone) < 0.1, "left out \(saved) s with the filters at \(speed)x, \(alone) s without")
  }

  /// Inside a pause of 25 s (a person thinking, as the issue's own memos had), the skipper has run
  /// through the whole pause to the next burst while the device plays the start of what mild
  /// kept: a level changed then, with the boost and the noise reduction holding the rest of it,
  /// is made again from the last frame handed over, 25 s of memo behind the skipper, and reaches
  /// the device within 100 ms (with 12 s of history it waited 0.43 s behind the filters).
  @Test func aLevelChangedDeepInALongPauseReachesTheDeviceWithin100ms() throws {
    let memo = Audio(rate: 48_000, bed: .noise(dbfs: -30), pauses: [1.03, 25.0, 1.0])
    let (track, reference) = try memo.track("skip-long-pause")
    let bursts = Self.measure(reference).bursts
    try #require(bursts.count == 3)
    let rig = ListeningTests.Rig()
    #expect(rig.player.setVoiceBoost(true) == nil)
    #expect(rig.player.setEnhance(true) == nil)
    rig.player.setSkipSilence(.mild)
    try rig.start(track, blocks: 0)
    // Through the first burst, then 60 ms into what mild keeps of the 25 s pause after it.
    let into = Double(bursts[0].upperBound + 2_880) / 48_000
    while rig.player.snapshot.state == .playing && rig.player.snapshot.position < into { rig.play(480) }
    let position = rig.player.snapshot.position * 48_000
    #expect(
      (Double(bursts[0].upperBound)...Double(bursts[0].upperBound + 7_200)).contains(position),
      "at \(position), not in the pause after the first burst")
    rig.player.setSkipSilence(.strong)
    for _ in 0..<20 { rig.play(1200) }
    let latency = try #require(
      rig.player.snapshot.lastSkipSilenceLatency, "the change never reached the device")
    #expect(latency <= 0.1, "the change took \(latency) s of the device's clock")
    _ = rig.playToTheEnd()
    #expect(rig.player.snapshot.position == Double(reference.count) / 48_000)
  }

  /// A level changed while skip silence is on, with the boost and the noise reduction holding
  /// frames: the cuts in what they held are made again at the new level, and counted once, as
  /// much left out as when the same changes are made on the memo alone.
  @Test func aLevelChangedWithTheFiltersOnIsCountedOnce() throws {
    let memo = Audio(rate: 48_000, bed: .noise(dbfs: -30), repeats: 2)
    let (track, _) = try memo.track("skip-level-boosted")
    func saved(filters: Bool) throws -> Double {
      let rig = ListeningTests.Rig()
      if filters {
        #expect(rig.player.setVoiceBoost(true) == nil)
        #expect(rig.player.setEnhance(true) == nil)
      }
      rig.player.setSkipSilence(.mild)
      try rig.start(track, blocks: 0)
      for (blocks, level) in [(150, SkipSilenceLevel.strong), (120, .medium), (90, .strong)] {
        for _ in 0..<blocks { rig.play(1200) }
        rig.player.setSkipSilence(level)
      }
      _ = rig.playToTheEnd()
      return rig.player.snapshot.silenceSkipped
    }
    let alone = try saved(filters: false)
    let filtered = try saved(filters: true)
    #expect(alone > 10, "only \(alone) s left out")
    #expect(abs(filtered - alone) < 0.15, "left out \(filtered) s with the filters, \(alone) s without")
  }

  /// A skip change remakes what the filters held, from the next memo frame, the fresh filters
  /// warmed up on the memo before it and faded in over 5 ms from what was dropped: on the tone
  /// bursts at 1.5× with the boost and the noise reduction on, skip silence turned on and off ten
  /// times while playing makes no step from one sample to the next larger than the same memo
  /// played without a change makes (without the warm-up: 6× as large), and the memo ends in memo
  /// time.
  @Test func aSkipChangeWithTheFiltersOnDoesNotClick() throws {
    let (track, reference) = try Audio(rate: 48_000, bed: .noise(dbfs: -45), repeats: 2).track("skip-clicks")
    func largestStep(changes: Int) throws -> Float {
      let rig = ListeningTests.Rig()
      #expect(rig.player.setVoiceBoost(true) == nil)
      #expect(rig.player.setEnhance(true) == nil)
      #expect(rig.player.setSpeed(1.5) == nil)
      try rig.start(track, blocks: 20)
      for round in 0..<changes {
        rig.player.setSkipSilence(round % 2 == 0 ? .strong : nil)
        for _ in 0..<15 { rig.play(1200) }
      }
      let heard = rig.playToTheEnd()
      #expect(rig.player.snapshot.state == .ended, "\(rig.player.snapshot.state)")
      #expect(rig.player.snapshot.position == Double(reference.count) / 48_000)
      try #require(heard.count > 96_000, "heard \(heard.count) frames")
      return ListeningAudio.largestStep(heard[24_000...])
    }
    let plain = try largestStep(changes: 0)
    let changed = try largestStep(changes: 10)
    #expect(
      changed <= plain * 1.2, "a step of \(changed) where the memo played without changes makes \(plain)")
  }
}
