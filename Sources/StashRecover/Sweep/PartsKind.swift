import StashFormat

/// The two kinds of parts a recording writes, in the order the sweep assembles them.
public enum PartsKind: String, Sendable, CaseIterable, Comparable {
  /// `transcription.NNNN.vtt`, assembled into `<base>_transcription.vtt`.
  case transcript
  /// `track.NNNN.gpx`, assembled into `<base>_track.gpx`.
  case route

  /// The finished file this kind assembles into.
  public var finishedFile: MemoFileKind { self == .transcript ? .transcript : .route }

  /// The parts name of part `number`.
  public func partName(_ number: Int) -> PartName {
    self == .transcript ? .transcript(number) : .route(number)
  }

  /// Transcripts sort (and are assembled) before routes.
  public static func < (lhs: PartsKind, rhs: PartsKind) -> Bool { lhs == .transcript && rhs == .route }
}
