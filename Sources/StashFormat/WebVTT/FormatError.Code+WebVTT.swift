/// Every diagnostic the WebVTT parser reports. The raw values are stable codes the linter and its
/// rule pages use: never rename one, only add.
public enum WebVTTDiagnosticCode: String, Sendable, CaseIterable {
  /// Bytes that are not UTF-8 were read as U+FFFD.
  case notUTF8 = "vtt-not-utf8"
  /// NUL characters were read as U+FFFD.
  case nullCharacter = "vtt-null-character"
  /// The file does not start with `WEBVTT`: nothing in it is read.
  case noSignature = "vtt-no-signature"
  /// The signature line is not followed by a blank line.
  case headerNoBlankLine = "vtt-header-no-blank-line"
  /// Header lines a known writer adds (YouTube's `Kind:`/`Language:`, HLS's `X-TIMESTAMP-MAP`),
  /// which the parser ignores.
  case headerMetadata = "vtt-header-metadata"
  /// A line with `-->` follows other lines of a block without a blank line between.
  case missingBlankLine = "vtt-missing-blank-line"
  /// A cue timestamp is malformed, so the cue is dropped.
  case badTimestamp = "vtt-bad-timestamp"
  /// A timestamp the parser accepts but the syntax does not (one-digit hours).
  case timestampForm = "vtt-timestamp-form"
  /// The timing line lacks `-->` between the times, so the cue is dropped.
  case badArrow = "vtt-bad-arrow"
  /// `-->` is not separated from the times by spaces or tabs.
  case arrowSpacing = "vtt-arrow-spacing"
  /// A cue ends at or before its start.
  case endNotAfterStart = "vtt-end-not-after-start"
  /// A cue starts before the cue before it.
  case cueOutOfOrder = "vtt-cue-out-of-order"
  /// A cue setting is unknown or has a value the spec ignores.
  case badSetting = "vtt-bad-setting"
  /// A cue setting is given twice.
  case duplicateSetting = "vtt-duplicate-setting"
  /// A cue names a region no REGION block defines.
  case unknownRegion = "vtt-unknown-region"
  /// A cue has a region and also vertical, line or size, which take it out of the region.
  case regionConflict = "vtt-region-conflict"
  /// A region setting is unknown or has a value the spec ignores.
  case badRegionSetting = "vtt-bad-region-setting"
  /// A region setting is given twice.
  case duplicateRegionSetting = "vtt-duplicate-region-setting"
  /// A region has no id, or the same id as an earlier one.
  case badRegionID = "vtt-bad-region-id"
  /// A STYLE block after the first cue, ignored.
  case styleAfterCue = "vtt-style-after-cue"
  /// A REGION block after the first cue, ignored.
  case regionAfterCue = "vtt-region-after-cue"
  /// A block that is no cue, note, style or region, ignored.
  case strayText = "vtt-stray-text"
  /// A NOTE block with `-->` on its second line, which makes it a cue.
  case noteWithArrow = "vtt-note-with-arrow"
  /// A start tag that is not a WebVTT tag, ignored.
  case unknownTag = "vtt-unknown-tag"
  /// `<rt>` outside `<ruby>`, ignored.
  case rtOutsideRuby = "vtt-rt-outside-ruby"
  /// `<v>` or `<lang>` without its annotation, or another tag with one.
  case badAnnotation = "vtt-bad-annotation"
  /// A tag still open at the end of its cue.
  case unclosedTag = "vtt-unclosed-tag"
  /// An end tag that does not close the innermost open tag.
  case misnestedTag = "vtt-misnested-tag"
  /// An end tag with nothing open to close.
  case strayEndTag = "vtt-stray-end-tag"
  /// Tags nested deeper than the parser builds.
  case nestingTooDeep = "vtt-nesting-too-deep"
  /// An inline `<…>` timestamp that does not parse, ignored.
  case badInlineTimestamp = "vtt-bad-inline-timestamp"
  /// An inline timestamp not strictly inside its cue's times.
  case timestampOutsideCue = "vtt-timestamp-outside-cue"
  /// An inline timestamp not after the previous one in its cue.
  case timestampNotIncreasing = "vtt-timestamp-not-increasing"
  /// A bare `&` or a malformed character reference.
  case badCharacterReference = "vtt-bad-character-reference"
  /// A `NOTE stash …` block Stash cannot read.
  case badStashNote = "vtt-bad-stash-note"
  /// A `NOTE stash missing-speech` block after the first cue (still read).
  case stashNoteAfterCue = "vtt-stash-note-after-cue"
  /// More problems than the parser lists; the rest are counted.
  case tooManyDiagnostics = "vtt-too-many-diagnostics"

  /// How much the problem matters. Errors lose data or break other players; warnings are
  /// invalid WebVTT that players read anyway; info only tells.
  public var severity: Severity {
    switch self {
    case .notUTF8, .noSignature, .badTimestamp, .badArrow, .strayText, .styleAfterCue, .regionAfterCue:
      .error
    case .endNotAfterStart, .cueOutOfOrder, .missingBlankLine, .noteWithArrow:
      .error
    case .tooManyDiagnostics, .stashNoteAfterCue, .headerMetadata:
      .info
    default:
      .warning
    }
  }
}
