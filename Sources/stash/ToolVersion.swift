import StashFormat

/// The version `--version`, the man page and SARIF name: the checkout's `git describe` in a `make`
/// release build (scripts/stamp-version writes StampedVersion.swift beside this file, and the
/// build defines STASH_STAMPED_VERSION), else StashFormat's.
enum ToolVersion {
  #if STASH_STAMPED_VERSION
    static let current = stampedVersion
  #else
    static let current = StashFormat.version
  #endif
}
