/// One bookmark: a moment in a memo, with an optional note (empty for none).
public struct Bookmark: Sendable, Equatable, Hashable {
  /// Seconds from the audio's start, to the millisecond.
  public var at: Double
  /// The note, one line; empty when none was given.
  public var note: String

  public init(at: Double, note: String = "") {
    self.at = at
    self.note = note
  }
}

/// A memo's bookmarks, read from or written as `<base>_bookmarks.vtt` (FORMAT.md §8): WebVTT
/// chapters, one cue a bookmark, the note as the cue's text; each cue runs from its moment to the
/// next bookmark's, the last to the audio's end (its moment plus one second when the length is
/// unknown), so no cue is empty.
public struct Bookmarks: Sendable, Equatable {
  /// The header text stash writes after `WEBVTT`: a file without it was not written by stash.
  public static let header = "stash bookmarks"
  /// How far from a moment a bookmark is still "at" it, in seconds (removing one).
  public static let reach = 0.5
  /// How long the last cue runs when the audio's length is unknown, in seconds.
  public static let unknownLengthTail = 1.0
  /// The most a bookmarks file is read of: a file of notes, not a recording.
  public static let maximumBytes = 16 << 20

  /// The bookmarks in time order (the file's order for equal moments).
  public private(set) var items: [Bookmark]
  /// What is wrong with the file; `bookmarks-` codes, in file order. Not part of equality.
  public var problems: [Diagnostic] = []
  /// Whether the file's first line is stash's own (`WEBVTT stash bookmarks`). Not part of equality.
  public var writtenByStash = true

  /// Bookmarks in memory, put in time order.
  public init(_ items: [Bookmark] = []) {
    self.items = Self.ordered(items)
  }

  public static func == (lhs: Bookmarks, rhs: Bookmarks) -> Bool { lhs.items == rhs.items }

  /// Whether the file is broken (`bookmarks-broken`): stash must not write over it, it would lose
  /// what it could not read.
  public var isBroken: Bool { problems.contains { $0.code == .bookmarksBroken } }

  /// Whether the file needs writing again to be as stash writes it: cues out of order or not
  /// chained, and nothing broken.
  public var needsRechaining: Bool {
    !isBroken && problems.contains { $0.code == .bookmarksOutOfOrder || $0.code == .bookmarksNotChained }
  }

  // MARK: Changing

  /// `time` to the millisecond, as the file holds it.
  public static func rounded(_ time: Double) -> Double { (time * 1000).rounded() / 1000 }

  /// Adds `bookmark` (its moment rounded to the millisecond) in its place; false, and nothing
  /// added, when a bookmark is already at that very millisecond (two cues would be one).
  @discardableResult
  public mutating func add(_ bookmark: Bookmark) -> Bool {
    var bookmark = bookmark
    bookmark.at = Self.rounded(bookmark.at)
    if items.contains(where: { $0.at == bookmark.at }) { return false }
    let index = items.firstIndex { $0.at > bookmark.at } ?? items.endIndex
    items.insert(bookmark, at: index)
    return true
  }

  /// The index of the bookmark nearest `time` within `reach` (the earlier on a tie), or nil.
  public func index(near time: Double) -> Int? {
    var best: Int?
    for (index, bookmark) in items.enumerated() where abs(bookmark.at - time) <= Self.reach + 0.0005 {
      if let current = best, abs(items[current].at - time) <= abs(bookmark.at - time) { continue }
      best = index
    }
    return best
  }

  /// Removes and returns the bookmark `index(near:)` finds, or nil when none is within reach.
  public mutating func remove(near time: Double) -> Bookmark? {
    guard let index = index(near: time) else { return nil }
    return items.remove(at: index)
  }

  /// Gives the bookmark `index(near:)` finds the note `note`; returns it as changed, or nil when
  /// none is within reach.
  public mutating func annotate(near time: Double, note: String) -> Bookmark? {
    guard let index = index(near: time) else { return nil }
    items[index].note = note
    return items[index]
  }

  // MARK: Writing

  /// The end of the cue of bookmark `index`: the next bookmark's moment, else the audio's end,
  /// else (length unknown, or the bookmark past it) the moment plus `unknownLengthTail`.
  func end(of index: Int, audioLength: Double?) -> Double {
    if index + 1 < items.count { return items[index + 1].at }
    let at = items[index].at
    if let audioLength, audioLength.isFinite, Self.rounded(audioLength) > at {
      return Self.rounded(audioLength)
    }
    return at + Self.unknownLengthTail
  }

  /// The file as a WebVTT document: stash's header, one chained cue per bookmark.
  public func document(audioLength: Double?) -> WebVTTDocument {
    let cues = items.indices.map { index in
      WebVTTCue(
        startTime: items[index].at, endTime: end(of: index, audioLength: audioLength),
        nodes: items[index].note.isEmpty ? [] : [.text(items[index].note)])
    }
    return WebVTTDocument(headerText: Self.header, cues: cues)
  }

  /// The file's bytes, as `WebVTTWriter` writes `document(audioLength:)`.
  public func bytes(audioLength: Double?) -> [UInt8] {
    WebVTTWriter.bytes(document(audioLength: audioLength))
  }

  // MARK: Reading

  /// Reads the bookmarks file at `path`; a file that cannot be read is `bookmarks-broken`, never a
  /// throw. `audioLength`, when known, is checked against (`bookmarks-past-end`, the last cue's end).
  public static func read(path: String, audioLength: Double? = nil) -> Bookmarks {
    do {
      return parse(try ReadOnlyFile.contents(of: path, limit: maximumBytes), audioLength: audioLength)
    } catch {
      var bookmarks = Bookmarks()
      bookmarks.problems = [
        Diagnostic(
          code: .bookmarksBroken, severity: .error, message: "the bookmarks cannot be read: \(error.message)")
      ]
      return bookmarks
    }
  }

  /// Reads a bookmarks file's bytes through the WebVTT parser. Every error of the parser but the
  /// order and emptiness of cues (which `bookmarks-out-of-order` and `bookmarks-not-chained`
  /// report) is `bookmarks-broken`, at the parser's place; the bookmarks read are kept in time order.
  public static func parse(_ bytes: [UInt8], audioLength: Double? = nil) -> Bookmarks {
    let document = WebVTTParser.parse(bytes)
    var problems: [Diagnostic] = []
    for diagnostic in document.diagnostics
    where diagnostic.severity == .error && diagnostic.code != .vttCueOutOfOrder
      && diagnostic.code != .vttEndNotAfterStart
    {
      problems.append(
        Diagnostic(
          code: .bookmarksBroken, severity: .error,
          message: "not the WebVTT a bookmarks file is: \(diagnostic.message)", location: diagnostic.location)
      )
    }
    let cues = document.cues
    func line(_ index: Int) -> SourceLocation {
      SourceLocation(line: index < document.cueLines.count ? document.cueLines[index] : nil)
    }
    for index in cues.indices.dropFirst() where cues[index].startTime < cues[index - 1].startTime {
      problems.append(
        Diagnostic(
          code: .bookmarksOutOfOrder, severity: .warning,
          message:
            "the bookmark at \(WebVTTTimestamp.formatShort(cues[index].startTime)) comes after the one at \(WebVTTTimestamp.formatShort(cues[index - 1].startTime)); bookmarks are written in time order",
          location: line(index)))
    }
    // The cues in time order, the file's order kept for equal moments.
    let order = cues.indices.sorted { (cues[$0].startTime, $0) < (cues[$1].startTime, $1) }
    for (rank, index) in order.enumerated() {
      let cue = cues[index]
      let expected: Double?
      let what: String
      if rank + 1 < order.count {
        expected = cues[order[rank + 1]].startTime
        what = "where the next bookmark is"
      } else if let audioLength, audioLength.isFinite, rounded(audioLength) > cue.startTime {
        expected = rounded(audioLength)
        what = "where the audio ends"
      } else {
        expected = nil
        what = "after it starts"
      }
      let chained =
        expected.map { abs(cue.endTime - $0) < 0.0005 && cue.endTime > cue.startTime }
        ?? (cue.endTime > cue.startTime)
      if !chained {
        let target = expected.map { " (\(WebVTTTimestamp.formatShort($0)))" } ?? ""
        problems.append(
          Diagnostic(
            code: .bookmarksNotChained, severity: .warning,
            message:
              "the bookmark at \(WebVTTTimestamp.formatShort(cue.startTime)) ends at \(WebVTTTimestamp.formatShort(cue.endTime)); its cue must end \(what)\(target)",
            location: line(index)))
      }
      if let audioLength, audioLength.isFinite, cue.startTime >= audioLength {
        problems.append(
          Diagnostic(
            code: .bookmarksPastEnd, severity: .warning,
            message:
              "the bookmark at \(WebVTTTimestamp.formatShort(cue.startTime)) is not within the audio, which ends at \(WebVTTTimestamp.formatShort(audioLength))",
            location: line(index)))
      }
    }
    var bookmarks = Bookmarks(cues.map { Bookmark(at: $0.startTime, note: $0.plainText) })
    bookmarks.problems = problems.sorted { ($0.location.line ?? 0) < ($1.location.line ?? 0) }
    bookmarks.writtenByStash = document.headerText.split(separator: "\n").first == Substring(header)
    return bookmarks
  }

  /// `items` in time order, the given order kept for equal moments.
  private static func ordered(_ items: [Bookmark]) -> [Bookmark] {
    items.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
  }
}

extension Bookmarks {
  /// `stash bookmarks --json` (docs/bookmarks.schema.json): the version, then each bookmark's
  /// moment in seconds and its note (empty for none), in time order.
  package var json: JSONValue {
    .object([
      ("version", .int(1)),
      ("bookmarks", .array(items.map(\.json))),
    ])
  }
}

extension Bookmark {
  /// `{"at": seconds, "note": text}`.
  package var json: JSONValue { .object([("at", .seconds(at)), ("note", .string(note))]) }
}
