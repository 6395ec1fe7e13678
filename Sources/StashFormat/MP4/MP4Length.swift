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
      if let movieScale = reader.movie?.timescale, movieScale > 0, segments > 0 {
        let shown = UInt64((Double(segments) * Double(timescale) / Double(movieScale)).rounded())
        let afterPriming = total > UInt64(priming) ? total - UInt64(priming) : 0
        endTrim = afterPriming > shown ? Int(clamping: afterPriming - shown) : 0
      }
      if explained && (used.count > 1 || used.count < track.edits.count) {
        diagnostics.append(
          Diagnostic(
            code: "mp4-complex-edit-list", severity: .info,
            message:
              "the edit list has \(track.edits.count) entries; only the first media time and the total duration are used"
          ))
      }
    } else if let config = reader.config, config.outputSampleRate > 0 {
      // No edit list (ffmpeg's fragmented output): assume the AAC encoder's usual delay.
      let frame = config.sbr ? 2048 : 1024
      // Converted into the media timescale; a timescale of 0 converts nothing, so the priming
      // stays in audio samples for the player to drop.
      priming =
        timescale == 0
        ? frame : Int((Double(frame) * Double(timescale) / Double(config.outputSampleRate)).rounded())
      if explained {
        diagnostics.append(
          Diagnostic(
            code: "mp4-priming-assumed", severity: .info,
            message:
              "no edit list gives the encoder delay, so \(frame) samples are assumed, as FORMAT.md says"))
      }
    }
    guard reader.problem == nil else { return }
    if timescale == 0 {
      unreadableReason =
        "the audio track's clock rate (mdhd timescale) is 0, so its length cannot be worked out; it still plays"
    } else if total == 0 {
      unreadableReason =
        "the index gives every sample a duration of zero, so the length cannot be worked out; it still plays"
    }
    if let unreadableReason {
      diagnostics.append(
        Diagnostic(code: "mp4-length-unreadable", severity: .warning, message: unreadableReason))
      return
    }
    let kept = total > UInt64(priming + endTrim) ? total - UInt64(priming + endTrim) : 0
    seconds = Double(kept) / Double(timescale)
  }
}
