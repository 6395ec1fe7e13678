import StashBrowser
import StashFormat
import StashRecover

/// The browser's writes through StashRecover: `MemoTitle.set`, `MemoDeletion.delete` (to the
/// freedesktop.org Trash, or permanently once the user has said so), the recovery sweep and
/// `stash import`'s engine.
final class FolderEditor: MemoEditor {
  private let folder: String
  /// The folder memos are imported from (resolved), or nil.
  let importSource: String?
  /// The user's Trash, or nil when neither XDG_DATA_HOME nor HOME says where it is.
  private let trash: Trash?

  /// An editor for `folder`, with the Trash found from the environment, importing from
  /// `importSource` when one is given.
  init(folder: String, importSource: String? = nil) {
    self.folder = folder
    self.importSource = importSource
    var environment: [String: String] = [:]
    for name in ["XDG_DATA_HOME", "HOME"] { environment[name] = Environment.value(name) }
    trash = Trash.home(environment: environment)
  }

  func setTitle(base: String, title: String) -> ActionOutcome {
    // A title longer than the format allows is shown cut, and lint warns of it: refused here.
    let length = MemoTitle.normalized(title).count
    if length > Title.maximumCharacters {
      return .failed(
        "The title was not written: it is \(length) characters long, and a title holds at most "
          + "\(Title.maximumCharacters). Shorten it.")
    }
    do {
      try MemoTitle.set(title, base: base, in: folder)
      let stored = MemoTitle.normalized(title)
      return .done(
        stored.isEmpty
          ? "Title removed: the memo is named by its file name again." : "Renamed to “\(stored)”.")
    } catch {
      return .failed("The title was not written: \(FolderEditor.describe(error))")
    }
  }

  func addBookmark(base: String, at: Double, audioLength: Double?) -> ActionOutcome {
    bookmarkChange("The bookmark was not added") {
      let added = try MemoBookmarks.add(Bookmark(at: at), base: base, in: folder, audioLength: audioLength)
      return "Bookmarked \(TimeText.clock(added.at)): @ and ! go from bookmark to bookmark."
    }
  }

  func annotateBookmark(base: String, at: Double, note: String, audioLength: Double?) -> ActionOutcome {
    bookmarkChange("The note was not written") {
      let changed = try MemoBookmarks.annotate(
        near: at, note: note, base: base, in: folder, audioLength: audioLength)
      return changed.note.isEmpty
        ? "The bookmark at \(TimeText.clock(changed.at)) has no note now."
        : "Noted at \(TimeText.clock(changed.at)): “\(changed.note)”."
    }
  }

  func removeBookmark(base: String, at: Double, audioLength: Double?) -> ActionOutcome {
    bookmarkChange("The bookmark was not removed") {
      let removed = try MemoBookmarks.remove(near: at, base: base, in: folder, audioLength: audioLength)
      return "Removed the bookmark at \(TimeText.clock(removed.at))."
    }
  }

  /// A change to a memo's bookmarks: what it did, or `failure` and why.
  private func bookmarkChange(_ failure: String, _ change: () throws -> String) -> ActionOutcome {
    do {
      return .done(try change())
    } catch {
      return .failed("\(failure): \(FolderEditor.describe(error))")
    }
  }

  /// The state folder's file that remembers where clips are saved: the folder's path, one line.
  private var clipFolderFile: (folder: String, name: String)? {
    PositionStore.fromEnvironment().map { ($0.folder, "clip-folder") }
  }

  var clipFolder: String? {
    guard let file = clipFolderFile,
      let bytes = try? ReadOnlyFile.contents(of: file.folder + "/" + file.name, limit: 1 << 16),
      let text = String(validating: bytes, as: UTF8.self)
    else { return nil }
    let folder = Text.trimmed(text)
    return folder.isEmpty ? nil : folder
  }

  var suggestedClipFolder: String? {
    Environment.value("XDG_DOCUMENTS_DIR").flatMap { $0.isEmpty ? nil : $0 } ?? Environment.value("HOME")
  }

  func saveClip(
    base: String, from: Double, to: Double, folder clips: String, remember: Bool, title: String,
    recordedAt: Double
  ) -> ActionOutcome {
    let target = FolderEditor.expandingHome(clips)
    var kept = ""
    if remember, let file = clipFolderFile {
      do {
        try PositionStore(folder: file.folder).makeFolder()
        try AtomicFile.write(
          Array((target + "\n").utf8), named: file.name, in: file.folder, mode: .replace,
          fileSystem: SystemFileSystem())
      } catch {
        kept = " (The folder is not remembered for the next time: \(FolderEditor.describe(error)).)"
      }
    }
    let stem = FolderEditor.clipStem(title: title, from: from, to: to)
    // Never over a file: the next free name, `Walk 1m23s-3m05s (2).m4a`.
    for copy in 1...1000 {
      let output = target + "/" + stem + (copy == 1 ? "" : " (\(copy))") + ".m4a"
      do {
        try AudioClip.write(
          source: PathText.join(folder, MemoFileKind.audio.name(for: base)), memoFolder: folder, from: from,
          to: to, title: title, recordedAt: recordedAt, output: output, replace: false,
          fileSystem: SystemFileSystem())
      } catch let error as RecoverError where error.code == .exists {
        continue
      } catch {
        return .failed("The clip was not saved: \(FolderEditor.describe(error))\(kept)")
      }
      return .done(
        "Saved \(TimeText.clock(from))–\(TimeText.clock(to)) as \(PathText.escaped(output)).\(kept)")
    }
    return .failed("The clip was not saved: a thousand files in \(PathText.escaped(target)) have its name.")
  }

  /// `~` and `~/…` from the home folder, as a shell would.
  static func expandingHome(_ path: String) -> String {
    guard path == "~" || path.hasPrefix("~/"), let home = Environment.value("HOME") else { return path }
    return home + path.dropFirst()
  }

  /// A clip's file name without its extension: the memo's name and the span, `Walk 1m23s-3m05s`,
  /// with `/` and control characters made `-`.
  static func clipStem(title: String, from: Double, to: Double) -> String {
    func time(_ seconds: Double) -> String {
      let whole = Int(seconds.rounded(.down))
      let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60)
      let ms = (h > 0 ? "\(h)h" : "") + "\(m)m"
      return ms + Text.zeroPadded(s, width: 2) + "s"
    }
    let name = String(
      String.UnicodeScalarView(
        title.unicodeScalars.map { $0 == "/" || $0.properties.generalCategory == .control ? "-" : $0 }))
    return "\(name) \(time(from))-\(time(to))"
  }

  func delete(base: String, permanently: Bool) -> ActionOutcome {
    let disposal: MemoDeletion.Disposal
    if permanently {
      disposal = .permanent
    } else if let trash {
      disposal = .trash(trash)
    } else {
      return .trashUnavailable(base: base, reason: "neither XDG_DATA_HOME nor HOME says where it is")
    }
    do {
      let outcome = try MemoDeletion.delete(base: base, in: folder, disposal: disposal)
      let count = outcome.removed.count
      return .done(
        (permanently ? "Deleted " : "Moved ") + Text.count(count, "file")
          + (permanently ? " for good." : " to the Trash."))
    } catch let error as RecoverError where error.code == .trashUnavailable {
      return .trashUnavailable(base: base, reason: error.message)
    } catch let error as RecoverError where error.code == .strangers {
      let files = error.files.map { PathText.escaped($0) }
      return .failed(
        "Nothing was deleted: \(files.joined(separator: ", ")) "
          + (files.count == 1 ? "is" : "are")
          + " not a file Stash wrote. Move \(files.count == 1 ? "it" : "them") out of the parts folder, "
          + "then delete again.")
    } catch let error as RecoverError where error.code == .notAFile {
      return .failed("Nothing was deleted: \(error.message).")
    } catch {
      return .failed("Nothing more was deleted: \(FolderEditor.describe(error))")
    }
  }

  func recover() -> ActionOutcome { sweep(dryRun: false) }

  func planRecovery() -> ActionOutcome { sweep(dryRun: true) }

  func acceptLoss() -> ActionOutcome { sweep(dryRun: false, acceptLoss: true) }

  /// The sweep, or its dry run, with the report (or the plan) it gives; a report that kept parts
  /// as the sign of a loss asks whether to accept it.
  private func sweep(dryRun: Bool, acceptLoss: Bool = false) -> ActionOutcome {
    let sweeper = Sweeper(
      fileSystem: SystemFileSystem(), assembler: FormatAssembler(), audioRepairer: MP4AudioRepairer())
    var options = SweepOptions(now: BrowserClock.wallTime())
    options.acceptLoss = acceptLoss
    let report: SweepReport
    do {
      report = try sweeper.run(
        folder, options: options, dryRun: dryRun, wait: false)
    } catch let error as RecoverError where error.code == .busy {
      return .failed("Another stash process is writing in this folder; try R again when it is done.")
    } catch {
      return .failed("The recovery sweep could not run: \(FolderEditor.describe(error))")
    }
    guard dryRun else {
      return !acceptLoss && report.lossesToAccept
        ? .lossReport(title: "Recovery", lines: report.textLines)
        : .report(title: "Recovery", lines: report.textLines)
    }
    let work =
      !report.temporariesRemoved.isEmpty
      || report.captures.contains { capture in capture.events.contains { $0.action != .skipped } }
    return .plan(title: "Recovery plan", lines: report.textLines, hasWork: work)
  }

  func planImport() -> ActionOutcome { runImport(dryRun: true) }

  func importMemos() -> ActionOutcome { runImport(dryRun: false) }

  /// An import from `importSource` into the folder, or its dry run: the same report `stash import`
  /// prints.
  private func runImport(dryRun: Bool) -> ActionOutcome {
    guard let importSource else { return .failed("No folder to import from: start with --import-from DIR.") }
    let importer = Importer(fileSystem: SystemFileSystem())
    let report: ImportReport
    do {
      // The same record `stash import` keeps, so a memo deleted or renamed in the browser stays so.
      var options = ImportOptions(now: BrowserClock.wallTime(), dryRun: dryRun)
      options.record = ImportRecord.location(forTarget: try MemoFolderPath.resolve(folder))
      report = try importer.run([.init(folder: importSource)], into: folder, options: options, wait: false)
    } catch let error as RecoverError where error.code == .busy {
      return .failed("Another stash process is writing in this folder; try I again when it is done.")
    } catch {
      return .failed("The import could not run: \(FolderEditor.describe(error))")
    }
    guard dryRun else { return .report(title: "Import", lines: report.textLines) }
    let work = report.memos.contains { $0.outcome == .copied } || !report.temporariesRemoved.isEmpty
    return .plan(title: "Import plan from \(importSource)", lines: report.textLines, hasWork: work)
  }

  private static func describe(_ error: any Error) -> String {
    if let e = error as? RecoverError {
      return e.message + (e.path.map { " (\(PathText.escaped($0)))" } ?? "")
    }
    return "\(error)"
  }
}
