/// StashFormat reads a Stash memo folder as it is: the folder, MP4 audio, WebVTT transcripts, GPX
/// routes and titles. It never writes.
public enum StashFormat {
  /// The version of the stash tools, printed by `--version`.
  public static let version = "0.1.0"
}
