/// The length rules of FORMAT.md §2: whole samples' durations, less priming and end trim.
struct MP4Length {
  var priming = 0
  var endTrim = 0
  var seconds: Double?
  var unreadableReason: String?
  var diagnostics: [Diagnostic] = []

  /// Seconds between 1904-01-01 (the MP4 epoch) and 1970-01-01.
  static let epochOffset: UInt64 = 2_082_844_800

  /// An MP4 time in seconds since 1970, or nil for 0 (unset) and times before 1970.
  static func unixTime(_ mp4Time: UInt64) -> Double? {
    mp4Time > epochOffset ? Double(mp4Time - epochOffset) : nil
  }

  /// The duration the track header (else the movie header) gives, in the media timescale, or nil
  /// when neither gives one.
  static func presented(_ reader: MP4Reader) -> UInt64? {
    guard let movie = reader.movie, let track = reader.track, movie.timescale > 0 else { return nil }
    let duration = track.duration > 0 ? track.duration : movie.duration
    // 0 is unknown; all ones is "indefinite" in ISO 14496-12.
    guard duration > 0, duration != UInt64(UInt32.max), duration != UInt64.max else { return nil }
    return UInt64((Double(duration) * Double(track.timescale) / Double(movie.timescale)).rounded())
  }

  /// The length of what `reader` read; `explained` adds diagnostics (the listing needs none).
  init(_ reader: MP4Reader, explained: Bool = true) {
    guard let track = reader.track else { return }
    let timescale = UInt64(track.timescale)
    let total = reader.wholeDuration
    let used = track.edits.filter { $0.mediaTime >= 0 }
    if let first = used.first {
      // The edit list wins: its media_time is the priming, its duration gives the end trim.
      priming = Int(clamping: first.mediaTime)
      let segments = used.reduce(UInt64(0)) { $0 &+ $1.segmentDuration }
      // With no media clock (timescale 0) the edit's length cannot be put in media time: nothing
      // is trimmed from the end rather than everything.
      if let movieScale = reader.movie?.timescale, movieScale > 0, segments > 0, timescale > 0 {
        let shown = UInt64((Double(segments) * Double(timescale) / Double(movieScale)).rounded())
        let afterPriming = total > UInt64(priming) ? total - UInt64(priming) : 0
        endTrim = afterPriming > shown ? Int(clamping: afterPriming - shown) : 0
      }
      if explained && (used.count > 1 || used.count < track.edits.count) {
        diagnostics.append(
          Diagnostic(
            code: .mp4ComplexEditList, severity: .info,
            message:
              "the edit list has \(track.edits.count) entries; only the first media time and the total duration are used"
          ))
      }
    } else if let gapless = reader.movie?.gapless, let config = reader.config, config.outputSampleRate > 0 {
      // iTunes gapless metadata: its counts are at the output rate, converted into the media
      // timescale; samples fewer than it claims (a file cut short) are never trimmed twice.
      let scale = Double(timescale == 0 ? UInt64(config.outputSampleRate) : timescale)
      func media(_ count: UInt64) -> UInt64 {
        UInt64((Double(count) * scale / Double(config.outputSampleRate)).rounded())
      }
      priming = Int(clamping: media(gapless.delay))
      let afterPriming = total > UInt64(priming) ? total - UInt64(priming) : 0
      let valid = media(gapless.validCount)
      endTrim = afterPriming > valid && gapless.validCount > 0 ? Int(clamping: afterPriming - valid) : 0
      if explained {
        diagnostics.append(
          Diagnostic(
            code: .mp4GaplessMetadata, severity: .info,
            message:
              "iTunes gapless metadata (iTunSMPB) gives an encoder delay of \(gapless.delay) samples, "
              + "\(gapless.padding) of padding and \(gapless.validCount) valid samples; they are used, as FORMAT.md says"
          ))
      }
    } else if let config = reader.config, config.outputSampleRate > 0 {
      // No edit list (ffmpeg's fragmented output, Apple's Voice Memos): assume the AAC encoder's
      // usual delay (FORMAT.md §2.3 gives the evidence for 1024 over Apple's 2112).
      let frame = config.sbr ? 2048 : 1024
      // Converted into the media timescale; a timescale of 0 converts nothing, so the priming
      // stays in audio samples for the player to drop.
      priming =
        timescale == 0
        ? frame : Int((Double(frame) * Double(timescale) / Double(config.outputSampleRate)).rounded())
      // A finished file's track (or movie) header gives the length it presents: the end is
      // trimmed to it, never extended, so a file cut short is not trimmed twice.
      if !reader.fragmented, let shown = Self.presented(reader), timescale > 0 {
        let afterPriming = total > UInt64(priming) ? total - UInt64(priming) : 0
        endTrim = afterPriming > shown ? Int(clamping: afterPriming - shown) : 0
      }
      if explained {
        diagnostics.append(
          Diagnostic(
            code: .mp4PrimingAssumed, severity: .info,
            message:
              "no edit list or gapless metadata gives the encoder delay, so \(frame) samples are assumed, as FORMAT.md says"
          ))
      }
    }
    guard reader.problem == nil else { return }
    // The listing and the browser give the reason in plain words; inspect and lint name the box.
    var detail: String?
    if timescale == 0 {
      unreadableReason =
        "the file does not say how fast its clock runs, so its length is unknown; it still plays"
      detail =
        "the audio track's clock rate (mdhd timescale) is 0, so its length cannot be worked out; it still plays"
    } else if total == 0 {
      unreadableReason = "the file gives its audio no duration, so its length is unknown; it still plays"
      detail =
        "the index gives every sample a duration of zero, so the length cannot be worked out; it still plays"
    }
    if let detail {
      diagnostics.append(Diagnostic(code: .mp4LengthUnreadable, severity: .warning, message: detail))
      return
    }
    let kept = total > UInt64(priming + endTrim) ? total - UInt64(priming + endTrim) : 0
    seconds = Double(kept) / Double(timescale)
  }
}
