import StashFormat

/// A span of a memo's audio cut out without re-encoding: the AAC frames that cover it, copied
/// as they are, and the edit list that makes a player present exactly the span (issue 48 §2).
public struct AudioClip: Sendable, Equatable {
  /// The span asked for, in seconds of the memo's presentation (after its priming).
  public var from: Double
  public var to: Double
  /// Units per second of the media clock (the source's `mdhd` timescale, kept by the clip).
  public var timescale: UInt32
  /// The index in the source's samples of the first frame copied: the one before the frame that
  /// covers `from` (AAC's overlapping windows need it to decode the first sample right).
  public var firstFrame: Int
  /// The source's frames copied, in order: from `firstFrame` to the frame that covers `to`.
  public var frames: [AudioSample]
  /// The edit list's media time: where in the clip's own media `from` falls.
  public var mediaStart: Int64
  /// The edit list's duration: `to - from` in the media clock.
  public var mediaDuration: Int64

  /// The frames of `audio` (the memo's audio at `path`, which names it in errors) that a clip of
  /// `from`–`to` seconds copies. A torn memo clips what decodes: only its whole samples count. A
  /// span outside the audio fails with code `out-of-range` and states the audio's length.
  public static func choose(_ audio: MP4Audio, from: Double, to: Double, path: String) throws(RecoverError)
    -> AudioClip
  {
    // Nothing that decodes is a span of length 0: every span lies outside it.
    if let damaged = audio.damaged {
      throw RecoverError(
        code: .outOfRange, message: "nothing of the audio decodes to clip: \(damaged)", path: path)
    }
    guard !audio.sampleEntry.isEmpty, audio.timescale > 0, let last = audio.samples.last else {
      throw RecoverError(
        code: .outOfRange,
        message:
          "nothing of the audio can be clipped: it has no AAC sample entry, media clock or whole frame",
        path: path)
    }
    let scale = Double(audio.timescale)
    let priming = Int64(audio.primingSamples)
    // What decodes: whole frames after the priming, less the trim the source asks for at its end.
    let available = max(0, last.decodeTime + Int64(last.duration) - priming - Int64(audio.endTrimSamples))
    let length = Double(available) / scale
    guard from.isFinite, to.isFinite, from >= 0, from < to else {
      throw RecoverError(
        code: .outOfRange,
        message: "the span \(TimeText.preciseClock(max(0, from)))–\(TimeText.preciseClock(max(0, to))) "
          + "is empty or runs backwards; give FROM before TO",
        path: path)
    }
    let start = Int64((from * scale).rounded())
    let end = Int64((to * scale).rounded())
    guard end <= available else {
      throw RecoverError(
        code: .outOfRange,
        message: "the span \(TimeText.preciseClock(from))–\(TimeText.preciseClock(to)) ends past the audio, "
          + "which is \(TimeText.preciseClock(length)) long",
        path: path)
    }
    let samples = audio.samples
    let covering = frame(covering: priming + start, in: samples)
    let firstFrame = max(0, covering - 1)
    let lastFrame = frame(covering: priming + end - 1, in: samples)
    return AudioClip(
      from: from, to: to, timescale: audio.timescale, firstFrame: firstFrame,
      frames: Array(samples[firstFrame...lastFrame]),
      mediaStart: priming + start - samples[firstFrame].decodeTime, mediaDuration: end - start)
  }

  /// The index of the last sample that decodes at or before `time`: the one that covers it.
  static func frame(covering time: Int64, in samples: [AudioSample]) -> Int {
    var low = 0
    var high = samples.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if samples[middle].decodeTime <= time { low = middle } else { high = middle }
    }
    return low
  }

  /// The clip's title: the memo's and the span, as `Walk to the river (1:23–3:05)`.
  public static func title(memo: String, from: Double, to: Double) -> String {
    "\(memo) (\(TimeText.clock(from))–\(TimeText.clock(to)))"
  }
}
