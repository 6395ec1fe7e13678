/// Why an audio file has nothing playable, in words a person understands, with a stable code.
enum MP4Problem: Error, Equatable, Sendable {
  /// No `moov` box: the writer never flushed its index.
  case noMovie
  /// An index with no sound track in it.
  case noAudioTrack
  /// A sound track in a codec other than AAC.
  case notAAC(String)
  /// An AAC track whose decoder configuration cannot be read.
  case unreadableConfig(String)
  /// An index that lists no sample lying wholly in the file.
  case noWholeSample(fragmented: Bool)

  /// The diagnostic code for lint and `inspect`.
  var code: String {
    switch self {
    case .noMovie: "mp4-no-index"
    case .noAudioTrack: "mp4-no-audio-track"
    case .notAAC: "mp4-not-aac"
    case .unreadableConfig: "mp4-bad-audio-config"
    case .noWholeSample: "mp4-no-audio"
    }
  }

  /// The reason, in plain words.
  var message: String {
    switch self {
    case .noMovie:
      "the recording has no index: the app was killed before its first flush, so there is nothing to play"
    case .noAudioTrack:
      "the file has no audio track, so there is nothing to play"
    case .notAAC(let detail):
      "the audio is not AAC (\(detail)), so it cannot be played"
    case .unreadableConfig(let detail):
      "the audio's decoder settings cannot be read (\(detail)), so it cannot be played"
    case .noWholeSample(let fragmented):
      fragmented
        ? "the recording holds no complete piece of audio: the app was killed before its first fragment was written, so there is nothing to play"
        : "the index lists no audio that is in the file, so there is nothing to play"
    }
  }
}
