import StashLint

/// Every command, in one table: what runs it, and what it accepts. `stash` dispatches through it,
/// and `stash help COMMAND`, the shell completions and the man page (docs/stash.1) are made from
/// it, so they cannot disagree.
enum CommandCatalogue {
  /// One option or flag of a command.
  struct Option {
    /// The name without dashes.
    var name: String
    /// The value's placeholder (`FORMAT`), or nil for a flag.
    var value: String? = nil
    /// The values it takes, for completion; empty when free; `["<file>"]`/`["<dir>"]` for paths.
    var choices: [String] = []
    /// One line of help.
    var help: String
  }

  /// One command.
  struct Command {
    var name: String
    /// What follows the name in the usage line.
    var arguments: String
    /// What the positional arguments are, for completion: `dir`, `file` or `none`.
    var completes: String
    var summary: String
    /// Paragraphs after the usage line.
    var description: String
    /// Lines laid out as they are, after the description (a table of marks, say); empty for none.
    var details: String = ""
    var options: [Option]
    /// Runs the command on the words after its name; returns the exit code: 0 clean, 1 findings,
    /// 2 usage or I/O errors.
    var run: @Sendable ([String]) throws -> Int32

    /// `stash NAME ARGUMENTS`, as the usage line and the man page give it.
    var synopsis: String { "stash \(name)" + (arguments.isEmpty ? "" : " " + arguments) }
  }

  static let formats = ["human", "json", "github", "sarif", "gcc"]

  static let commands: [Command] = [
    Command(
      name: "ls", arguments: "[DIR]", completes: "dir", summary: "list the memos in a folder, newest first",
      description:
        "Lists the memos in DIR (default: the current folder), newest first, one line each: the date (local time), the length (h:mm:ss, --:-- when unknown), the marks and the name. The name is the memo's title; without one, the words of its base (a base that is not a date, or the words after its date); else its recording date. A capture whose audio is missing is listed too, with --:--. The last line sums it up; `stash lint` says what is wrong in detail. Exit 0 listed, 2 the folder cannot be read or the command was misused.",
      details: """
        Marks, in this order (FORMAT.md §1.9, the same in the browser); `-` where one does not apply:
          T  it has a transcript            R  it has a route
          !  lint finds a warning or an error in a file: `stash show` lists them
          *  a killed recording left parts: run `stash recover`
        """,
      options: [
        Option(name: "bases", help: "end each line with the memo's base (what show and export take)"),
        Option(name: "json", help: "print a JSON array, one object per memo (schema in README.md)"),
        Option(name: "format", value: "FORMAT", choices: ["text", "json"], help: "text (default) or json"),
        Option(
          name: "no-cache", help: "check every memo again, neither reading nor writing the findings cache"),
      ], run: ListCommand.run),
    Command(
      name: "show", arguments: "MEMO", completes: "memo",
      summary: "one memo's facts and its transcript as timed text",
      description:
        "MEMO is a base, any file of the memo, its name or date as `stash ls` prints them, its title or a unique part of it (ignoring case), or DIR/ before any of these; several matches are listed, not guessed between. Prints its name, date, length, files and problems, then each cue as [start → end] text.",
      options: [
        Option(name: "json", help: "print one JSON object (memo, transcript cues, route statistics)"),
        Option(name: "format", value: "FORMAT", choices: ["text", "json"], help: "text (default) or json"),
        Option(
          name: "no-cache", help: "check every memo again, neither reading nor writing the findings cache"),
      ], run: ShowCommand.run),
    Command(
      name: "bookmark", arguments: "MEMO AT [NOTE]", completes: "memo",
      summary: "add a bookmark (a moment with a note) to a memo, or remove one",
      description:
        "MEMO is what `stash show` takes. AT is a moment from the audio's start: seconds (83.5), m:ss (1:23, 1:23.5) or h:mm:ss. Adds a bookmark there, with NOTE if given, and prints it; with --remove, removes the bookmark within half a second of AT. Bookmarks are kept beside the memo in <base>_bookmarks.vtt (WebVTT chapters, FORMAT.md §8), written atomically; a file there that stash did not write is left as it is. Exit 0 done, 1 no bookmark to remove there, 2 usage or I/O error, a moment outside the audio, or a bookmark already at that moment.",
      options: [
        Option(name: "remove", help: "remove the bookmark at AT (within half a second) instead")
      ], run: BookmarkCommand.add),
    Command(
      name: "bookmarks", arguments: "MEMO", completes: "memo",
      summary: "list a memo's bookmarks in time order",
      description:
        "MEMO is what `stash show` takes. Prints each bookmark on a line: its moment (m:ss.mmm) and its note. What is wrong with the file is said on standard error, as `stash lint` says it. Exit 0 listed (none is no error), 2 usage or I/O error, or a bookmarks file that cannot be read.",
      options: [
        Option(
          name: "json", help: "print one JSON object: version, and each bookmark's at (seconds) and note"),
        Option(name: "format", value: "FORMAT", choices: ["text", "json"], help: "text (default) or json"),
      ], run: BookmarkCommand.list),
    Command(
      name: "search", arguments: "PATTERN [FOLDER...]", completes: "dir",
      summary: "every place a word or phrase was said, newest memo first",
      description:
        "Searches what was said (each cue's text without markup, timestamps or settings, a phrase running from one cue into the next included), the titles and the bookmarks' notes, in FOLDER (default: the current folder) or several. Ignores case and accents by default, with Unicode case folding (Straße finds STRASSE) and canonical equivalence (NFC and NFD spellings match). Matches the words, not the punctuation between them: full stops, commas, dashes, hyphens, quotes, brackets and ellipses in any script count as a space (nothing between two letters of a script written without spaces, such as Japanese), in the text and in PATTERN alike, so `stash search \"young man unless\"` finds \"…young man. Unless…\" and `cold hearted` finds cold-hearted, while illdisposed is another word than ill-disposed; the place marked is the text's own, punctuation included. -w keeps to whole words (`stash search -w ill` finds ill-disposed but not illness); -E matches the text as written, punctuation and all (`stash search -E 'man\\. unless'`). Prints one line per place: the memo as `stash ls` names it, the time the matching words start (from the cue, or from its word timestamps), and the line with the match marked; matches at one time in one line (a cue without word timestamps) share it. Exit 0 something found, 1 nothing, 2 usage or I/O error (a damaged transcript is searched for what it holds, with a warning).",
      options: [
        Option(name: "case-sensitive", help: "tell upper and lower case apart (accents are still ignored)"),
        Option(name: "exact", help: "fold nothing: case and accents count (NFC and NFD still match)"),
        Option(name: "w", help: "whole words only (also --word)"),
        Option(name: "word", help: "whole words only"),
        Option(
          name: "E",
          help:
            "PATTERN is a regular expression (Swift's Regex) over the folded text; ^ and $ are a memo's start and end (also --regex)"
        ),
        Option(name: "regex", help: "PATTERN is a regular expression over the folded text"),
        Option(name: "e", value: "PATTERN", help: "the pattern, for one that starts with - (once)"),
        Option(
          name: "l",
          help: "list the memos with a match (as DIR/base), not the places (also --files-with-matches)"),
        Option(name: "files-with-matches", help: "list the memos with a match, not the places"),
        Option(name: "count", help: "print DIR/base: N, its places (lines), for each memo with a match"),
        Option(name: "max-count", value: "N", help: "at most N places (lines) a memo"),
        Option(name: "json", help: "print one JSON document with every hit (not with -l or --count)"),
        Option(name: "format", value: "FORMAT", choices: ["text", "json"], help: "text (default) or json"),
      ], run: SearchCommand.run),
    Command(
      name: "inspect", arguments: "FILE", completes: "file",
      summary: "parse one .m4a or .mp4, .vtt, .gpx or title (.txt) file into JSON",
      description:
        "Prints what the reader makes of one file, as documented in docs/inspect-*.md. Exit 0 when the file could be read, damaged or not; 2 when it could not.",
      options: [
        Option(name: "json", help: "print JSON (the only output; accepted for clarity)"),
        Option(name: "format", value: "FORMAT", choices: ["json"], help: "json (the only output)"),
      ], run: InspectCommand.run),
    Command(
      name: "export", arguments: "MEMO --to FORMAT", completes: "memo",
      summary: "the transcript as txt, md, srt or json; the route as GeoJSON; a clip as m4a or wav",
      description:
        "MEMO is a base, any file of the memo, its name or date as `stash ls` prints them, its title or a unique part of it (ignoring case), or DIR/ before any of these; several matches are listed, not guessed between. Writes the memo's transcript (txt: plain text; md: Markdown with timestamps, then the bookmarks; srt: SubRip, keeping <i>, <b> and <u>; json: cues and bookmarks) or its route (geojson: RFC 7946, a LineString per segment (a Point for a segment of one point), each point with its own elevation where it has one, points off the globe left out and counted as offGlobePointCount, times as properties) to standard output, or atomically to -o FILE. With --clip FROM-TO (83.5, 1:23 or 1:23.5 each) or --clip bookmark:N (from bookmark N to the next, or to the end): --to m4a writes the span as a new MP4 file to -o FILE, never in the memo folder, its AAC frames the memo's own, copied, not re-encoded, with an edit list that plays exactly the span and the memo's title and the span as its title; --to wav writes the span decoded, as 16-bit PCM at the audio's rate, to the sample (stash-tui decodes it: it must be installed beside stash or on PATH); --to vtt, srt or txt give the span's transcript timed from the clip's start, a cue that straddles FROM or TO kept and clipped to the span. A span past the audio's end is refused, stating the audio's length.",
      options: [
        Option(
          name: "to", value: "FORMAT", choices: ["txt", "md", "srt", "json", "geojson", "m4a", "wav", "vtt"],
          help: "what to write (m4a, wav and vtt with --clip)"),
        Option(
          name: "format", value: "FORMAT",
          choices: ["txt", "md", "srt", "json", "geojson", "m4a", "wav", "vtt"],
          help: "the same as --to FORMAT"),
        Option(
          name: "clip", value: "SPAN",
          help: "only FROM-TO (83.5-95, 1:23-3:05.5) or bookmark:N, as m4a or wav audio or its transcript"),
        Option(name: "json", help: "the same as --to json"),
        Option(
          name: "o", value: "FILE", choices: ["<file>"],
          help: "write to FILE (atomically) instead of standard output"),
        Option(name: "output", value: "FILE", choices: ["<file>"], help: "the same as -o"),
        Option(name: "force", help: "replace FILE when it exists"),
      ], run: ExportCommand.run),
    Command(
      name: "lint", arguments: "[PATH...]", completes: "dir",
      summary: "check memo folders with stable codes, for people and CI",
      description:
        "Checks each folder (default: the current one) or single file and reports every problem with a stable code, severity, path:line:column and what to do. Exit 0 clean, 1 findings at or above --fail-on, 2 usage or I/O errors. Rules: docs/lint/README.md or --list-rules; a .stashlint file in the folder configures it.",
      options: [
        Option(
          name: "format", value: "FORMAT", choices: formats,
          help: "human (default; github when GITHUB_ACTIONS=true), json, github, sarif or gcc"),
        Option(name: "json", help: "the same as --format json"),
        Option(
          name: "fail-on", value: "SEVERITY", choices: ["error", "warning", "info"],
          help: "the lowest severity that fails the run (default error)"),
        Option(name: "exit-zero", help: "exit 0 even with findings (2 still means usage or I/O errors)"),
        Option(
          name: "select", value: "RULES",
          help: "report only these rules (codes, globs like vtt-*, or families), comma-separated"),
        Option(name: "ignore", value: "RULES", help: "do not report these rules, comma-separated"),
        Option(
          name: "exclude", value: "GLOBS",
          help: "leave out files whose names match these globs, comma-separated"),
        Option(
          name: "config", value: "FILE", choices: ["<file>"],
          help: "read this configuration instead of each folder's .stashlint"),
        Option(
          name: "fix",
          help:
            "apply safe fixes (the recovery sweep, which also removes empty parts folders; bookmarks put in order and chained), say each, count them"
        ),
        Option(
          name: "explain", value: "CODE", choices: LintCatalogue.rules.map(\.code.rawValue),
          help:
            "print the rule's page: why it matters and how to fix it (CODE, or its slug if one rule has it)"),
        Option(name: "list-rules", help: "list every rule with its severity"),
        Option(
          name: "write-docs", value: "DIR", choices: ["<dir>"],
          help: "write the rule pages (docs/lint) into DIR"),
        Option(name: "deep-audio", help: "walk every fragment of a long fragmented recording too (slower)"),
        Option(
          name: "no-cache", help: "check every memo again, neither reading nor writing the findings cache"),
      ], run: LintCommand.run),
    Command(
      name: "cache", arguments: "", completes: "none",
      summary: "where the findings cache is and how big, or empty it",
      description:
        "ls, show, lint and the browser keep what each memo's checks found in a cache outside the memo folder ($XDG_CACHE_HOME/stash/findings, by default ~/.cache/stash/findings), keyed by each checked file's device, inode, size and times, so that a run checks again only the memos whose files changed. It holds codes, severities, positions and numbers, no words (FORMAT.md §10), at most 32 MiB (the folders checked longest ago are forgotten first), and is safe to delete at any time; --no-cache on ls, show and lint checks everything afresh. Prints the cache's folder, how many folders it holds and its size. Exit 0, 2 when it cannot be read or emptied.",
      options: [
        Option(name: "clear", help: "empty the cache (every later run checks each memo again, once)")
      ], run: CacheCommand.run),
    Command(
      name: "recover", arguments: "[DIR]", completes: "dir",
      summary: "assemble what killed recordings left in a memo folder",
      description:
        "Finishes what killed recordings left: assembles transcript and route parts, finishes route withdrawals, removes leftovers. Exit 0 when nothing needs a person, 1 when something does, 2 on errors.",
      options: [
        Option(name: "dry-run", help: "say what would be done; write nothing"),
        Option(
          name: "routes", value: "WHAT", choices: ["publish", "drop"],
          help: "publish assembled routes (default) or drop them"),
        Option(name: "repair-audio", help: "cut audio with a torn tail at its last whole sample"),
        Option(
          name: "accept-loss",
          help: "accept what kept parts lost, once seen: note it, remove the parts"),
        Option(name: "include-recent", help: "also sweep captures changed in the last two minutes"),
        Option(name: "recent-window", value: "SECONDS", help: "what counts as recent (default 120)"),
        Option(name: "no-wait", help: "fail rather than wait for another stash process"),
        Option(name: "json", help: "print the report as JSON"),
        Option(name: "format", value: "FORMAT", choices: ["text", "json"], help: "text (default) or json"),
      ], run: RecoverCommand.run),
    Command(
      name: "import", arguments: "SOURCE... TARGET", completes: "dir",
      summary: "bring whole memos into a memo folder, verified, nothing overwritten",
      description:
        "Copies each memo of each SOURCE (a memo folder, or one memo's file, which brings its whole set) into TARGET (made if missing) with every file it has, its parts folder included: each file under a temporary name, fsynced, read back and checked, renamed without replacing anything, its modification time kept. Files of no memo are not copied and are listed. A memo already here is skipped; the same base with other bytes is a conflict and nothing is overwritten; a memo still recording is left. What each import brought is recorded outside TARGET (under $XDG_STATE_HOME/stash/imports, by default ~/.local/state/stash/imports), so a memo deleted from TARGET since is not copied again (--again brings it back), and a file changed in TARGET since (a new title, a repaired audio) is no conflict. A recording of Apple's Voice Memos (named YYYYMMDD HHMMSS-XXXXXXXX.m4a or .qta, carrying the app's items, or listed in the CloudRecordings.db beside it) becomes a memo: its audio unchanged, a transcript made from the one inside it and its title; nothing is written to the source (FORMAT.md §9). Exit 0 when everything that could be imported was, 1 when something needs a person, 2 on usage or I/O errors.",
      options: [
        Option(
          name: "move",
          help:
            "remove from the source what was copied, verified and made durable (now or by an earlier import)"),
        Option(
          name: "again", help: "copy again the memos and files deleted from TARGET since they were imported"),
        Option(name: "dry-run", help: "say what would be done; write nothing"),
        Option(
          name: "include-deleted",
          help: "also bring Apple Voice Memos recordings that its database puts in Recently Deleted"),
        Option(name: "recover", help: "run the recovery sweep (stash recover) on TARGET afterwards"),
        Option(
          name: "watch", help: "keep running, importing each memo once it is complete, until interrupted"),
        Option(name: "json", help: "print the report as JSON"),
        Option(name: "format", value: "FORMAT", choices: ["text", "json"], help: "text (default) or json"),
        Option(
          name: "recent-window", value: "SECONDS",
          help: "a memo changed this recently is looked at twice (default 120)"),
        Option(name: "settle", value: "SECONDS", help: "the time between the two looks (default 3)"),
        Option(name: "no-wait", help: "fail rather than wait for another stash process"),
      ], run: ImportCommand.run),
    Command(
      name: "completions", arguments: "bash|zsh|fish", completes: "none",
      summary: "print a shell completion script",
      description:
        "Prints the completion script for the shell. bash: `stash completions bash > /etc/bash_completion.d/stash`; zsh: save as `_stash` on $fpath; fish: save as ~/.config/fish/completions/stash.fish.",
      options: [], run: CompletionsCommand.run),
    Command(
      name: "help", arguments: "[COMMAND]", completes: "none",
      summary: "show the help of stash or of one command",
      description:
        "Without a command, lists the commands. `stash help --man` prints the man page (docs/stash.1).",
      options: [Option(name: "man", help: "print the man page stash(1), in roff")], run: HelpCommand.run),
  ]

  /// The command named `name`, or nil.
  static func command(_ name: String) -> Command? { commands.first { $0.name == name } }

  /// `stash COMMAND --help` and `stash help COMMAND`.
  static func help(for name: String) -> String? {
    guard let command = command(name) else { return nil }
    var out =
      "usage: \(command.synopsis)\(command.options.isEmpty ? "" : " [OPTIONS]")\n\n"
    out += wrap(command.description, indent: "") + "\n"
    if !command.details.isEmpty { out += "\n" + command.details + "\n" }
    if !command.options.isEmpty {
      out += "\noptions:\n"
      let labels = command.options.map { option in
        (option.name.count == 1 ? "-" : "--") + option.name + (option.value.map { " " + $0 } ?? "")
      }
      let width = (labels.map(\.count).max() ?? 0) + 2
      for (label, option) in zip(labels, command.options) {
        out += "  " + label + String(repeating: " ", count: width - label.count) + option.help + "\n"
      }
    }
    return out
  }

  /// `stash --help`.
  static func overview() -> String {
    var out =
      "usage: stash COMMAND [ARGS...]\n\nstash reads a Stash memo folder as it is: lists, shows, checks and recovers voice memos.\n\ncommands:\n"
    for command in commands {
      out +=
        "  " + command.name + String(repeating: " ", count: max(1, 13 - command.name.count)) + command.summary
        + "\n"
    }
    out += "\nstash help COMMAND (or stash COMMAND --help) says more; stash --version prints the version.\n"
    return out
  }

  /// Words wrapped at 100 columns.
  static func wrap(_ text: String, indent: String) -> String {
    var lines: [String] = []
    var line = indent
    for word in text.split(separator: " ") {
      if line.count + word.count + 1 > 100 && line != indent {
        lines.append(line)
        line = indent
      }
      line += (line == indent ? "" : " ") + word
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }
}
