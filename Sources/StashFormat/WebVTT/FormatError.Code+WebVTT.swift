extension FormatError.Code {
  /// The WebVTT parser's codes, in the order the rule index lists them.
  package static let webVTT: [Self] = allCases.filter { $0.reader == .webVTT }

  /// How much a WebVTT problem matters, as the parser reports it. Errors lose data or break other
  /// players; warnings are invalid WebVTT that players read anyway; info only tells. Asked only of
  /// the `vtt-` codes.
  package var webVTTSeverity: Severity {
    switch self {
    case .vttNotUTF8, .vttNoSignature, .vttBadTimestamp, .vttBadArrow, .vttStrayText, .vttStyleAfterCue,
      .vttRegionAfterCue:
      .error
    case .vttEndNotAfterStart, .vttCueOutOfOrder, .vttMissingBlankLine, .vttNoteWithArrow:
      .error
    case .vttTooManyDiagnostics, .vttStashNoteAfterCue, .vttHeaderMetadata:
      .info
    default:
      .warning
    }
  }
}
