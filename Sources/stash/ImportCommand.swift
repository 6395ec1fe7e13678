import StashFormat
import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

/// `stash import SOURCE... TARGET [--move] [--again] [--dry-run] [--recover] [--watch] [--json|--format json]`:
/// brings whole memos from each SOURCE (a memo folder, or one memo's file, which brings its whole
/// set) into TARGET, verified, nothing overwritten. Exit 0 when everything that could be imported was,
/// 1 when something needs a person, 2 on usage or I/O errors.
enum ImportCommand {
  static let usage =
    "stash import SOURCE... TARGET [--move] [--again] [--dry-run] [--recover] [--watch] [--json]"

  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(words, for: "import")
    guard arguments.positionals.count >= 2 else {
      throw UsageError(message: "give one or more sources and a target: \(usage)")
    }
    var options = ImportOptions(now: RecordingDate.currentTime())
    options.move = arguments.flags.contains("move")
    options.dryRun = arguments.flags.contains("dry-run")
    options.again = arguments.flags.contains("again")
    options.includeDeleted = arguments.flags.contains("include-deleted")
    if let window = arguments.options["recent-window"] {
      options.recentWindow = try seconds(window, "recent-window")
    }
    if let settle = arguments.options["settle"] { options.settle = try seconds(settle, "settle") }
    let json = try arguments.format(among: ["text", "json"]) == "json"
    if arguments.flags.contains("watch") && options.dryRun {
      throw UsageError(message: "--watch and --dry-run do not go together")
    }

    let sources: [Importer<SystemFileSystem>.Source]
    let target: String
    do {
      sources = try arguments.positionals.dropLast().map(source)
      // Checked before the target is made, so a refused import makes nothing.
      let planned = try targetFolder(arguments.positionals.last!, create: false)
      if let overlap = ImportOverlap.reason(sources: sources.map(\.folder), target: planned) {
        throw UsageError(message: overlap)
      }
      target = try targetFolder(arguments.positionals.last!, create: !options.dryRun)
      options.record = ImportRecord.location(forTarget: target)
    } catch let error as ImportCommandError {
      standardError("stash import: \(error.message)")
      return 2
    }
    let wait = !arguments.flags.contains("no-wait")
    let recover = arguments.flags.contains("recover")
    guard arguments.flags.contains("watch") else {
      return once(sources, target, options, json: json, recover: recover, wait: wait, quietRepeats: false)
        .code
    }
    return ImportWatch(folders: sources.map(\.folder)).run { now in
      var options = options
      options.now = now
      return once(sources, target, options, json: json, recover: recover, wait: wait, quietRepeats: true)
    }
  }

  /// What was printed last for each memo in watch mode, so a memo still recording is not reported
  /// again at every look.
  nonisolated(unsafe) static var lastSaid: [String: String] = [:]

  /// One import (then the sweep with `--recover`), printed; returns the exit code and whether it
  /// copied anything.
  static func once(
    _ sources: [Importer<SystemFileSystem>.Source], _ target: String, _ options: ImportOptions, json: Bool,
    recover: Bool, wait: Bool, quietRepeats: Bool
  ) -> (code: Int32, copied: Bool) {
    var importer = Importer(fileSystem: SystemFileSystem())
    let progress = ImportProgressLine(enabled: isatty(2) == 1)
    importer.onProgress = { progress.show($0) }
    var report: ImportReport
    do {
      report = try importer.run(
        sources, into: target, options: options, wait: wait,
        onWait: {
          standardError(
            "stash import: another stash process is writing in \(PathText.escaped(target)); waiting for it")
        })
    } catch {
      progress.finish()
      standardError("stash import: \(error)")
      return (2, false)
    }
    progress.finish()
    for notice in report.notices where !lastSaid.keys.contains("notice " + notice) {
      standardError("stash import: \(notice)")
      if quietRepeats { lastSaid["notice " + notice] = "" }
    }
    let copied = report.memos.contains { $0.outcome == .copied }
    // In watch mode, only what is new since the last look is printed: a memo already here, or
    // still saying the same, is not printed again (the summary still counts every memo).
    var shown = { (_: ImportReport.Memo) in true }
    if quietRepeats {
      var new: Set<String> = []
      for memo in report.memos {
        let key = memo.source + "/" + memo.base
        let said = memo.outcome.rawValue + memo.detail
        if memo.outcome != .alreadyHere && lastSaid[key] != said { new.insert(key) }
        lastSaid[key] = said
      }
      if new.isEmpty && report.temporariesRemoved.isEmpty && report.errors.isEmpty {
        return (report.exitCode, copied)
      }
      shown = { new.contains($0.source + "/" + $0.base) }
    }
    var code = report.exitCode
    var swept: SweepReport?
    if recover && !options.dryRun && (copied || !quietRepeats) {
      let sweeper = Sweeper(
        fileSystem: SystemFileSystem(), assembler: FormatAssembler(), audioRepairer: MP4AudioRepairer())
      do {
        swept = try sweeper.run(target, options: SweepOptions(now: options.now))
        code = max(code, swept!.exitCode)
      } catch {
        standardError("stash import: recover: \(error)")
        code = 2
      }
    }
    if json {
      // One document: the import's report, and the sweep's under "recover" (null without --recover).
      var shownReport = report
      if quietRepeats {
        shownReport.memos = report.memos.filter(shown)
        shownReport.skipped = []
      }
      var object = shownReport.json
      if case .object(var fields) = object {
        fields.append(("recover", swept?.json ?? .null))
        fields[fields.firstIndex { $0.0 == "exitCode" }!].1 = .int(Int(code))
        object = .object(fields)
      }
      print(object.serialized(pretty: !quietRepeats))
    } else {
      print(report.textLines(showing: shown, skippedToo: !quietRepeats).joined(separator: "\n"))
      if let swept {
        print((["", "Recovery in \(PathText.escaped(target)):"] + swept.textLines).joined(separator: "\n"))
      }
    }
    fflush(nil)
    return (code, copied)
  }

  /// A SOURCE: a folder (followed if it is a link, as `stash ls` follows one), or one memo's file
  /// or parts folder, which brings that whole memo.
  static func source(_ given: String) throws -> Importer<SystemFileSystem>.Source {
    let (trimmed, parent, name) = split(given)
    if case .memoFile(let base, _) = FolderName.classify(name) {
      let folder = try resolve(parent, given)
      return .init(folder: folder, bases: [base])
    }
    // One recording of Apple's Voice Memos (checked as such by the import).
    if VoiceMemoName.hasVoiceMemoExtension(name), !isDirectory(given) {
      return .init(folder: try resolve(parent, given), recording: name)
    }
    let folder = try resolve(trimmed, given)
    var isFolder = stat()
    guard stat(folder, &isFolder) == 0, isFolder.st_mode & S_IFMT == S_IFDIR else {
      throw ImportCommandError(
        message: "\(PathText.escaped(given)): neither a memo folder nor one memo's file")
    }
    return .init(folder: folder)
  }

  /// Whether `path` is a folder (followed if a link).
  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  /// TARGET, made (one level, as `mkdir` makes it) when missing.
  static func targetFolder(_ given: String, create: Bool) throws -> String {
    var info = stat()
    if create && lstat(given, &info) != 0 && errno == ENOENT {
      if mkdir(given, 0o755) != 0 {
        throw ImportCommandError(
          message: "\(PathText.escaped(given)): cannot make the folder: \(String(cString: strerror(errno)))")
      }
    } else if !create && lstat(given, &info) != 0 && errno == ENOENT {
      // A dry run makes nothing: the folder it would make, in its resolved parent.
      let (_, parent, name) = split(given)
      return try resolve(parent, given) + "/" + name
    }
    let folder = try resolve(given, given)
    guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw ImportCommandError(message: "\(PathText.escaped(given)): not a folder")
    }
    return folder
  }

  /// `path` without a trailing slash, the folder it is in, and its last name.
  static func split(_ path: String) -> (trimmed: String, parent: String, name: String) {
    let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    let slash = trimmed.lastIndex(of: "/")
    let name = slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
    let parent = slash.map { $0 == trimmed.startIndex ? "/" : String(trimmed[..<$0]) } ?? "."
    return (trimmed, parent, name)
  }

  static func resolve(_ path: String, _ given: String) throws -> String {
    do {
      return try MemoFolderPath.resolve(path)
    } catch {
      throw ImportCommandError(
        message: "\(PathText.escaped(given)): not found (\(String(cString: strerror(error.number))))")
    }
  }

  static func seconds(_ text: String, _ name: String) throws -> Double {
    guard let value = Double(text), value >= 0, value.isFinite else {
      throw UsageError(message: "--\(name) takes a number of seconds, not '\(text)'")
    }
    return value
  }
}

/// A source or target that cannot be used: printed, exit 2.
struct ImportCommandError: Error {
  var message: String
}
