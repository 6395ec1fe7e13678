/// Where a memo's recording date came from, in the order they are tried.
public enum DateSource: String, Sendable, Equatable {
  /// The base read as a timestamp.
  case base
  /// The creation time recorded in the audio file.
  case audio
  /// The audio file's (or, for a capture without audio, the parts folder's) modification time.
  case mtime
}
