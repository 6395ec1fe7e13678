/// The browser's whole state: a value the update step changes and the view draws. It performs no
/// I/O; what it needs done it returns as effects.
///
/// Anyone reads its fields; only this module writes them (`package internal(set)`: the update step
/// is split over the `BrowserModel+*.swift` files, which a file's `private(set)` would shut out).
/// The I/O loop and tests change the model by sending it events (`update`), so a change of state
/// has one place to look.
package struct BrowserModel: Equatable, Sendable {
  /// Which pane keys go to (and, on a narrow terminal, which pane is shown).
  package enum Focus: Equatable, Sendable { case list, transcript }

  /// A line being typed at the bottom of the screen.
  package struct Prompt: Equatable, Sendable {
    /// What the typed text is for.
    package enum Purpose: Equatable, Sendable {
      case rename(base: String)
      case goToTime
      case filter
      /// The words of a search of what was said (`S`).
      case search
      /// The note of the bookmark at `at` of the memo `base` (`b`, `e`).
      case bookmarkNote(base: String, at: Double)
      /// The folder clips are saved in, asked the first time one is (`c`), for the clip `from`–`to`
      /// of the memo `base`.
      case clipFolder(base: String, from: Double, to: Double)
    }
    package var purpose: Purpose
    package var text: String
    /// Cursor position in characters.
    package var cursor: Int
    /// The text before editing, restored by Esc.
    package var original: String = ""
    /// Whether the whole text is selected (recalled, not typed): a character typed replaces it,
    /// Backspace removes it, a moving key keeps it.
    package var selected = false
  }

  /// A box over the panes.
  package enum Overlay: Equatable, Sendable {
    case help
    /// A report (recovery, or a refusal naming files); any key but the scroll keys closes it.
    case report(title: String, lines: [String])
    /// Asking before a delete; lists every file that will go.
    case confirmDelete(base: String, files: [String], permanently: Bool, reason: String?)
    /// A plan (what recovery or an import would do), asking before it is carried out.
    case confirm(title: String, lines: [String], action: Confirmable)
  }

  /// A write the browser shows the plan of first, and asks before.
  package enum Confirmable: Equatable, Sendable {
    case recover, importMemos
    /// Accepting the losses a recovery report showed: the transcript notes them, the parts go.
    case acceptLoss
    /// Removing the bookmark at `at` of the memo `base` (`x`).
    case removeBookmark(base: String, at: Double)
  }

  /// Transcripts searched so far, of how many (0 before the first report).
  package struct SearchProgress: Equatable, Sendable {
    package var done: Int
    package var total: Int
  }

  /// The folder shown.
  package let folderPath: String
  /// The user's home folder (`$HOME`), as the runner read it once: the header shows paths under it
  /// from `~`. Nil shows every path in full.
  package let home: String?
  /// Terminal size.
  package internal(set) var width: Int
  package internal(set) var height: Int
  /// Every memo, newest first, as last read.
  package internal(set) var memos = MemoList()
  /// Why the folder could not be read, if it could not.
  package internal(set) var listError: String?
  /// The folder's names that belong to no memo, as last counted (`stash lint` tells what they are).
  package internal(set) var otherFiles = 0
  /// Indices into `memos` that pass the filter.
  package internal(set) var visible: [Int] = []
  /// Position in `visible` of the selected memo.
  package internal(set) var selection: Int = 0
  /// First row of the list shown.
  package internal(set) var listTop: Int = 0
  /// The selected memo's base, so a re-read keeps the selection on the same memo.
  package internal(set) var selectedBase: String?
  /// The selected memo's transcript and route, once read.
  package internal(set) var detail: MemoDetail?
  /// Which pane has the keys.
  package internal(set) var focus: Focus = .list
  /// The cue under the transcript cursor.
  package internal(set) var cueCursor: Int = 0
  /// First transcript line shown.
  package internal(set) var transcriptTop: Int = 0
  /// Whether the transcript follows the spoken cue.
  package internal(set) var following: Bool = true
  /// The filter's text (empty: no filter).
  package internal(set) var filter: String = ""
  /// Memos whose transcript contains `filter`, once searched.
  package internal(set) var transcriptMatches: Set<String> = []
  /// The newest transcript search asked for; results of older ones are ignored.
  package internal(set) var searchGeneration = 0
  /// How far the running transcript search has got (nil: none running).
  package internal(set) var searchProgress: SearchProgress?
  /// The search of what was said across every memo, while its hit list is open (`S`).
  package internal(set) var spokenSearch: SpokenSearch?
  /// The newest search of what was said asked for; the runner stops an older one.
  package internal(set) var spokenGeneration = 0
  /// Whether the recovery sweep is running (or its plan is being made or shown).
  package internal(set) var recovering = false
  /// The folder memos can be imported from (`--import-from`, `$STASH_IMPORT_FROM`), or nil.
  package let importSource: String?
  /// The folder clips are saved in (`c`), once chosen (remembered from an earlier run, or asked
  /// the first time); nil until then.
  package internal(set) var clipFolder: String?
  /// The folder offered the first time a clip is saved (`$XDG_DOCUMENTS_DIR`, else the home folder).
  package let suggestedClipFolder: String?
  /// Whether an import is running (or its plan is being made or shown).
  package internal(set) var importing = false
  /// The player as last reported (its speed, volume and loop changed at once by the keys).
  package internal(set) var player: PlayerSnapshot = .idle
  /// Whether the next memo in the list plays when one ends (`C`; off by default).
  package internal(set) var continuing = false
  /// The A of an A-B loop being set (`l`), until its B is.
  package internal(set) var loopStart: Double?
  /// The loudness of the memo shown on the transport as measured so far (the waveform strip); nil
  /// until the first report for that memo.
  package internal(set) var loudness: LoudnessStrip?
  /// The memo whose loudness is being measured (the one the transport shows), or nil.
  package internal(set) var measuredBase: String?
  /// How much of the memo playing has been heard, to remember where it was left off.
  package internal(set) var listening: Listening?
  /// Places remembered (true) or forgotten (false) since the folder was read, by base: they
  /// decide the list's `◐` over the rows' `partlyHeard` until the next reading.
  package internal(set) var heardNow: [String: Bool] = [:]
  /// The line being typed, if any.
  package internal(set) var prompt: Prompt?
  /// The box shown over the panes, if any.
  package internal(set) var overlay: Overlay?
  /// Scroll offset inside the overlay.
  package internal(set) var overlayTop: Int = 0
  /// A one-line message on the status bar. Any new message (or none) is about something else than
  /// a memo that cannot play, until `sayCannotPlay` says otherwise.
  package internal(set) var message: StyledLine? { didSet { messageSaysCannotPlay = false } }
  /// Whether `message` says a memo cannot play (a refusal, or the player's failure): it goes once
  /// playing works again. A field, so the update step never reads the message's words to know.
  package private(set) var messageSaysCannotPlay = false
  /// Whether the loop should end.
  package internal(set) var finished = false

  /// A browser on `folderPath` in a terminal of the given size, before the folder is read; `home`
  /// is the user's home folder, for the header's `~`, and `importSource` the folder `I` imports from.
  package init(
    folderPath: String, width: Int, height: Int, home: String? = nil, importSource: String? = nil,
    clipFolder: String? = nil, suggestedClipFolder: String? = nil
  ) {
    self.folderPath = folderPath
    self.home = home
    self.importSource = importSource
    self.clipFolder = clipFolder
    self.suggestedClipFolder = suggestedClipFolder
    self.width = width
    self.height = height
  }

  /// Puts `line`, which says why a memo cannot play, on the status line.
  package mutating func sayCannotPlay(_ line: StyledLine) {
    message = line
    messageSaysCannotPlay = true
  }

  /// What runs in the background, for the status line ("searching 3,000 of 9,000 transcripts…").
  package var workStatus: String? {
    var parts: [String] = []
    if recovering { parts.append("recovering…") }
    if importing { parts.append("importing…") }
    if let p = searchProgress {
      parts.append(
        p.total > 0
          ? "searching \(BrowserModel.grouped(p.done)) of \(BrowserModel.grouped(p.total)) transcripts…"
          : "searching transcripts…")
    }
    if let spoken = spokenWorkStatus { parts.append(spoken) }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }

  /// `n` with thousands separated by commas.
  package static func grouped(_ n: Int) -> String {
    var digits = Array(String(n.magnitude))
    var out = ""
    while digits.count > 3 {
      out = "," + String(digits.suffix(3)) + out
      digits.removeLast(3)
    }
    return (n < 0 ? "-" : "") + String(digits) + out
  }

  /// The selected memo's row.
  package var selectedRow: MemoRow? {
    guard selection >= 0, selection < visible.count else { return nil }
    return memos[visible[selection]]
  }

  /// The memo the player holds, if it is in the list.
  package var playingRow: MemoRow? {
    guard let base = player.base else { return nil }
    return memos.row(ofBase: base)
  }

  /// The place in `visible` of the memo `base`, when the list shows it.
  package func visiblePosition(ofBase base: String) -> Int? {
    guard let position = memos.position(ofBase: base) else { return nil }
    // `visible` is in list order, so a search by halves finds it.
    var (low, high) = (0, visible.count)
    while low < high {
      let mid = (low + high) / 2
      if visible[mid] < position { low = mid + 1 } else { high = mid }
    }
    return low < visible.count && visible[low] == position ? low : nil
  }

  /// Whether the memo of `row` was left off partway (the list's `◐`).
  package func isPartlyHeard(_ row: MemoRow) -> Bool { heardNow[row.base] ?? row.partlyHeard }

  /// What the transport line and the waveform strip show: the player while it holds a memo it
  /// plays or could resume, else `preview` when there is one, else the player as it is.
  package var shownTransport: PlayerSnapshot { preview ?? player }

  /// With nothing playing, the memo opened (its transcript shown, its length known, playable) at
  /// its start, stopped, so that its waveform can be read and clicked before listening; nil when
  /// the player holds a memo, has a failure to say, or no memo is open.
  package var preview: PlayerSnapshot? {
    guard !player.isActive, player.state.isQuiet, focus == .transcript, let row = selectedRow,
      let duration = row.durationSeconds, duration > 0, playRefusal(row) == nil
    else { return nil }
    var preview = player
    preview.state = .stopped
    preview.base = row.base
    preview.position = 0
    preview.duration = duration
    preview.countedDuration = nil
    preview.loop = nil
    preview.silenceSkipped = 0
    return preview
  }

  /// The memo the transport line shows, if it is in the list.
  package var shownRow: MemoRow? {
    guard let base = shownTransport.base else { return nil }
    return memos.row(ofBase: base)
  }

  /// Whether the player holds the selected memo.
  package var playerHoldsSelection: Bool {
    player.isActive && player.base != nil && player.base == selectedBase
  }

  /// The index of the cue being spoken, when the selected memo is the one playing.
  package var spokenCue: Int? {
    guard playerHoldsSelection, let detail else { return nil }
    return BrowserModel.cueIndex(in: detail.cues, at: player.position)
  }

  /// The last cue starting at or before `time`; nil before the first.
  package static func cueIndex(in cues: [MemoDetail.Cue], at time: Double) -> Int? {
    var low = 0
    var high = cues.count
    while low < high {
      let mid = (low + high) / 2
      if cues[mid].start <= time + 0.0005 { low = mid + 1 } else { high = mid }
    }
    return low == 0 ? nil : low - 1
  }
}
