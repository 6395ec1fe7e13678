/// The stable code of everything StashFormat reports: each reader's diagnostics (the codes lint,
/// `inspect`, `ls --json` and the browser give a problem) and the errors it throws. The raw value
/// is the published code, such as `vtt-bad-timestamp`: never rename one, only add.
extension FormatError {
  public enum Code: String, Sendable, Hashable, CaseIterable {
    // MARK: The folder reader (FORMAT.md §1.8).
    /// A transcript, route or title with no audio and no parts beside it.
    case folderOrphan = "folder-orphan"
    /// A name that would be a Stash name after a small correction.
    case folderNearMiss = "folder-near-miss"
    /// A name Stash does not write.
    case folderUnrecognised = "folder-unrecognised"
    /// Bases that differ only in case or Unicode normalisation: one on the phone's file system.
    case folderNameCollision = "folder-name-collision"
    /// A memo's name is a folder, FIFO, socket, device or dangling symlink where a file belongs.
    case folderNotAFile = "folder-not-a-file"
    /// A capture has parts but no audio file.
    case folderCaptureWithoutAudio = "folder-capture-without-audio"
    /// Parts wait with no finished file of their kind: the recovery sweep assembles them.
    case folderNeedsRecovery = "folder-needs-recovery"
    /// Parts were kept beside a finished file: an assembly with gaps.
    case folderPartsBesideFinished = "folder-parts-beside-finished"
    /// The `track.withdrawn` marker: a route withdrawal that may be unfinished.
    case folderRouteWithdrawn = "folder-route-withdrawn"
    /// An empty parts folder (not a sign of a crash).
    case folderPartsEmpty = "folder-parts-empty"
    /// A parts folder holding only files Stash does not write (not a sign of a crash).
    case folderPartsStrangers = "folder-parts-strangers"
    /// A parts folder that cannot be read.
    case folderPartsUnreadable = "folder-parts-unreadable"
    // The next three are given only to audio whose summary carries no reader code (the audio is
    // not a file); otherwise the audio's condition has its `mp4-` code (FORMAT.md §1.8).
    /// The audio cannot be played at all.
    case folderAudioDamaged = "folder-audio-damaged"
    /// The audio was cut short by a kill; it plays up to its last whole sample.
    case folderAudioCutShort = "folder-audio-cut-short"
    /// The audio plays but its length cannot be read.
    case folderAudioLengthUnreadable = "folder-audio-length-unreadable"

    // MARK: The title reader (FORMAT.md §5).
    /// A title file with no text.
    case titleEmpty = "title-empty"
    /// A title that spans lines.
    case titleSpansLines = "title-spans-lines"
    /// A title that is not UTF-8.
    case titleNotUTF8 = "title-not-utf8"
    /// A title longer than 200 characters.
    case titleTooLong = "title-too-long"
    /// A title holding control characters.
    case titleControlCharacter = "title-control-character"
    /// A title starting with a byte order mark.
    case titleByteOrderMark = "title-byte-order-mark"
    /// A title file that cannot be read.
    case titleUnreadable = "title-unreadable"

    // MARK: The MP4 reader (FORMAT.md §2, docs/inspect-audio.md).
    /// Audio with no index (`moov`).
    case mp4NoIndex = "mp4-no-index"
    /// An index with no sound track.
    case mp4NoAudioTrack = "mp4-no-audio-track"
    /// A sound track in a codec other than AAC.
    case mp4NotAAC = "mp4-not-aac"
    /// AAC whose decoder configuration cannot be read.
    case mp4BadAudioConfig = "mp4-bad-audio-config"
    /// A file that ends inside its index (`moov`).
    case mp4IndexCutOff = "mp4-index-cut-off"
    /// An index whose samples all lie outside the file.
    case mp4AudioOutsideFile = "mp4-audio-outside-file"
    /// Encrypted AAC (`enca`).
    case mp4Encrypted = "mp4-encrypted"
    /// No whole sample in the file.
    case mp4NoAudio = "mp4-no-audio"
    /// The last box runs past the end of the file.
    case mp4TornTail = "mp4-torn-tail"
    /// The index places samples past the end of the file.
    case mp4MissingSamples = "mp4-missing-samples"
    /// Audio whose length cannot be read.
    case mp4LengthUnreadable = "mp4-length-unreadable"
    /// No edit list or gapless metadata gives the priming.
    case mp4PrimingAssumed = "mp4-priming-assumed"
    /// ITunes gapless metadata gives the priming and padding.
    case mp4GaplessMetadata = "mp4-gapless-metadata"
    /// An edit list of more than one edit.
    case mp4ComplexEditList = "mp4-complex-edit-list"
    /// AAC-LC at 24 kHz or below whose config does not say whether SBR is used.
    case mp4SbrNotSignalled = "mp4-sbr-not-signalled"
    /// A box claims more room than its container has.
    case mp4BadBoxSize = "mp4-bad-box-size"
    /// Sample tables that disagree or overrun.
    case mp4BadSampleTable = "mp4-bad-sample-table"
    /// A broken movie fragment.
    case mp4BadFragment = "mp4-bad-fragment"
    /// Boxes nested deeper than the reader follows.
    case mp4TooDeep = "mp4-too-deep"
    /// An Apple Voice Memos transcript (`tsrp`) that cannot be read, or times in it that go back.
    case mp4BadTranscript = "mp4-bad-transcript"

    // MARK: The WebVTT parser (FORMAT.md §3), each with its severity (`webVTTSeverity`).
    /// Bytes that are not UTF-8 were read as U+FFFD.
    case vttNotUTF8 = "vtt-not-utf8"
    /// NUL characters were read as U+FFFD.
    case vttNullCharacter = "vtt-null-character"
    /// The file does not start with `WEBVTT`: nothing in it is read.
    case vttNoSignature = "vtt-no-signature"
    /// The signature line is not followed by a blank line.
    case vttHeaderNoBlankLine = "vtt-header-no-blank-line"
    /// Header lines a known writer adds (YouTube's `Kind:`/`Language:`, HLS's `X-TIMESTAMP-MAP`),
    /// which the parser ignores.
    case vttHeaderMetadata = "vtt-header-metadata"
    /// A line with `-->` follows other lines of a block without a blank line between.
    case vttMissingBlankLine = "vtt-missing-blank-line"
    /// A cue timestamp is malformed, so the cue is dropped.
    case vttBadTimestamp = "vtt-bad-timestamp"
    /// A timestamp the parser accepts but the syntax does not (one-digit hours).
    case vttTimestampForm = "vtt-timestamp-form"
    /// The timing line lacks `-->` between the times, so the cue is dropped.
    case vttBadArrow = "vtt-bad-arrow"
    /// `-->` is not separated from the times by spaces or tabs.
    case vttArrowSpacing = "vtt-arrow-spacing"
    /// A cue ends at or before its start.
    case vttEndNotAfterStart = "vtt-end-not-after-start"
    /// A cue starts before the cue before it.
    case vttCueOutOfOrder = "vtt-cue-out-of-order"
    /// A cue setting is unknown or has a value the spec ignores.
    case vttBadSetting = "vtt-bad-setting"
    /// A cue setting is given twice.
    case vttDuplicateSetting = "vtt-duplicate-setting"
    /// A cue names a region no REGION block defines.
    case vttUnknownRegion = "vtt-unknown-region"
    /// A cue has a region and also vertical, line or size, which take it out of the region.
    case vttRegionConflict = "vtt-region-conflict"
    /// A region setting is unknown or has a value the spec ignores.
    case vttBadRegionSetting = "vtt-bad-region-setting"
    /// A region setting is given twice.
    case vttDuplicateRegionSetting = "vtt-duplicate-region-setting"
    /// A region has no id, or the same id as an earlier one.
    case vttBadRegionID = "vtt-bad-region-id"
    /// A STYLE block after the first cue, ignored.
    case vttStyleAfterCue = "vtt-style-after-cue"
    /// A REGION block after the first cue, ignored.
    case vttRegionAfterCue = "vtt-region-after-cue"
    /// A block that is no cue, note, style or region, ignored.
    case vttStrayText = "vtt-stray-text"
    /// A NOTE block with `-->` on its second line, which makes it a cue.
    case vttNoteWithArrow = "vtt-note-with-arrow"
    /// A start tag that is not a WebVTT tag, ignored.
    case vttUnknownTag = "vtt-unknown-tag"
    /// `<rt>` outside `<ruby>`, ignored.
    case vttRtOutsideRuby = "vtt-rt-outside-ruby"
    /// `<v>` or `<lang>` without its annotation, or another tag with one.
    case vttBadAnnotation = "vtt-bad-annotation"
    /// A tag still open at the end of its cue.
    case vttUnclosedTag = "vtt-unclosed-tag"
    /// An end tag that does not close the innermost open tag.
    case vttMisnestedTag = "vtt-misnested-tag"
    /// An end tag with nothing open to close.
    case vttStrayEndTag = "vtt-stray-end-tag"
    /// Tags nested deeper than the parser builds.
    case vttNestingTooDeep = "vtt-nesting-too-deep"
    /// An inline `<…>` timestamp that does not parse, ignored.
    case vttBadInlineTimestamp = "vtt-bad-inline-timestamp"
    /// An inline timestamp not strictly inside its cue's times.
    case vttTimestampOutsideCue = "vtt-timestamp-outside-cue"
    /// An inline timestamp not after the previous one in its cue.
    case vttTimestampNotIncreasing = "vtt-timestamp-not-increasing"
    /// A bare `&` or a malformed character reference.
    case vttBadCharacterReference = "vtt-bad-character-reference"
    /// A `NOTE stash …` block Stash cannot read.
    case vttBadStashNote = "vtt-bad-stash-note"
    /// A `NOTE stash missing-speech` block after the first cue (still read).
    case vttStashNoteAfterCue = "vtt-stash-note-after-cue"
    /// More problems than the parser lists; the rest are counted.
    case vttTooManyDiagnostics = "vtt-too-many-diagnostics"

    // MARK: The GPX reader (FORMAT.md §4, docs/inspect-route.md).
    /// An empty route file.
    case gpxEmpty = "gpx-empty"
    /// A route file that is not XML.
    case gpxNotXML = "gpx-not-xml"
    /// XML whose root is not `<gpx>`.
    case gpxNotGPX = "gpx-not-gpx"
    /// A route file that stops before `</gpx>`.
    case gpxTruncated = "gpx-truncated"
    /// XML that breaks mid-file.
    case gpxMalformed = "gpx-malformed"
    /// Runaway entity expansion.
    case gpxEntityRefused = "gpx-entity-refused"
    /// Elements nested more than 1,024 deep.
    case gpxTooDeep = "gpx-too-deep"
    /// A point without a numeric `lat` or `lon`.
    case gpxBadCoordinate = "gpx-bad-coordinate"
    /// An external entity declaration.
    case gpxExternalEntity = "gpx-external-entity"
    /// `<gpx>` with no namespace.
    case gpxNoNamespace = "gpx-no-namespace"
    /// A latitude beyond ±90 or longitude beyond ±180.
    case gpxCoordinateOutOfRange = "gpx-coordinate-out-of-range"
    /// A number field that is not a number.
    case gpxBadNumber = "gpx-bad-number"
    /// A `<time>` that is not an xsd:dateTime.
    case gpxBadTime = "gpx-bad-time"
    /// A `<time>` with no zone.
    case gpxTimeWithoutZone = "gpx-time-without-zone"
    /// A point, segment or track outside its parent.
    case gpxMisplacedElement = "gpx-misplaced-element"
    /// `<bounds>` without four numbers.
    case gpxBadBounds = "gpx-bad-bounds"
    /// A text field over 64 KiB.
    case gpxTextTooLong = "gpx-text-too-long"
    /// Bytes after `</gpx>`.
    case gpxTrailingData = "gpx-trailing-data"
    /// A negative speed.
    case gpxInvalidSpeed = "gpx-invalid-speed"
    /// A course outside 0–360.
    case gpxInvalidCourse = "gpx-invalid-course"
    /// A negative accuracy.
    case gpxInvalidAccuracy = "gpx-invalid-accuracy"

    // MARK: The bookmarks reader (FORMAT.md §8).
    /// A bookmarks file that cannot be read, or is not the WebVTT a bookmarks file is.
    case bookmarksBroken = "bookmarks-broken"
    /// A bookmark at or past the audio's end.
    case bookmarksPastEnd = "bookmarks-past-end"
    /// A bookmark's cue before the cue of an earlier moment.
    case bookmarksOutOfOrder = "bookmarks-out-of-order"
    /// A bookmark's cue that does not end where the next bookmark (or the audio) begins.
    case bookmarksNotChained = "bookmarks-not-chained"

    // MARK: Files: read by every reader.
    /// A memo file that cannot be read.
    case lintFileUnreadable = "lint-file-unreadable"

    // MARK: Errors thrown, never a diagnostic.
    /// The folder itself cannot be read: nothing is listed (FORMAT.md §1.8).
    case folderUnreadable = "folder-unreadable"
    /// A system call failed; the message gives strerror's words.
    case io = "io"
    /// The name is a folder, FIFO, socket or device, not a regular file: it is not read.
    case notAFile = "not-a-file"
    /// The file is larger than the reader accepts.
    case tooLarge = "too-large"
    /// The file's suffix is not one of a memo's kinds.
    case unknownKind = "unknown-kind"
  }
}
