import StashFormat

/// What the detail pane shows about one memo beyond its row: the transcript and the route.
package struct MemoDetail: Equatable, Sendable {
  /// One word of a cue, with its own time where the transcript has word times.
  package struct Word: Equatable, Sendable {
    package var text: String
    /// Start in seconds, or nil.
    package var start: Double?
    /// Whether the speech engine never confirmed it.
    package var unconfirmed: Bool

    /// A value with every field given.
    package init(text: String, start: Double? = nil, unconfirmed: Bool) {
      self.text = text
      self.start = start
      self.unconfirmed = unconfirmed
    }
  }

  /// One cue as shown.
  package struct Cue: Equatable, Sendable {
    package var start: Double
    package var end: Double
    /// The words, in order; spaces go between them.
    package var words: [Word]

    /// The cue's plain text.
    package var text: String { words.map(\.text).joined(separator: " ") }
    /// Whether any word has its own time.
    package var hasWordTimes: Bool { words.contains { $0.start != nil } }

    /// A value with every field given.
    package init(start: Double, end: Double, words: [Word]) {
      self.start = start
      self.end = end
      self.words = words
    }
  }

  /// A stretch of the recording whose speech is known to be missing.
  package struct Gap: Equatable, Sendable {
    package var start: Double
    package var end: Double

    /// A value with every field given.
    package init(start: Double, end: Double) {
      self.start = start
      self.end = end
    }
  }

  /// The transcript, or why there is none.
  package enum Transcript: Equatable, Sendable {
    case cues([Cue])
    /// No transcript: the reason in plain words.
    case absent(String)
    /// A transcript that cannot be read: the reason and where.
    case unreadable(reason: String, line: Int?)
  }

  /// A route's summary and its path for the sketch.
  package struct Route: Equatable, Sendable {
    package var distanceMetres: Double
    package var durationSeconds: Double?
    package var elevationGainMetres: Double?
    package var points: Int
    package var segments: Int
    /// Latitude/longitude per segment, for the sketch.
    package var paths: [[(Double, Double)]]

    package static func == (a: Route, b: Route) -> Bool {
      a.distanceMetres == b.distanceMetres && a.durationSeconds == b.durationSeconds
        && a.elevationGainMetres == b.elevationGainMetres && a.points == b.points
        && a.segments == b.segments && a.paths.count == b.paths.count
        && zip(a.paths, b.paths).allSatisfy { p, q in
          p.count == q.count && zip(p, q).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        }
    }

    /// A value with every field given.
    package init(
      distanceMetres: Double, durationSeconds: Double? = nil, elevationGainMetres: Double? = nil, points: Int,
      segments: Int, paths: [[(Double, Double)]]
    ) {
      self.distanceMetres = distanceMetres
      self.durationSeconds = durationSeconds
      self.elevationGainMetres = elevationGainMetres
      self.points = points
      self.segments = segments
      self.paths = paths
    }
  }

  /// The transcript.
  package var transcript: Transcript
  /// Missing speech announced by the transcript.
  package var missingSpeech: [Gap]
  /// Notes about the transcript worth showing (diagnostics in plain words).
  package var transcriptNotes: [String]
  /// The route, if any.
  package var route: Route?
  /// Why the route cannot be shown, when its file is there but unreadable.
  package var routeProblem: String?
  /// The bookmarks (`<base>_bookmarks.vtt`), in time order, as far as the file reads.
  package var bookmarks: [Bookmark] = []
  /// Why the bookmarks file cannot be read whole, when it cannot (`stash lint` says more).
  package var bookmarksProblem: String?

  /// The cues, or none.
  package var cues: [Cue] {
    if case .cues(let c) = transcript { return c }
    return []
  }

  /// A value with every field given.
  package init(
    transcript: Transcript, missingSpeech: [Gap], transcriptNotes: [String], route: Route? = nil,
    routeProblem: String? = nil
  ) {
    self.transcript = transcript
    self.missingSpeech = missingSpeech
    self.transcriptNotes = transcriptNotes
    self.route = route
    self.routeProblem = routeProblem
  }
}
