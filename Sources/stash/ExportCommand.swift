import StashFormat
import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

/// `stash export MEMO --to txt|md|srt|json|geojson [-o FILE] [--force]`: the transcript or the
/// route in a format other tools read, to standard output or atomically to a file. With
/// `--clip FROM-TO` (or `bookmark:N`): `--to m4a` writes the span's audio as a new file (frames
/// copied, never decoded: `AudioClip`), `--to vtt|srt|txt` the span's transcript.
enum ExportCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(words, for: "export")
    if arguments.flags.contains("help") || arguments.flags.contains("h") {
      print(CommandCatalogue.help(for: "export")!, terminator: "")
      return 0
    }
    guard arguments.positionals.count == 1 else {
      throw UsageError(message: "give one memo: stash export MEMO --to txt|md|srt|json|geojson")
    }
    // `--format F` is `--to F`, and `--json` is `--to json`, as every command that prints JSON
    // takes them; given together, they must agree.
    var asked: [(spelling: String, format: String)] = []
    if let to = arguments.options["to"] { asked.append(("--to \(to)", to)) }
    if let named = arguments.options["format"] { asked.append(("--format \(named)", named)) }
    if arguments.flags.contains("json") { asked.append(("--json", "json")) }
    if let other = asked.first(where: { $0.format != asked[0].format }) {
      throw UsageError(message: "\(asked[0].spelling) and \(other.spelling) ask for different outputs")
    }
    guard let format = asked.first?.format else {
      throw UsageError(message: "say what to write: --to txt, md, srt, json or geojson")
    }
    let clipText = arguments.options["clip"]
    if clipText != nil {
      guard ["m4a", "wav", "vtt", "srt", "txt"].contains(format) else {
        throw UsageError(message: "--clip takes --to m4a, wav, vtt, srt or txt, not '\(format)'")
      }
    } else {
      guard ["txt", "md", "srt", "json", "geojson"].contains(format) else {
        throw UsageError(
          message: format == "m4a" || format == "wav" || format == "vtt"
            ? "--to \(format) writes a clip: add --clip FROM-TO"
            : "--to takes txt, md, srt, json or geojson (m4a and vtt with --clip), not '\(format)'")
      }
    }
    let output = arguments.options["o"] ?? arguments.options["output"]
    let force = arguments.flags.contains("force")
    let reference = try MemoReference(arguments.positionals[0])
    var span: ClipSpan?
    if let clipText {
      do {
        span = try ClipSpan(
          clipText, bookmarks: reference.bookmarks().items, audioLength: reference.memo.durationSeconds)
      } catch {
        throw UsageError(message: "--clip: \(error.message)")
      }
    }
    if format == "m4a" || format == "wav", let span {
      return try clip(reference, span: span, as: format, output: output, force: force)
    }
    let text: String
    do {
      if format == "geojson" {
        guard let route = try reference.route() else {
          standardError(
            "stash export: the memo has no route (\(PathText.escaped(reference.memo.base))_track.gpx)")
          return 2
        }
        text = geoJSON(route).serialized(pretty: true) + "\n"
        warn(route.diagnostics, in: reference.path(.route))
      } else {
        guard let transcript = try reference.transcript() else {
          standardError(
            "stash export: the memo has no transcript (\(PathText.escaped(reference.memo.base))_transcription.vtt)"
          )
          return 2
        }
        let bookmarks = reference.bookmarks()
        if let span {
          let clipped = transcript.clipped(from: span.from, to: span.to)
          text =
            format == "vtt"
            ? WebVTTWriter.serialize(clipped) : render(clipped, as: format, memo: reference.memo)
        } else {
          text = render(transcript, as: format, memo: reference.memo, bookmarks: bookmarks.items)
        }
        warn(transcript.diagnostics, in: reference.path(.transcript))
        if format == "md" || format == "json" { warn(bookmarks.problems, in: reference.path(.bookmarks)) }
      }
    } catch {
      standardError("stash export: \(error)")
      return 2
    }
    guard let output, output != "-" else {
      print(text, terminator: "")
      return 0
    }
    return write(text, to: output, force: force)
  }

  /// `--to m4a` or `--to wav`: the span's audio as a new file that is never in the memo folder and
  /// never replaces a file without `--force`. m4a copies its frames (`AudioClip`); wav is the span
  /// decoded to PCM by `stash-tui --decode` (this program links no decoder: stash-tui, beside it or
  /// on PATH, does).
  static func clip(
    _ reference: MemoReference, span: ClipSpan, as format: String, output: String?, force: Bool
  ) throws -> Int32 {
    guard let output, output != "-" else {
      throw UsageError(message: "--to \(format) writes a file: give -o FILE")
    }
    guard let audio = reference.path(.audio) else {
      standardError(
        "stash export: the memo has no audio (\(PathText.escaped(reference.memo.base))_audio.m4a)")
      return 2
    }
    if !force && access(output, F_OK) == 0 {
      standardError("stash export: \(PathText.escaped(output)) exists; add --force to replace it")
      return 2
    }
    guard format == "m4a" else {
      guard let decoder = Self.decoderProgram() else {
        standardError(
          "stash export: --to wav decodes the audio, which stash-tui does, and no stash-tui is beside "
            + "stash or on PATH: install stash-tui (its Debian package has the same name), or use --to m4a")
        return 2
      }
      let arguments = [
        decoder, "--decode", audio, "--from", "\(span.from)", "--to", "\(span.to)", "-o", output,
      ]
      return Self.spawn(arguments + (force ? ["--force"] : []))
    }
    do {
      try AudioClip.write(
        source: audio, memoFolder: reference.folder.path, from: span.from, to: span.to,
        title: reference.memo.displayName, recordedAt: reference.memo.recordedAt, output: output,
        replace: force, fileSystem: SystemFileSystem())
    } catch {
      standardError("stash export: \(error)")
      return 2
    }
    return 0
  }

  /// `stash-tui` beside this program (as a package installs both), else the first on PATH.
  static func decoderProgram() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    var places: [String] = []
    if length > 0 {
      let me = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      places.append(PathText.folder(of: me))
    }
    places += (getenv("PATH").map { String(cString: $0) } ?? "").split(separator: ":").map(String.init)
    return places.lazy.map { PathText.join($0, "stash-tui") }.first { access($0, X_OK) == 0 }
  }

  /// Runs `arguments` (a program and its arguments) with this program's environment and standard
  /// streams, and returns its exit status (2 when it could not be run or was killed).
  static func spawn(_ arguments: [String]) -> Int32 {
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, arguments[0], nil, nil, &argv, environ) == 0 else {
      standardError("stash export: \(PathText.escaped(arguments[0])) could not be run")
      return 2
    }
    var status: Int32 = 0
    guard SystemCall.retrying({ waitpid(pid, &status, 0) }) == pid else { return 2 }
    // WIFEXITED and WEXITSTATUS, which Swift does not import.
    return status & 0x7f == 0 ? (status >> 8) & 0xff : 2
  }

  /// Says on standard error what is wrong with a file exported though damaged (its errors, as
  /// lint names them): what it holds is exported, and the export still succeeds.
  static func warn(_ diagnostics: [Diagnostic], in path: String?) {
    guard let path else { return }
    for damage in diagnostics where damage.severity == .error {
      standardError("stash export: warning: " + damage.warning(file: path, done: "exported what it holds"))
    }
  }

  /// Writes atomically (temporary file, fsync, rename, fsync the folder); refuses to replace a file without `force`.
  static func write(_ text: String, to output: String, force: Bool) -> Int32 {
    let slash = output.lastIndex(of: "/")
    let given = PathText.folder(of: output)
    let name = slash.map { String(output[output.index(after: $0)...]) } ?? output
    guard !name.isEmpty else {
      standardError("stash export: \(PathText.escaped(output)) names a folder; give a file name")
      return 2
    }
    if !force && access(output, F_OK) == 0 {
      standardError("stash export: \(PathText.escaped(output)) exists; add --force to replace it")
      return 2
    }
    do {
      // The folder is followed if it is a link: the write's fsync of it follows none.
      let folder = try MemoFolderPath.resolve(given)
      try AtomicFile.write(
        Array(text.utf8), named: name, in: folder, mode: force ? .replace : .createNew,
        fileSystem: SystemFileSystem())
    } catch {
      standardError("stash export: cannot write \(PathText.escaped(output)): \(error)")
      return 2
    }
    return 0
  }

  /// A cue's text on one line: line breaks made spaces.
  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
  }

  /// `{"id","start","end","text","unconfirmed"}` for one cue.
  static func cueJSON(_ cue: WebVTTCue) -> JSONValue {
    .object([
      ("id", .string(cue.id)),
      ("start", .seconds(cue.startTime)),
      ("end", .seconds(cue.endTime)),
      ("text", .string(cue.plainText)),
      ("unconfirmed", .bool(cue.hasUnconfirmedText)),
    ])
  }

  /// `hh:mm:ss` then `separator` and milliseconds (SRT uses `,`).
  static func timestamp(_ seconds: Double, separator: String) -> String {
    let millis = max(0, Int((seconds * 1000).rounded()))
    func pad(_ n: Int, _ width: Int) -> String { Text.zeroPadded(n, width: width) }
    return "\(pad(millis / 3_600_000, 2)):\(pad(millis / 60_000 % 60, 2)):\(pad(millis / 1000 % 60, 2))"
      + separator + pad(millis % 1000, 3)
  }

  /// Text as Markdown reads it as words: its own characters escaped, on one line.
  static func markdown(_ text: String) -> String {
    oneLine(text).replacingAll("\\", "\\\\").replacingAll("*", "\\*").replacingAll("_", "\\_")
      .replacingAll("[", "\\[").replacingAll("<", "&lt;")
  }

  /// The transcript as txt, md, srt or json; md and json end with the memo's `bookmarks`.
  static func render(
    _ transcript: WebVTTDocument, as format: String, memo: Memo, bookmarks: [Bookmark] = []
  ) -> String {
    let cues = transcript.cues
    switch format {
    case "txt":
      return cues.map { oneLine($0.markedText) + "\n" }.joined()
    case "md":
      var out = "# \(memo.displayName)\n\n"
      for cue in cues {
        // Markdown's own characters in speech are escaped so they read as words.
        out += "**[\(timestamp(cue.startTime, separator: "."))]** \(markdown(cue.markedText))\n\n"
      }
      if !bookmarks.isEmpty {
        out += "## Bookmarks\n\n"
        for bookmark in bookmarks {
          let note = bookmark.note.isEmpty ? "" : " " + markdown(bookmark.note)
          out += "- **[\(timestamp(bookmark.at, separator: "."))]**\(note)\n"
        }
        out += "\n"
      }
      return out
    case "srt":
      var out = ""
      for (n, cue) in cues.enumerated() {
        out +=
          "\(n + 1)\n\(timestamp(cue.startTime, separator: ",")) --> \(timestamp(cue.endTime, separator: ","))\n"
        // A blank line ends an SRT entry, so blank lines inside a cue are dropped.
        // SRT players show <i>, <b> and <u>, so they are kept (WebVTTCue.srtText).
        let lines = cue.srtText.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
        out += (lines.isEmpty ? [""] : lines.map(String.init)).joined(separator: "\n") + "\n\n"
      }
      return out
    default:
      return JSONValue.object([
        ("base", .string(memo.base)),
        ("title", .optional(memo.titleText)),
        ("recordedAt", .string(RecordingDate.isoUTC(memo.recordedAt))),
        (
          "missingSpeech",
          .array(
            transcript.missingSpeech.map {
              .object([("start", .seconds($0.start)), ("end", .seconds($0.end))])
            })
        ),
        ("cues", .array(cues.map(cueJSON))),
        ("bookmarks", .array(bookmarks.map(\.json))),
      ]).serialized(pretty: true) + "\n"
    }
  }

  /// The route as an RFC 7946 FeatureCollection: a LineString per segment (a Point for a segment of
  /// one point), longitude before latitude, with the points' times as `coordTimes`. Segments are
  /// never joined: a boundary is a gap in the recording. Points off the globe, which RFC 7946
  /// forbids, are left out and break their segment; `offGlobePointCount` says how many when there are any.
  static func geoJSON(_ route: GPXDocument) -> JSONValue {
    var features: [JSONValue] = []
    for (t, track) in route.tracks.enumerated() {
      for (s, segment) in track.segmentsOnGlobe.enumerated() where !segment.points.isEmpty {
        // Each point keeps its own elevation: a segment that mixes both has positions of two and
        // of three numbers, which RFC 7946 allows (docs/stash.1, EXPORT).
        let positions: [JSONValue] = segment.points.map { point in
          var position: [JSONValue] = [.double(point.longitude), .double(point.latitude)]
          if let elevation = point.elevation { position.append(.double(elevation)) }
          return .array(position)
        }
        let geometry: JSONValue =
          positions.count == 1
          ? .object([("type", .string("Point")), ("coordinates", positions[0])])
          : .object([("type", .string("LineString")), ("coordinates", .array(positions))])
        let times = segment.points.map { point in
          point.time.map { JSONValue.string(ISO8601Time.format($0)) } ?? .null
        }
        features.append(
          .object([
            ("type", .string("Feature")),
            ("geometry", geometry),
            (
              "properties",
              .object([
                ("track", .int(t)),
                ("segment", .int(s)),
                ("name", .optional(track.name)),
                ("start", times.first ?? .null),
                ("end", times.last ?? .null),
                ("coordTimes", .array(times)),
              ])
            ),
          ]))
      }
    }
    var collection: [(String, JSONValue)] = [
      ("type", .string("FeatureCollection")), ("features", .array(features)),
    ]
    let offGlobe = route.offGlobePointCount
    if offGlobe > 0 { collection.append(("offGlobePointCount", .int(offGlobe))) }
    return .object(collection)
  }
}
