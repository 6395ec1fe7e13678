/// A name the phone writes inside a parts folder.
enum PartName: Equatable {
  /// `transcription.NNNN.vtt`.
  case transcript(Int)
  /// `track.NNNN.gpx`.
  case route(Int)
  /// `track.withdrawn`.
  case withdrawn

  /// `transcription.NNNN.vtt`, `track.NNNN.gpx` (four or more digits) or `track.withdrawn`; else nil.
  init?(_ name: String) {
    if name == "track.withdrawn" {
      self = .withdrawn
      return
    }
    for (prefix, suffix, isTranscript) in [("transcription.", ".vtt", true), ("track.", ".gpx", false)]
    where name.hasPrefix(prefix) && name.hasSuffix(suffix)
      && name.utf8.count >= prefix.utf8.count + suffix.utf8.count + 4
    {
      let digits = name.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count)
      guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), digits.count <= 9 else { return nil }
      let number = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
      self = isTranscript ? .transcript(number) : .route(number)
      return
    }
    return nil
  }
}
