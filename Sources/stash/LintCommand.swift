import StashFormat
import StashLint
import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

/// `stash lint [PATH…]`: every problem in memo folders (or single files), with stable codes, in
/// the format CI wants. Exit 0 clean, 1 findings at or above `--fail-on`, 2 usage or I/O errors.
enum LintCommand {

  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(words, for: "lint")
    if arguments.flags.contains("help") || arguments.flags.contains("h") {
      print(CommandCatalogue.help(for: "lint")!, terminator: "")
      return 0
    }
    let formatName = try arguments.format()
    if let code = arguments.options["explain"] {
      // A code, or a slug (the code without its family) when one rule has it.
      let bySlug = LintCatalogue.rules(slug: code)
      guard let rule = LintCatalogue.rule(named: code) ?? (bySlug.count == 1 ? bySlug[0] : nil) else {
        if bySlug.count > 1 {
          throw UsageError(
            message: "'\(code)' is the slug of \(bySlug.count) rules: "
              + bySlug.map(\.code.rawValue).joined(separator: ", ") + "; name one by its code")
        }
        throw UsageError(message: "no rule '\(code)'; `stash lint --list-rules` lists them")
      }
      print(formatName == "markdown" ? LintExplain.markdown(rule) : LintExplain.text(rule), terminator: "")
      return 0
    }
    if arguments.flags.contains("list-rules") {
      print(formatName == "markdown" ? LintExplain.index() : LintExplain.list(), terminator: "")
      return 0
    }
    if let folder = arguments.options["write-docs"] {
      let names = try LintExplain.writeDocs(to: folder)
      standardError("stash lint: wrote \(names.count) pages into \(PathText.escaped(folder))")
      return 0
    }

    let format: LintFormat
    if let formatName {
      guard let chosen = LintFormat(rawValue: formatName) else {
        throw UsageError(message: "--format takes human, json, github, sarif or gcc, not '\(formatName)'")
      }
      format = chosen
    } else {
      format = getenv("GITHUB_ACTIONS").map { String(cString: $0) } == "true" ? .github : .human
    }
    var overlay = LintConfiguration()
    if let select = arguments.options["select"] {
      overlay.selected = LintConfiguration.list(select)
      for pattern in overlay.selected! { try LintConfiguration.checkPattern(pattern, at: "--select") }
    }
    if let ignore = arguments.options["ignore"] {
      overlay.disabled = LintConfiguration.list(ignore)
      for pattern in overlay.disabled { try LintConfiguration.checkPattern(pattern, at: "--ignore") }
    }
    if let exclude = arguments.options["exclude"] {
      overlay.ignoredPaths = LintConfiguration.list(exclude)
      for glob in overlay.ignoredPaths { try LintConfiguration.checkGlob(glob, at: "--exclude") }
    }
    if let failOn = arguments.options["fail-on"] {
      overlay.failOn = try LintConfiguration.severity(failOn, at: "--fail-on", allowOff: false)
    }
    let given = try arguments.options["config"].map { path throws(LintSetupError) in
      try LintConfiguration.load(path, required: true)!
    }

    let deep = arguments.flags.contains("deep-audio")
    let fix = arguments.flags.contains("fix")
    let cached = !arguments.flags.contains("no-cache")
    // Each path's configuration is loaded before anything is printed, so a bad one still stops
    // the run with only its usage error, as it did when the output came all at once at the end.
    // A path named again (or another name of a file or folder already named) is linted once, as
    // a compiler compiles a file named twice once: its findings would be listed twice.
    var paths: [String] = []
    var named = Set<String>()
    var targets: [(path: String, isFolder: Bool, configuration: LintConfiguration, memo: String?)?] = []
    for argument in arguments.positionals.isEmpty ? ["."] : arguments.positionals {
      var path = argument
      var info = stat()
      guard stat(path, &info) == 0 else {
        paths.append(argument)
        targets.append(nil)
        continue
      }
      let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
      // A parts folder named itself holds no memo: its memo's folder is linted, for that memo only.
      let memo = isFolder ? PartsFolderArgument(path) : nil
      guard named.insert("\(info.st_dev):\(info.st_ino):\(memo?.base ?? "")").inserted else { continue }
      paths.append(argument)
      if let memo {
        path = memo.memoFolder
        standardError(
          "stash lint: \(PathText.escaped(argument)) is the parts folder of the memo \(PathText.escaped(memo.base)): "
            + "linting that memo in its folder \(PathText.escaped(memo.memoFolder))"
            + (fix ? "; --fix is not applied (it works on a whole memo folder: name that folder)" : ""))
      }
      let own =
        isFolder && given == nil
        ? try LintConfiguration.load(PathText.join(path, LintConfiguration.fileName), required: false) : nil
      targets.append(
        (path, isFolder, (given ?? own ?? LintConfiguration()).merged(with: overlay), memo?.base))
    }
    let colour =
      format == .human && isatty(1) != 0 && (getenv("NO_COLOR").map { String(cString: $0).isEmpty } ?? true)
      && (getenv("TERM").map { String(cString: $0) != "dumb" } ?? false)
    var report = LintReport(
      format: format, colour: colour, severalPaths: paths.count > 1, toolVersion: ToolVersion.current)
    var failOn = Severity.error
    var trouble = false
    var unchecked = 0
    var fixed = 0
    for (path, target) in zip(paths, targets) {
      guard let (path, isFolder, configuration, memo) = target else {
        // stat again for the message: errno from the first look is long gone.
        var info = stat()
        _ = stat(path, &info)
        standardError("stash lint: \(PathText.escaped(path)): \(String(cString: strerror(errno)))")
        trouble = true
        unchecked += 1
        continue
      }
      if let severity = configuration.failOn { failOn = min(failOn, severity) }
      // Only a count is kept of what --fix can fix (and the memos it is in), so a first look costs
      // little memory either.
      func fixable(_ path: String) throws(FormatError) -> (count: Int, bases: Set<String>) {
        var count = 0
        var bases = Set<String>()
        try LintEngine.lint(folder: path, deepAudio: deep) { finding in
          if LintCatalogue.rule(finding.code)?.fixable == true, configuration.apply(finding) != nil {
            count += 1
            // Each fixable finding names a file of its memo: a parts folder, `<base>.parts`, or
            // the bookmarks, `<base>_bookmarks.vtt`.
            bases.insert(MemoFileKind.split(finding.name)?.base ?? finding.name)
          }
        }
        return (count, bases)
      }
      do {
        var before = 0
        // --fix works on a whole folder: not on the memo folder of a parts folder named alone. It
        // fixes what the findings the rules keep call for, and nothing a rule left out.
        if isFolder && fix && memo == nil {
          let found = try fixable(path)
          before = found.count
          if before > 0 {
            LintFix.apply(
              folder: path, bases: configuration.changesFindings ? found.bases : nil, say: standardError)
          }
        }
        var after = 0
        let take = { (finding: LintFinding) in
          if let memo, !PartsFolderArgument.belongs(finding.name, to: memo) { return }
          guard let configured = configuration.changesFindings ? configuration.apply(finding) : finding else {
            return
          }
          if LintCatalogue.rule(configured.code)?.fixable == true { after += 1 }
          report.add(configured)
        }
        if isFolder {
          // After --fix, the folder has changed: the keys tell, so the cache is used all the same.
          let cache =
            cached ? CacheCommand.open(folder: path, warn: { standardError("stash lint: " + $0) }) : nil
          try LintEngine.lint(folder: path, deepAudio: deep, cache: cache, emit: take)
          cache?.save(whole: true, memoCount: 0).map { standardError("stash lint: " + $0) }
        } else {
          try LintEngine.lint(file: path).forEach(take)
        }
        if before > 0 { fixed += max(0, before - after) }
      } catch {
        standardError("stash lint: \(PathText.escaped(path)): \(error.message)")
        trouble = true
        unchecked += 1
      }
    }
    report.finish(fixableCount: fix ? 0 : report.tally.fixable, unchecked: unchecked, paths: paths.count)
    if fix {
      standardError("stash lint: fixed \(Text.count(fixed, "finding"))")
    }
    if trouble { return 2 }
    if arguments.flags.contains("exit-zero") { return 0 }
    return report.tally.worst.map { $0 >= failOn } ?? false ? 1 : 0
  }

}
