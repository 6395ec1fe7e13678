/// Why an audio file has nothing playable, in words a person understands, with a stable code.
enum MP4Problem: Error, Equatable, Sendable {
  /// No `moov` box: the writer never flushed its index.
  case noMovie
  /// An index with no sound track in it.
  case noAudioTrack
  /// A sound track in a codec other than AAC.
  case notAAC(String)
  /// An encrypted sound track (`enca`), with the protection scheme `schm` names, if any.
  case encrypted(String?)
  /// An AAC track whose decoder configuration cannot be read.
  case unreadableConfig(String)
  /// An index that lists no sample lying wholly in the file.
  case noWholeSample(fragmented: Bool)
  /// An index listing samples of which none lies in the file (the media data is absent).
  case samplesOutsideFile(listed: Int)
  /// The file ends inside its `moov`, before the index is whole.
  case indexCutOff
  /// The file does not begin as an MP4 file does: its first box would be of this type.
  case notMP4(FourCC)

  /// The diagnostic code for lint and `inspect`.
  var code: FormatError.Code {
    switch self {
    case .noMovie, .notMP4: .mp4NoIndex
    case .noAudioTrack: .mp4NoAudioTrack
    case .notAAC: .mp4NotAAC
    case .encrypted: .mp4Encrypted
    case .unreadableConfig: .mp4BadAudioConfig
    case .noWholeSample: .mp4NoAudio
    case .samplesOutsideFile: .mp4AudioOutsideFile
    case .indexCutOff: .mp4IndexCutOff
    }
  }

  /// The reason, in plain words.
  var message: String {
    switch self {
    case .noMovie:
      "the file has no index (no moov box), so there is nothing to play; a recording killed before its first flush looks like this"
    case .noAudioTrack:
      "the file has no audio track, so there is nothing to play"
    case .encrypted(let scheme):
      "the audio is encrypted\(scheme.map { " (scheme '\($0)')" } ?? ""), so it cannot be played without its key"
    case .notAAC(let detail):
      "the audio is not AAC (\(detail)), so it cannot be played"
    case .unreadableConfig(let detail):
      "the audio's decoder settings cannot be read (\(detail)), so it cannot be played"
    case .noWholeSample(let fragmented):
      fragmented
        ? "the recording holds no complete piece of audio: the file ends before its first fragment is whole, so there is nothing to play"
        : "the index lists no audio, so there is nothing to play"
    case .indexCutOff:
      "the file ends inside its index (moov box), so there is nothing to play"
    case .notMP4(let type):
      "the file does not begin as an MP4 file does (its first box would be '\(type)', a type no MP4 file starts with), so it has no index and nothing to play"
    case .samplesOutsideFile(let listed):
      "the index lists \(Text.count(listed, "sample")) but none is wholly in the file (its media data is absent), so there is nothing to play"
    }
  }
}
