/// StashFormat reads a Stash memo folder as it is: the folder, MP4 audio, WebVTT transcripts, GPX
/// routes and titles. It never writes.
public enum StashFormat {
  /// The version of this source, the first in packaging/changelog: what the programs print when
  /// built with a plain `swift build`. A `make` release build prints the checkout's
  /// (scripts/stamp-version), stamped into the programs alone so a commit recompiles only them.
  public static let version = "0.1.0"
}
