/// What the `moov` box says: the movie's clock and creation time, its tracks, and the defaults
/// fragments inherit (`mvex`/`trex`).
struct MP4Movie: Sendable {
  /// mvhd timescale (units per second of edit-list segment durations).
  var timescale: UInt32 = 0
  /// mvhd creation time, seconds since 1904-01-01 UTC; 0 when the writer left it unset.
  var creationTime: UInt64 = 0
  /// mvhd duration in the movie timescale; 0 when unknown.
  var duration: UInt64 = 0
  /// iTunes gapless metadata (`iTunSMPB` in moov/udta/meta/ilst), when the file carries it.
  var gapless: MP4Gapless?
  var tracks: [MP4Track] = []
  /// `trex` defaults by track ID.
  var trackExtends: [UInt32: MP4TrackExtends] = [:]
  /// Whether an `mvex` box announces fragments.
  var hasMovieExtends = false

  /// The audio track: the first `soun` track whose sample entry is `mp4a`, else the first `soun` track.
  var audioTrack: MP4Track? {
    let sound = tracks.filter { $0.handler == .soun }
    return sound.first { $0.sampleEntryType == .mp4a } ?? sound.first
  }
}

/// One `trak`: its ID, kind, media clock, audio description, edit list and sample table.
struct MP4Track: Sendable {
  /// The `trak` box itself, for readers of what else it holds (a Voice Memos transcript).
  var box: MP4BoxHeader?
  var trackID: UInt32 = 0
  /// hdlr handler type (`soun` for audio).
  var handler: FourCC?
  /// mdhd timescale: units per second of every sample duration and decode time.
  var timescale: UInt32 = 0
  /// The first sample entry's type (`mp4a` for AAC).
  var sampleEntryType: FourCC?
  /// tkhd duration in the movie timescale; 0 when unknown.
  var duration: UInt64 = 0
  /// The channel count the sample entry states.
  var entryChannelCount = 0
  /// The whole `mp4a` sample entry box, header included, as the file holds it (empty for another
  /// entry type, or one larger than `MP4Parser.sampleEntryLimit`): what a clip copies.
  var sampleEntry: [UInt8] = []
  /// The AudioSpecificConfig bytes from `esds`, or why there are none.
  var audioSpecificConfig: Result<[UInt8], MP4Problem> = .failure(
    .unreadableConfig("the track has no sample description"))
  var edits: [MP4Edit] = []
  var table = MP4SampleTable()
}

/// One edit-list entry: `mediaTime` −1 is an empty edit (a pause before the media starts).
struct MP4Edit: Sendable, Equatable {
  /// In the movie timescale.
  var segmentDuration: UInt64
  /// In the media timescale.
  var mediaTime: Int64
}

/// `trex`: what a fragment's samples are when neither `tfhd` nor `trun` says.
struct MP4TrackExtends: Sendable, Equatable {
  var descriptionIndex: UInt32 = 1
  var duration: UInt32 = 0
  var size: UInt32 = 0
  var flags: UInt32 = 0
}
