import Foundation
import Testing

@testable import StashPlayback

/// The detector and the skipper in-process, on memos made in memory (no coder between): what
/// each pause keeps, that the bursts pass bit for bit, the memo frame each output frame is, and
/// the cross-fade at a cut.
@Suite struct SilenceSkipperTests {
  /// What the skipper gave for a memo fed in chunks of 1,024 frames: the frames, and for each the
  /// memo frame it carries.
  struct Skipped {
    var samples: [Float] = []
    var memoFrames: [Int] = []
    var saved = 0
  }

  static func skip(
    _ memo: SkipSilenceAudio, level: SkipSilenceLevel?, change: (Int, SilenceSkipper) -> Void = { _, _ in }
  ) -> Skipped {
    skip(memo.samples, rate: memo.rate, channels: memo.channels, level: level, change: change)
  }

  /// The same for interleaved `samples` made by the test itself.
  static func skip(
    _ samples: [Float], rate: Int, channels: Int, level: SkipSilenceLevel?,
    change: (Int, SilenceSkipper) -> Void = { _, _ in }
  ) -> Skipped {
    let skipper = SilenceSkipper(rate: rate, channels: channels, level: level)
    var out = Skipped()
    func drain() {
      while let chunk = skipper.pop() {
        guard case .audio(let played) = chunk.content else { continue }
        out.samples += played
        out.memoFrames += (0..<(played.count / channels)).map { chunk.firstFrame + $0 }
      }
    }
    let frames = samples.count / channels
    for start in stride(from: 0, to: frames, by: 1024) {
      change(start, skipper)
      let end = min(frames, start + 1024)
      skipper.push(
        AudioChunk(
          generation: 1, firstFrame: start,
          content: .audio(Array(samples[(start * channels)..<(end * channels)]))))
      drain()
    }
    skipper.push(AudioChunk(generation: 1, firstFrame: frames, content: .end))
    drain()
    out.saved = skipper.takeSaved()
    return out
  }

  /// What a pause of `frames` should keep at `level` (nil when too near the level to say): its
  /// start is known to a window and the 30 ms the level is judged over, its end to a window, so
  /// a long one keeps the level's length and up to 40 ms more.
  static func expectedGap(_ frames: Int, level: SkipSilenceLevel, rate: Int) -> ClosedRange<Int>? {
    let kept = Int(level.keptSeconds * Double(rate))
    let slack = rate * 40 / 1000
    if frames < kept - slack { return frames...frames }
    if frames > kept + slack { return kept...(kept + slack) }
    return nil
  }

  static let formats: [(rate: Int, channels: Int)] = [(48_000, 1), (48_000, 2), (8_000, 1), (16_000, 2)]
  static let beds: [SkipSilenceAudio.Bed] = [.none, .noise(dbfs: -45), .noise(dbfs: -30), .hum(dbfs: -30)]

  /// At each level, over each bed and in each format: a pause longer than the level keeps the
  /// level's length (and up to 40 ms more: `expectedGap`),
  /// a shorter one is left alone to the frame, every burst comes out whole and bit for bit, and
  /// what was saved is what is missing.
  @Test(arguments: SkipSilenceLevel.allCases)
  func longPausesKeepTheLevelsLengthAndShortOnesAreLeft(level: SkipSilenceLevel) throws {
    #expect(!Self.formats.isEmpty && !Self.beds.isEmpty)
    for format in Self.formats {
      for bed in Self.beds {
        let memo = SkipSilenceAudio(rate: format.rate, channels: format.channels, bed: bed)
        let out = Self.skip(memo, level: level)
        let what = "\(level) \(format.rate) Hz ×\(format.channels) \(bed)"
        let reference = SkipSilenceAudio.bursts(in: memo.samples, channels: memo.channels, rate: memo.rate)
        let found = SkipSilenceAudio.bursts(in: out.samples, channels: memo.channels, rate: memo.rate)
        try #require(reference.count == memo.bursts.count, "\(what): \(reference.count) bursts in the memo")
        try #require(found.count == reference.count, "\(what): \(found.count) bursts came out")
        let memoGaps = SkipSilenceAudio.gaps(reference)
        let gaps = SkipSilenceAudio.gaps(found)
        for (index, (memoGap, gap)) in zip(memoGaps, gaps).enumerated() {
          guard let expected = Self.expectedGap(memoGap, level: level, rate: memo.rate) else {
            Issue.record("\(what): pause \(index) of \(memoGap) frames is too near the level to test")
            continue
          }
          #expect(expected.contains(gap), "\(what): pause \(index) of \(memoGap) frames kept \(gap)")
        }
        for (burst, original) in zip(found, reference) {
          #expect(
            burst.count == original.count,
            "\(what): a burst of \(original.count) frames came out \(burst.count)")
          let c = memo.channels
          let same = out.samples[(burst.lowerBound * c)..<(burst.upperBound * c)].elementsEqual(
            memo.samples[(original.lowerBound * c)..<(original.upperBound * c)])
          #expect(same, "\(what): the burst at \(original.lowerBound) changed")
          // The map says which memo frame each output frame is: the burst's own.
          #expect(out.memoFrames[burst.lowerBound] == original.lowerBound, "\(what): mapped off")
        }
        #expect(
          out.saved == memo.samples.count / memo.channels - out.samples.count / memo.channels, "\(what)")
        #expect(out.saved > 0, "\(what): nothing saved")
      }
    }
  }

  /// Off, the skipper gives the memo back frame for frame, each frame mapped to itself.
  @Test func offItPassesEveryFrameAsItIs() {
    let memo = SkipSilenceAudio(rate: 48_000, channels: 2, bed: .noise(dbfs: -45))
    let out = Self.skip(memo, level: nil)
    #expect(out.samples == memo.samples)
    #expect(out.memoFrames == Array(0..<(memo.samples.count / 2)))
    #expect(out.saved == 0)
  }

  /// The map of output frames to memo frames: it goes up one at a time except at a cut, where
  /// it jumps forward by what was cut (never back), and the jumps add up to what was saved.
  @Test func theMapJumpsForwardByEachCut() {
    let memo = SkipSilenceAudio(rate: 48_000, bed: .noise(dbfs: -30))
    let out = Self.skip(memo, level: .medium)
    var jumps = 0
    var total = 0
    for (a, b) in zip(out.memoFrames, out.memoFrames.dropFirst()) where b != a + 1 {
      #expect(b > a + 1, "the map went from \(a) to \(b)")
      jumps += 1
      total += b - a - 1
    }
    // The pauses of 1 s (at the start), 2, 5, 1.5 and 3 s; none of those of 0.1, 0.2 or 0.25 s.
    #expect(jumps == 5)
    #expect(total == out.saved)
  }

  /// Over a hum (the worst case for a cut: a steady tone whose phase jumps), no step from one
  /// sample to the next outside the bursts is more than twice the hum's own largest: a cut
  /// without the fade jumps by up to twice the hum's amplitude.
  @Test(arguments: [48_000, 8_000])
  func aCutOverAHumDoesNotClick(rate: Int) {
    let memo = SkipSilenceAudio(rate: rate, bed: .hum(dbfs: -30))
    let out = Self.skip(memo, level: .strong)
    func largestOutsideBursts(_ samples: [Float]) -> Float {
      // Between the bursts, leaving out their 5 ms ramps.
      let bursts = SkipSilenceAudio.bursts(in: samples, channels: 1, rate: rate)
      let edges =
        [0] + bursts.flatMap { [$0.lowerBound - rate / 100, $0.upperBound + rate / 100] } + [samples.count]
      return stride(from: 0, to: edges.count - 1, by: 2).reduce(Float(0)) { largest, index in
        guard edges[index] + 1 < edges[index + 1] else { return largest }
        return max(
          largest,
          ListeningAudio.largestStep(samples[max(0, edges[index])..<min(samples.count, edges[index + 1])]))
      }
    }
    let hum = largestOutsideBursts(memo.samples)
    let skipped = largestOutsideBursts(out.samples)
    #expect(hum > 0)
    #expect(out.saved > 0)
    #expect(skipped <= hum * 2, "a step of \(skipped) where the hum makes \(hum) at most")
  }

  /// A level changed while playing applies from the next pause; turned off in a pause, what is
  /// held comes out and nothing more is cut.
  @Test func aChangeOfLevelAppliesToTheNextPause() throws {
    let memo = SkipSilenceAudio(rate: 48_000)
    let reference = SkipSilenceAudio.bursts(in: memo.samples, channels: 1, rate: 48_000)
    let memoGaps = SkipSilenceAudio.gaps(reference)
    // Strong until the fourth burst, then mild until the seventh's, then off.
    let fourth = reference[3].lowerBound
    let seventh = reference[6].lowerBound
    let out = Self.skip(memo, level: .strong) { start, skipper in
      if start >= seventh {
        skipper.level = nil
      } else if start >= fourth {
        skipper.level = .mild
      }
    }
    let gaps = SkipSilenceAudio.gaps(SkipSilenceAudio.bursts(in: out.samples, channels: 1, rate: 48_000))
    try #require(gaps.count == memoGaps.count)
    // The 2 s pause before the third burst: strong; the 5 s one before the fifth: mild; the 3 s
    // one before the eighth: off.
    #expect(Self.expectedGap(memoGaps[2], level: .strong, rate: 48_000)!.contains(gaps[2]), "\(gaps[2])")
    #expect(Self.expectedGap(memoGaps[4], level: .mild, rate: 48_000)!.contains(gaps[4]), "\(gaps[4])")
    #expect(gaps[7] == memoGaps[7])
  }

  /// A soft word tail after a long stretch of speech over a loud background (-30 dBFS pink noise):
  /// a voice 6 dB over the background for 250 ms after 1.5 s of a -15 dBFS one, then a second of
  /// background. The tail is heard, so it is not cut at any level; the pause after it still is. A
  /// floor that rose 3 dB/s under the speech stood 4.5 dB over the background by the tail, which
  /// was then silent and cut.
  @Test(arguments: SkipSilenceLevel.allCases)
  func aSoftTailAfterLongSpeechIsKept(level: SkipSilenceLevel) {
    let rate = 48_000
    let bedRMS: Float = 0.0316
    var voice = [Float](repeating: 0, count: rate)
    var tails: [Range<Int>] = []
    for _ in 0..<3 {
      voice += (0..<(rate * 3 / 2)).map { 0.25 * sinf(2 * Float.pi * 200 * Float($0) / Float(rate)) }
      // Twice the background's RMS: 6 dB over it.
      let tail = (0..<(rate / 4)).map {
        2 * bedRMS * Float(2).squareRoot() * sinf(2 * Float.pi * 200 * Float($0) / Float(rate))
      }
      tails.append(voice.count..<(voice.count + tail.count))
      voice += tail + [Float](repeating: 0, count: rate)
    }
    let bed = SkipSilenceAudio.bed(.noise(dbfs: -30), frames: voice.count, rate: rate)
    let out = Self.skip(zip(voice, bed).map { $0 + $1 }, rate: rate, channels: 1, level: level)
    let played = Set(out.memoFrames)
    #expect(!tails.isEmpty)
    for tail in tails {
      let cut = tail.filter { !played.contains($0) }.count
      #expect(cut == 0, "\(level): \(cut) frames of the tail at \(tail.lowerBound) cut")
    }
    #expect(out.saved > 0, "\(level): the pauses were not shortened")
  }

  /// The detector: a quiet voice well above its background is loud (it ends a pause), and the
  /// background is silent (at least 90 % of its windows start a pause; none ends one), once the
  /// floor has learnt it; so are a loud voice (-11 dBFS) and a loud background (-30 dBFS); a loud
  /// tone that never dips is never silent however long it lasts (the ceiling); and a background
  /// that grows 15 dB louder is followed within seconds.
  @Test func theDetectorFollowsTheMemosOwnFloor() {
    enum Judged { case silent, between, loud }
    // How each window is judged, as the skipper judges: those measured while the floor was learnt
    // against the floor learnt.
    func windows(_ samples: [Float], rate: Int) -> [Judged] {
      var detector = SilenceDetector(rate: rate)
      var levels: [Float] = []
      var judged: [Judged] = []
      for start in stride(from: 0, to: samples.count - detector.windowFrames, by: detector.windowFrames) {
        levels.append(detector.measure(samples[start..<(start + detector.windowFrames)]))
        if detector.learning { continue }
        judged += levels[judged.count...].map { level in
          level < detector.threshold ? .silent : level > detector.onsetThreshold ? .loud : .between
        }
      }
      return judged
    }
    /// Whether `windows` are background: none loud, and at least 90 % silent.
    func background(_ windows: [Judged]) -> Bool {
      !windows.isEmpty && !windows.contains(.loud)
        && windows.filter { $0 == .silent }.count * 10 >= windows.count * 9
    }
    let rate = 48_000
    // Each memo opens with a second of its background, as a recording does, and then has half a
    // second of a tone (a voice) at the start of every second.
    func voice(amplitude: Float, over bed: Double) -> (speech: [Judged], pauses: [Judged]) {
      let noise = SkipSilenceAudio.bed(.noise(dbfs: bed), frames: 11 * rate, rate: rate)
      let memo = noise.enumerated().map { i, noise in
        i >= rate && (i % rate) < rate / 2
          ? noise + amplitude * sinf(2 * Float.pi * 200 * Float(i) / Float(rate)) : noise
      }
      let judged = windows(memo, rate: rate).enumerated().dropFirst(100)
      return (
        judged.filter { ($0.offset % 100) < 50 }.map(\.element),
        judged.filter { ($0.offset % 100) >= 52 }.map(\.element)
      )
    }
    // A quiet voice (-40 dBFS RMS) over a quiet background (-65 dBFS).
    let quiet = voice(amplitude: 0.0141, over: -65)
    #expect(!quiet.speech.isEmpty && quiet.speech.allSatisfy { $0 == .loud }, "a quiet voice was not loud")
    #expect(background(quiet.pauses), "its background was not")
    // A loud voice (-11 dBFS) over a loud background (-30 dBFS).
    let loud = voice(amplitude: 0.4, over: -30)
    #expect(!loud.speech.isEmpty && loud.speech.allSatisfy { $0 == .loud }, "a loud voice was not loud")
    #expect(background(loud.pauses), "a loud background was not background")
    // Twenty seconds of a steady tone at -15 dBFS RMS after a second of quiet.
    let steady =
      [Float](repeating: 0, count: rate)
      + (0..<(20 * rate)).map { 0.25 * sinf(2 * Float.pi * 300 * Float($0) / Float(rate)) }
    #expect(!windows(steady, rate: rate).dropFirst(100).contains(.silent))
    // Noise at -60 dBFS, then at -45: after 6 s the louder one is background too.
    let growing =
      SkipSilenceAudio.bed(.noise(dbfs: -60), frames: 5 * rate, rate: rate)
      + SkipSilenceAudio.bed(.noise(dbfs: -45), frames: 10 * rate, rate: rate)
    #expect(
      background(Array(windows(growing, rate: rate)[1100...])), "a background 15 dB louder was not followed")
  }
}
