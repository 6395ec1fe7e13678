/// Something the browser's logic asks the I/O loop to do; the loop reports back with an event.
package enum BrowserEffect: Equatable, Sendable {
  /// Read the folder again (answered by `.listed`).
  case list
  /// Read a memo's transcript and route (answered by `.detailLoaded`).
  case loadDetail(base: String)
  /// Find the memos whose transcript contains the text, off the interface thread (answered by
  /// `.searchProgress` while it runs and `.transcriptMatches` at the end). A newer generation
  /// supersedes an older search; an empty text only cancels.
  case searchTranscripts(String, generation: Int)
  /// Search what was said in every memo for the words, off the interface thread, newest memo
  /// first (answered by `.spokenHits` in batches as hits are found). A newer generation
  /// supersedes an older search; an empty text only cancels.
  case searchSpoken(String, generation: Int)
  /// Measure the loudness of the memo `base` in the background, from the cells around `from`
  /// outward (answered by `.loudness` as it is known); nil, or a newer one, stops the last.
  case measureLoudness(base: String?, from: Double)
  /// Start playing a memo from a time.
  case play(base: String, from: Double)
  /// Start playing a memo from where it was left off (answered by `.resumed` when it was), else
  /// from the start.
  case resume(base: String)
  /// Pause or resume the player.
  case togglePause
  /// Move the player to a time.
  case seek(Double)
  /// Stop the player and let go of the memo.
  case stop
  /// Play at this speed (memo seconds per second), kept across memos.
  case setSpeed(Double)
  /// Set the software gain, in percent, kept across memos.
  case setVolume(Int)
  /// Mute or unmute (the volume is kept).
  case setMuted(Bool)
  /// Voice boost on or off (`Player.setVoiceBoost`).
  case setVoiceBoost(Bool)
  /// Noise reduction on or off (`Player.setEnhance`).
  case setEnhance(Bool)
  /// Shorten long pauses at this level, or play them whole (`Player.setSkipSilence`).
  case setSkipSilence(PlayerSnapshot.SilenceSkip?)
  /// Play the stretch between two memo times over and over.
  case setLoop(from: Double, to: Double)
  /// Play on past the loop's end.
  case clearLoop
  /// Remember where the memo was left off, for the next time it plays.
  case rememberPosition(base: String, at: Double)
  /// Forget where the memo was left off: it was played to its end.
  case forgetPosition(base: String)
  /// Write the title (empty removes it) (answered by `.actionFinished`).
  case setTitle(base: String, title: String)
  /// Add a bookmark at `at` to the memo `base`, with no note yet (answered by `.bookmarked`).
  case addBookmark(base: String, at: Double)
  /// Give the bookmark at `at` of `base` the note `note`; empty removes it (answered by `.bookmarked`).
  case annotateBookmark(base: String, at: Double, note: String)
  /// Remove the bookmark at `at` of `base` (answered by `.bookmarked`).
  case removeBookmark(base: String, at: Double)
  /// Save `from`–`to` of the memo `base` as a clip (its frames copied) in `folder`, never over a
  /// file; `remember` keeps the folder for the next run (answered by `.clipSaved`).
  case saveClip(base: String, from: Double, to: Double, folder: String, remember: Bool)
  /// Delete a memo's files, to the Trash or for good (answered by `.actionFinished`).
  case delete(base: String, permanently: Bool)
  /// Make the recovery sweep's plan (a dry run), off the interface thread (answered by `.planned`).
  case planRecovery
  /// Run the recovery sweep, off the interface thread (answered by `.recovered`).
  case recover
  /// Run the recovery sweep accepting the losses its report showed (`--accept-loss`), off the
  /// interface thread (answered by `.recovered`).
  case acceptLoss
  /// Make the plan of an import from the import source (a dry run) (answered by `.planned`).
  case planImport
  /// Import what is complete in the import source, off the interface thread (answered by `.imported`).
  case importMemos
  /// Leave.
  case quit
}

/// Something that happened: a key, a mouse event, a resize, the player, the folder or the result
/// of an effect. The update step takes these one at a time.
package enum BrowserEvent: Equatable, Sendable {
  case key(Key)
  case mouse(MouseEvent)
  /// Text the terminal marked as pasted (bracketed paste): typed into an open prompt, never taken
  /// for keys.
  case paste(String)
  case resize(width: Int, height: Int)
  /// A new player snapshot.
  case player(PlayerSnapshot)
  /// The memo started where it was left off, at that time.
  case resumed(base: String, from: Double)
  /// Something went wrong that needs only a word on the status line, in plain words: the saved
  /// places could not be read or written, or the player could not play at the speed asked.
  case warning(String)
  /// The folder was read; or the reason it could not be.
  case listed(MemoList, error: String?)
  /// Memos of the last listing were read in the background: their rows go in the list's places.
  case rowsRead(ReadRows)
  /// The memo selected when the folder was last left: select it (once, as the folder opens).
  case restoreSelection(base: String)
  /// How many of the folder's names belong to no memo (near misses, orphans, strangers; hidden
  /// ones left out), counted as `stash ls` counts them (`FolderSummary.otherFiles`).
  case otherFiles(Int)
  /// What is known of the loudness of a memo so far (`.measureLoudness`).
  case loudness(LoudnessStrip)
  /// A memo's detail was read.
  case detailLoaded(base: String, MemoDetail)
  /// How far the transcript search of that generation has got.
  case searchProgress(generation: Int, done: Int, total: Int)
  /// The memos whose transcript contains the query, for the search of that generation.
  case transcriptMatches(query: String, generation: Int, bases: Set<String>)
  /// Hits of the search of what was said of that generation, found since the last batch (each
  /// memo's hits whole, in the search's order), with how many transcripts were searched of how
  /// many; `finished` on the last batch; and the memos searched since whose transcript is damaged
  /// (searched as far as it reads) or could not be read.
  case spokenHits(
    generation: Int, hits: [SpokenHit], done: Int, total: Int, finished: Bool, troubled: [SpokenTrouble] = [])
  /// A plan was made: `.plan` to ask about, or why it could not be.
  case planned(BrowserModel.Confirmable, ActionOutcome)
  /// The recovery sweep ended.
  case recovered(ActionOutcome)
  /// The import ended.
  case imported(ActionOutcome)
  /// A write finished.
  case actionFinished(ActionOutcome)
  /// A clip was saved, or why not: nothing in the folder changed.
  case clipSaved(ActionOutcome)
  /// A change to the bookmarks of `base` finished: its detail is read again when it shows.
  case bookmarked(base: String, ActionOutcome)
  /// The desktop's media controls (MPRIS) asked for something.
  case remote(RemoteCommand)
  /// The loop is ending (a quit, a signal, the terminal gone): the status line says what it still
  /// waits for.
  case closing
}

/// Rows read, each with its memo's listing index (`MemoList.listingIndex`), as `MemoList.fill`
/// takes them: an event's value, so the list has one owner (the model) and the reader hands over
/// only what it read.
package struct ReadRows: Equatable, Sendable {
  /// The rows, in the order they were read.
  package var rows: [(index: Int, row: MemoRow)]

  /// Rows read, each with its memo's listing index.
  package init(_ rows: [(index: Int, row: MemoRow)]) { self.rows = rows }

  package static func == (lhs: ReadRows, rhs: ReadRows) -> Bool {
    lhs.rows.elementsEqual(rhs.rows) { $0.index == $1.index && $0.row == $1.row }
  }
}

/// How a write to the folder ended.
package enum ActionOutcome: Equatable, Sendable {
  /// Done; a line saying what was done.
  case done(String)
  /// The Trash cannot take the files; the reason. The browser asks before deleting for good.
  case trashUnavailable(base: String, reason: String)
  /// Refused or failed; what happened and what the user can do, in plain words.
  case failed(String)
  /// The recovery sweep's report.
  case report(title: String, lines: [String])
  /// The recovery sweep's report, which kept parts as the sign of a loss that can now be accepted
  /// (as `stash recover --accept-loss` does): the browser asks.
  case lossReport(title: String, lines: [String])
  /// What a write would do, line by line; `hasWork` false when there is nothing to do.
  case plan(title: String, lines: [String], hasWork: Bool)
}
