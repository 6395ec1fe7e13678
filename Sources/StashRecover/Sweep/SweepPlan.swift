/// What a sweep will do, decided from a snapshot alone: a value the CLI prints for `--dry-run` and
/// the performer carries out.
public struct SweepPlan: Sendable, Equatable {
  /// One thing to do for a capture, in order.
  public enum Step: Sendable, Equatable {
    /// Assemble these parts (by number) into the finished file, publish it, then remove the parts
    /// if the chain was unbroken. For a route, consent is asked again just before writing.
    case assemble(PartsKind, parts: [Int])
    /// A finished file already exists beside these parts: remove them only if they run from 0001,
    /// every one reads cleanly, and the file already holds all they hold (an earlier removal was
    /// cut short); otherwise they stay as the sign, unless the loss is accepted
    /// (`SweepOptions.acceptLoss`): then they go once the file holds all they still give.
    case reconcile(PartsKind, parts: [Int])
    /// Finish an interrupted withdrawal of the route: remove these route parts, the finished route
    /// when `finishedRoute`, and the `track.withdrawn` marker last.
    case withdraw(parts: [Int], finishedRoute: Bool)
    /// Repair the audio's torn tail (only with `--repair-audio`). With `recentAge` (the audio, with
    /// no parts beside it, changed that many seconds ago, within the recent window), a torn tail
    /// is left and reported, since the file may still be being written or copied; whole audio is
    /// left without a word.
    case repairAudio(recentAge: Double?)
    /// Remove the parts folder if it is empty by then; otherwise report what it holds.
    case removePartsFolderIfEmpty
  }

  /// Why a capture is left alone.
  public enum Hold: Sendable, Equatable {
    /// Its audio or a part changed `age` seconds ago, within the recent window.
    case possiblyRecording(age: Double)
    /// `<base>.parts` is not a folder (a link, a file): not something Stash wrote.
    case partsNotAFolder
    /// The parts folder, or one of the memo's files, could not be read: `name` (relative to the
    /// folder swept), and the reason, with its path and the error.
    case unreadable(name: String, reason: String)
  }

  /// The plan for one capture.
  public struct Capture: Sendable, Equatable {
    /// The memo's base name.
    public var base: String
    /// Set when the capture is left alone; `steps` is then empty.
    public var hold: Hold?
    /// The steps, in order: a withdrawal, transcripts, routes, audio, then the folder.
    public var steps: [Step]
    /// Names in the parts folder that are not Stash's; they are never touched.
    public var strangers: [String]
  }

  /// The folder swept.
  public var folder: String
  /// Leftover temporary files to remove first.
  public var temporaries: [String]
  /// Per capture, sorted by base.
  public var captures: [Capture]
}
