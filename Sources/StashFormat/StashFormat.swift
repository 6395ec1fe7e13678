/// StashFormat reads a Stash memo folder as it is: the folder, MP4 audio, WebVTT transcripts, GPX
/// routes and titles. It never writes.
public enum StashFormat {
  /// The version of the stash tools, printed by `--version`. The `make` release build stamps the
  /// checkout's `git describe` into StampedVersion.swift (scripts/stamp-version, which also
  /// defines STASH_STAMPED_VERSION); a plain `swift build` says the last release, which
  /// packaging/changelog names first.
  #if STASH_STAMPED_VERSION
    public static let version = stampedVersion
  #else
    public static let version = "0.1.0"
  #endif
}
