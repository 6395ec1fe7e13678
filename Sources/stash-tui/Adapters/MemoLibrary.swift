import StashBrowser
import StashSearch

/// Where the browser's memos come from: the folder reading, a memo's transcript and route, and
/// the text searched by the filter. The real readers sit behind it; the update step never sees it.
protocol MemoLibrary: AnyObject {
  /// The folder's memos from one reading of its names, newest first, each `pending` (nothing
  /// opened yet), or why the folder cannot be read.
  func list() -> (rows: MemoList, error: String?)
  /// The rows of the memos at `indices` of the last `list` (`MemoList.listingIndex`), read in
  /// full now, each with its index; callable from any thread. An index out of range is left out.
  func read(_ indices: [Int]) -> [(index: Int, row: MemoRow)]
  /// The transcript and route of the memo `base`.
  func detail(of base: String) -> MemoDetail
  /// A search of the last reading's memos for `pattern` (`FolderSearch`, as `stash search`
  /// searches), nil when there is no reading.
  func search(_ pattern: SearchPattern, scope: FolderSearch.Scope, wanted: FolderSearch.Wanted)
    -> FolderSearch?
  /// The path of the memo's audio file.
  func audioPath(of base: String) -> String
  /// How many of the folder's names belong to no memo, as `stash ls` counts them; nil when the
  /// folder cannot be read. Reads the folder's names again: call it off the interface thread.
  func otherFileCount() -> Int?
}

/// The writes the browser asks for: title, deletion, recovery. Each returns how it ended.
protocol MemoEditor: AnyObject {
  /// Writes the title atomically; an empty title removes the file.
  func setTitle(base: String, title: String) -> ActionOutcome
  /// Adds a bookmark at `at` without a note; `audioLength` bounds it when known.
  func addBookmark(base: String, at: Double, audioLength: Double?) -> ActionOutcome
  /// Gives the bookmark at `at` the note `note` (empty removes it).
  func annotateBookmark(base: String, at: Double, note: String, audioLength: Double?) -> ActionOutcome
  /// Removes the bookmark at `at`.
  func removeBookmark(base: String, at: Double, audioLength: Double?) -> ActionOutcome
  /// The folder clips are saved in, remembered from an earlier run, or nil.
  var clipFolder: String? { get }
  /// The folder offered the first time a clip is saved.
  var suggestedClipFolder: String? { get }
  /// Saves `from`–`to` of the memo `base` (titled `title`, recorded at `recordedAt`) as a clip in
  /// `folder` under a name no file has; `remember` keeps the folder for the next run.
  func saveClip(
    base: String, from: Double, to: Double, folder: String, remember: Bool, title: String, recordedAt: Double
  ) -> ActionOutcome
  /// Deletes the memo's files, to the Trash or permanently.
  func delete(base: String, permanently: Bool) -> ActionOutcome
  /// Runs the recovery sweep over the folder.
  func recover() -> ActionOutcome
  /// What the recovery sweep would do (a dry run), as a `.plan`.
  func planRecovery() -> ActionOutcome
  /// Runs the recovery sweep accepting the losses parts were kept for (`--accept-loss`); the report.
  func acceptLoss() -> ActionOutcome
  /// The folder memos can be imported from, or nil.
  var importSource: String? { get }
  /// What an import from `importSource` would do (a dry run), as a `.plan`.
  func planImport() -> ActionOutcome
  /// Imports what is complete in `importSource`; the report.
  func importMemos() -> ActionOutcome
}

/// The player as the browser drives it: commands go in, snapshots come out, and nothing here
/// blocks the interface.
protocol PlayerControl: AnyObject {
  /// Starts playing `path` (the memo `base`) from `from` seconds.
  func play(path: String, base: String, from: Double, duration: Double?)
  /// Pauses, or resumes when paused.
  func togglePause()
  /// Moves to `seconds`.
  func seek(to seconds: Double)
  /// Stops and lets go of the memo.
  func stop()
  /// Plays at `speed` (0.5...3, pitch kept), for this memo and the next; or, when it cannot,
  /// stays at 1× and says why.
  func setSpeed(_ speed: Double) -> String?
  /// Sets the software gain, 0...150 %.
  func setVolume(_ percent: Int)
  /// Mutes or unmutes.
  func setMuted(_ muted: Bool)
  /// Turns voice boost on or off; why not, when the filter library cannot be used.
  func setVoiceBoost(_ on: Bool) -> String?
  /// Turns the noise reduction on or off; why not, when the filter library cannot be used.
  func setEnhance(_ on: Bool) -> String?
  /// Shortens long pauses at `level`, or plays them whole (nil).
  func setSkipSilence(_ level: PlayerSnapshot.SilenceSkip?)
  /// Plays from `from` to `to` (memo seconds) over and over, in the memo loaded.
  func setLoop(from: Double, to: Double)
  /// Ends the loop.
  func clearLoop()
  /// The state now.
  func snapshot() -> PlayerSnapshot
}
