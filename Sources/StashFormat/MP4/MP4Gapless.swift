/// iTunes gapless metadata: the `iTunSMPB` item (a `----` box with mean `com.apple.iTunes`) that
/// iTunes and Apple's encoders write into moov/udta/meta/ilst. Its counts are in samples at the
/// decoder's output rate (FORMAT.md §2.3).
struct MP4Gapless: Sendable, Equatable {
  /// Encoder delay: samples to drop from the start.
  var delay: UInt64
  /// Padding: samples the encoder added at the end.
  var padding: UInt64
  /// Valid samples: what remains after the delay and before the padding.
  var validCount: UInt64

  /// Parses the item's text: space-separated hex fields, the second to fourth of which are the
  /// delay, the padding and the valid count. Nil when they are missing or not hex.
  init?(text: String) {
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\0" })
    guard fields.count >= 4, let delay = UInt64(fields[1], radix: 16),
      let padding = UInt64(fields[2], radix: 16), let valid = UInt64(fields[3], radix: 16)
    else { return nil }
    self.delay = delay
    self.padding = padding
    validCount = valid
  }
}
