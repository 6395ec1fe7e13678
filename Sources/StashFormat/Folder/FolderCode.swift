/// The stable codes of what the folder reader finds; the linter and its rule pages use them, so
/// they are never renamed once published. FORMAT.md §1.6 lists them with their meaning.
public enum FolderCode {
  /// A transcript, route or title with no audio and no parts beside it.
  public static let orphan = "folder-orphan"
  /// A name that would be a Stash name after a small correction.
  public static let nearMiss = "folder-near-miss"
  /// A name Stash does not write.
  public static let unrecognised = "folder-unrecognised"
  /// Bases that differ only in case or Unicode normalisation: one on the phone's file system.
  public static let nameCollision = "folder-name-collision"
  /// A memo's name is a folder, FIFO, socket, device or dangling symlink where a file belongs.
  public static let notAFile = "folder-not-a-file"
  /// The audio cannot be played at all.
  public static let audioDamaged = "folder-audio-damaged"
  /// The audio was cut short by a kill; it plays up to its last whole sample.
  public static let audioCutShort = "folder-audio-cut-short"
  /// The audio plays but its length cannot be read.
  public static let audioLengthUnreadable = "folder-audio-length-unreadable"
  /// Parts wait with no finished file of their kind: the recovery sweep assembles them.
  public static let needsRecovery = "folder-needs-recovery"
  /// A capture has parts but no audio file.
  public static let captureWithoutAudio = "folder-capture-without-audio"
  /// Parts were kept beside a finished file: an assembly with gaps.
  public static let partsBesideFinished = "folder-parts-beside-finished"
  /// The `track.withdrawn` marker: a route withdrawal that may be unfinished.
  public static let routeWithdrawn = "folder-route-withdrawn"
  /// An empty parts folder (not a sign of a crash).
  public static let partsEmpty = "folder-parts-empty"
  /// A parts folder holding only files Stash does not write (not a sign of a crash).
  public static let partsStrangers = "folder-parts-strangers"
  /// A parts folder that cannot be read.
  public static let partsUnreadable = "folder-parts-unreadable"
}
