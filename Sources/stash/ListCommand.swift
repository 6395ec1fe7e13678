import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// `stash ls [DIR] [--bases] [--json]`: the memos in a folder, newest first.
enum ListCommand {

  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(words, for: "ls")
    if arguments.flags.contains("help") || arguments.flags.contains("h") {
      print(CommandCatalogue.help(for: "ls")!, terminator: "")
      return 0
    }
    guard arguments.positionals.count <= 1 else {
      throw UsageError(message: "give at most one folder: stash ls [DIR] [--bases] [--json]")
    }
    let json = try arguments.format(among: ["text", "json"]) == "json"
    let path = arguments.positionals.first ?? "."
    // With TZ unset, glibc's mktime (a local base's date) stats /etc/localtime on every call, to
    // notice a change; naming that same file once in TZ gives the same zone without a stat per memo.
    if getenv("TZ") == nil { setenv("TZ", ":/etc/localtime", 1) }
    let listing: Listing
    do {
      listing = try Listing(path: path, cached: !arguments.flags.contains("no-cache")) {
        standardError("stash ls: " + $0)
      }
    } catch {
      standardError("stash ls: \(error)")
      return 2
    }
    if json {
      printJSON(listing)
    } else {
      printTable(listing, bases: arguments.flags.contains("bases"))
    }
    // The process exits next: freeing a hundred thousand names one by one would cost more than
    // reading them, so the names are deliberately kept until exit.
    _ = Unmanaged.passRetained(KeptUntilExit(listing))
    return 0
  }

  /// One object per line inside the array: valid JSON that `grep` and `jq` both read well.
  static func printJSON(_ listing: Listing) {
    guard listing.count > 0 else {
      print("[]")
      return
    }
    listing.print(warn: { standardError("stash ls: " + $0) }) { index, account, out in
      out.raw(index == 0 ? "[\n" : ",\n")
      account.memo.writeJSON(to: &out, problems: account.findings.map(\.problemJSON))
    }
    Listing.write(Array("\n]\n".utf8))
  }

  /// One line per memo and the summary; with `bases`, each line ends with the memo's base.
  static func printTable(_ listing: Listing, bases: Bool = false) {
    let summary = listing.print(messages: false, warn: { standardError("stash ls: " + $0) }) {
      _, account, out in
      let memo = account.memo
      var line = RecordingDate.localMinute(memo.recordedAt) + "  "
      let length = memo.durationSeconds.map { TimeText.clock($0, hours: true) } ?? "--:--"
      line += String(repeating: " ", count: max(0, 8 - length.count)) + length + "  "
      line += MemoMarks(
        transcript: memo.hasTranscript, route: memo.hasRoute, problem: account.hasProblem,
        recovery: memo.needsRecovery
      ).text()
      line += "  " + PathText.escaped(memo.displayName)
      if bases { line += "  [" + PathText.escaped(memo.base) + "]" }
      line += "\n"
      out.bytes += line.utf8
    }
    Listing.write(Array((Self.summary(summary) + "\n").utf8))
  }

  /// `3 memos, 1:02:03 in all; 1 needs recovery; 2 other files`, leaving out what is zero.
  static func summary(_ totals: FolderSummary) -> String {
    var clauses = [
      "\(Text.count(totals.memoCount, "memo")), \(TimeText.clock(totals.totalSeconds, hours: true)) in all"
    ]
    if totals.unknownLengthCount > 0 { clauses[0] += " (\(totals.unknownLengthCount) of unknown length)" }
    if totals.captureCount > 0 {
      clauses.append("\(Text.count(totals.captureCount, "capture")) without audio")
    }
    if totals.needingRecovery > 0 {
      clauses.append(
        "\(totals.needingRecovery) need\(totals.needingRecovery == 1 ? "s" : "") recovery (stash recover)")
    }
    if totals.otherFiles > 0 { clauses.append("\(Text.count(totals.otherFiles, "other file")) (stash lint)") }
    if totals.collisions > 0 {
      clauses.append("\(Text.count(totals.collisions, "name collision")) (stash lint)")
    }
    return clauses.joined(separator: "; ")
  }

}

/// Holds what is never released (see `ListCommand.run`).
private final class KeptUntilExit {
  let value: Any
  init(_ value: Any) { self.value = value }
}
