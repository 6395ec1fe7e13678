/// What one `moof` says about the audio track: its sequence number, its decode time, and the
/// samples it places in the file (whole or not; the caller checks them against the file's end).
struct MP4Fragment: Sendable {
  /// mfhd sequence_number.
  var sequenceNumber: UInt32?
  /// tfdt of the track's first `traf`, in the media timescale.
  var baseDecodeTime: Int64?
  /// Every sample the fragment declares for the track, in decode order.
  var samples: [AudioSample] = []
}
