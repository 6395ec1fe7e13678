extension FormatError.Code {
  /// Which part of StashFormat reports a code: its family, as a type (the text of a code starts
  /// with its family's prefix, but nothing decides by reading the text).
  public enum Reader: Sendable, Hashable, CaseIterable {
    /// The folder reader (FORMAT.md §1.8): `folder-…`.
    case folder
    /// The title reader (§5): `title-…`.
    case title
    /// The MP4 reader (§2): `mp4-…`.
    case mp4
    /// The WebVTT parser (§3): `vtt-…`.
    case webVTT
    /// The GPX reader (§4): `gpx-…`.
    case gpx
    /// The bookmarks reader (§8): `bookmarks-…`.
    case bookmarks
    /// Any reader, about the file itself (`lint-file-unreadable`).
    case files
    /// Errors thrown, never a diagnostic.
    case thrown
  }

  /// The part of StashFormat that reports this code.
  public var reader: Reader {
    switch self {
    case .folderOrphan, .folderNearMiss, .folderUnrecognised, .folderNameCollision, .folderNotAFile,
      .folderCaptureWithoutAudio, .folderNeedsRecovery, .folderPartsBesideFinished, .folderRouteWithdrawn,
      .folderPartsEmpty, .folderPartsStrangers, .folderPartsUnreadable, .folderAudioDamaged,
      .folderAudioCutShort, .folderAudioLengthUnreadable:
      .folder
    case .titleEmpty, .titleSpansLines, .titleNotUTF8, .titleTooLong, .titleControlCharacter,
      .titleByteOrderMark, .titleUnreadable:
      .title
    case .mp4NoIndex, .mp4NoAudioTrack, .mp4NotAAC, .mp4BadAudioConfig, .mp4IndexCutOff,
      .mp4AudioOutsideFile, .mp4Encrypted, .mp4NoAudio, .mp4TornTail, .mp4MissingSamples,
      .mp4LengthUnreadable, .mp4PrimingAssumed, .mp4GaplessMetadata, .mp4ComplexEditList,
      .mp4SbrNotSignalled, .mp4BadBoxSize, .mp4BadSampleTable, .mp4BadFragment, .mp4TooDeep,
      .mp4BadTranscript:
      .mp4
    case .vttNotUTF8, .vttNullCharacter, .vttNoSignature, .vttHeaderNoBlankLine, .vttHeaderMetadata,
      .vttMissingBlankLine, .vttBadTimestamp, .vttTimestampForm, .vttBadArrow, .vttArrowSpacing,
      .vttEndNotAfterStart, .vttCueOutOfOrder, .vttBadSetting, .vttDuplicateSetting, .vttUnknownRegion,
      .vttRegionConflict, .vttBadRegionSetting, .vttDuplicateRegionSetting, .vttBadRegionID,
      .vttStyleAfterCue, .vttRegionAfterCue, .vttStrayText, .vttNoteWithArrow, .vttUnknownTag,
      .vttRtOutsideRuby, .vttBadAnnotation, .vttUnclosedTag, .vttMisnestedTag, .vttStrayEndTag,
      .vttNestingTooDeep, .vttBadInlineTimestamp, .vttTimestampOutsideCue, .vttTimestampNotIncreasing,
      .vttBadCharacterReference, .vttBadStashNote, .vttStashNoteAfterCue, .vttTooManyDiagnostics:
      .webVTT
    case .gpxEmpty, .gpxNotXML, .gpxNotGPX, .gpxTruncated, .gpxMalformed, .gpxEntityRefused, .gpxTooDeep,
      .gpxBadCoordinate, .gpxExternalEntity, .gpxNoNamespace, .gpxCoordinateOutOfRange, .gpxBadNumber,
      .gpxBadTime, .gpxTimeWithoutZone, .gpxMisplacedElement, .gpxBadBounds, .gpxTextTooLong,
      .gpxTrailingData, .gpxInvalidSpeed, .gpxInvalidCourse, .gpxInvalidAccuracy:
      .gpx
    case .bookmarksBroken, .bookmarksPastEnd, .bookmarksOutOfOrder, .bookmarksNotChained:
      .bookmarks
    case .lintFileUnreadable:
      .files
    case .folderUnreadable, .io, .notAFile, .tooLarge, .unknownKind:
      .thrown
    }
  }
}
