#if canImport(Glibc)
  import Glibc
#endif

/// The equal-power cross-fade the output's joins use (an A-B loop's wrap, a cut in a pause): two
/// unrelated signals (the end of a pass and the audio before the loop's start; two stretches of
/// background) keep their level through it, where a linear fade would dip 3 dB in the middle.
enum CrossFade {
  /// Mixes frames `start..<start + frames` of a fade `length` frames long: `outgoing` (indexed
  /// from the fade's start) fades out into the first `frames` frames of `incoming`, in place.
  static func mix(
    _ outgoing: [Float], from start: Int, into incoming: inout [Float], frames: Int, length: Int,
    channels: Int
  ) {
    for frame in 0..<frames {
      let angle = Float.pi / 2 * (Float(start + frame) + 0.5) / Float(length)
      let fadeOut = cosf(angle)
      let fadeIn = sinf(angle)
      for channel in 0..<channels {
        let i = frame * channels + channel
        incoming[i] = outgoing[(start + frame) * channels + channel] * fadeOut + incoming[i] * fadeIn
      }
    }
  }
}
