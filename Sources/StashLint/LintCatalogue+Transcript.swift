import StashFormat

extension LintCatalogue {
  /// Every WebVTT parser code, with the parser's own severity (`FormatError.Code.webVTTSeverity`).
  package static let transcript: [LintRule] = FormatError.Code.webVTT.map { code in
    let (summary, reason, fix) = transcriptText(code)
    return LintRule(code: code, severity: code.webVTTSeverity, summary: summary, reason: reason, fix: fix)
  }

  // swift-format-ignore
  private static func transcriptText(_ code: FormatError.Code) -> (String, String, String) {
    switch code {
    case .vttNotUTF8: ("bytes that are not UTF-8", "WebVTT is UTF-8; other bytes read as U+FFFD and words are lost.", "Re-save the transcript as UTF-8.")
    case .vttNullCharacter: ("NUL characters in the text", "NULs read as U+FFFD; they are a sign of a torn or padded write.", "Remove the NUL bytes (`tr -d '\\000'`).")
    case .vttNoSignature: ("no `WEBVTT` signature", "Without the signature nothing in the file is read.", "Make `WEBVTT` the first line.")
    case .vttHeaderNoBlankLine: ("no blank line after the header", "Players may read the first cue as part of the header.", "Put a blank line after the `WEBVTT` header.")
    case .vttHeaderMetadata: ("header lines another writer adds", "YouTube writes `Kind:` and `Language:`, HLS requires `X-TIMESTAMP-MAP` in every segment; the WebVTT parser ignores header text, so nothing is lost.", "Nothing.")
    case .vttMissingBlankLine: ("a `-->` line inside a block", "Cues must be separated by blank lines; the cue is lost or merged.", "Add a blank line before the timing line.")
    case .vttBadTimestamp: ("a malformed cue timestamp", "The cue is dropped: its words are never shown.", "Write the time as `hh:mm:ss.ttt` or `mm:ss.ttt`.")
    case .vttTimestampForm: ("a timestamp the syntax does not allow", "One-digit hours are read, but other players reject them.", "Write hours with two digits (`01:02:03.000`).")
    case .vttBadArrow: ("a timing line without `-->`", "The cue is dropped.", "Write `START --> END`.")
    case .vttArrowSpacing: ("`-->` not separated by spaces", "Other players may reject the cue.", "Put a space on each side of `-->`.")
    case .vttEndNotAfterStart: ("a cue that ends at or before its start", "The cue is never shown.", "Give the cue an end after its start.")
    case .vttCueOutOfOrder: ("a cue that starts before the cue before it", "Cues must be in start order; players skip or misplace it.", "Sort the cues by start time.")
    case .vttBadSetting: ("an unknown or invalid cue setting", "The setting is ignored.", "Fix or remove the setting.")
    case .vttDuplicateSetting: ("a cue setting given twice", "Only the last one counts.", "Keep one of them.")
    case .vttUnknownRegion: ("a cue naming an undefined region", "The region setting is ignored.", "Define the region in a REGION block, or remove the setting.")
    case .vttRegionConflict: ("a region with vertical, line or size", "Those settings take the cue out of its region.", "Remove the region or the conflicting setting.")
    case .vttBadRegionSetting: ("an unknown or invalid region setting", "The setting is ignored.", "Fix or remove the setting.")
    case .vttDuplicateRegionSetting: ("a region setting given twice", "Only the last one counts.", "Keep one of them.")
    case .vttBadRegionID: ("a region with no id or a repeated id", "Cues cannot refer to it reliably.", "Give each region a unique id.")
    case .vttStyleAfterCue: ("a STYLE block after the first cue", "It is ignored.", "Move STYLE blocks before the first cue.")
    case .vttRegionAfterCue: ("a REGION block after the first cue", "It is ignored.", "Move REGION blocks before the first cue.")
    case .vttStrayText: ("text that is no cue, note, style or region", "It is ignored; often a cue whose timing line was lost.", "Restore the timing line, or make the text a NOTE.")
    case .vttNoteWithArrow: ("a NOTE with `-->` on its second line", "That makes it a cue, not a comment.", "Remove the `-->` from the note.")
    case .vttUnknownTag: ("a tag that is not a WebVTT tag", "The tag is ignored; its text is kept.", "Use `<c>`, `<i>`, `<b>`, `<u>`, `<v>`, `<lang>`, `<ruby>` or `<rt>`.")
    case .vttRtOutsideRuby: ("`<rt>` outside `<ruby>`", "The tag is ignored.", "Put `<rt>` inside `<ruby>`.")
    case .vttBadAnnotation: ("a tag with a missing or stray annotation", "`<v>` and `<lang>` need one; other tags take none.", "Add or remove the annotation.")
    case .vttUnclosedTag: ("a tag still open at the end of its cue", "It is closed there; styling may spread further than meant.", "Close the tag.")
    case .vttMisnestedTag: ("an end tag that does not close the innermost tag", "Tags are closed in an order that was not meant.", "Close tags in reverse order of opening.")
    case .vttStrayEndTag: ("an end tag with nothing to close", "It is ignored.", "Remove it.")
    case .vttNestingTooDeep: ("tags nested too deep", "The deeper tags are flattened.", "Simplify the markup.")
    case .vttBadInlineTimestamp: ("a malformed inline `<timestamp>`", "It is ignored; word timing is lost.", "Write it as `<hh:mm:ss.ttt>`.")
    case .vttTimestampOutsideCue: ("an inline timestamp outside its cue", "Word timing outside the cue's span is meaningless.", "Keep inline timestamps between the cue's start and end.")
    case .vttTimestampNotIncreasing: ("an inline timestamp not after the previous one", "Word timing runs backwards.", "Make inline timestamps increase.")
    case .vttBadCharacterReference: ("a bare `&` or malformed character reference", "Read as written, but other players may not.", "Write `&amp;` for `&`.")
    case .vttBadStashNote: ("a `NOTE stash …` block Stash cannot read", "The missing-speech or part span it meant is lost.", "Write `NOTE stash missing-speech START END` with WebVTT timestamps.")
    case .vttStashNoteAfterCue: ("a `NOTE stash missing-speech` after the first cue", "Still read, but Stash writes them before the first cue.", "Move the note before the first cue.")
    case .vttTooManyDiagnostics: ("more problems than listed", "The parser stops listing after a limit and counts the rest.", "Fix the problems listed, then lint again.")
    // Only `vtt-` codes come here; a new one without its text stops the first lint that builds
    // the catalogue (and so every lint test).
    default: preconditionFailure("\(code.rawValue) is not a WebVTT code, or has no rule text here")
    }
  }
}
