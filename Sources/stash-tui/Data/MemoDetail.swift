/// What the detail pane shows about one memo beyond its row: the transcript and the route.
struct MemoDetail: Equatable, Sendable {
  /// One word of a cue, with its own time where the transcript has word times.
  struct Word: Equatable, Sendable {
    var text: String
    /// Start in seconds, or nil.
    var start: Double?
    /// Whether the speech engine never confirmed it.
    var unconfirmed: Bool
  }

  /// One cue as shown.
  struct Cue: Equatable, Sendable {
    var start: Double
    var end: Double
    /// The words, in order; spaces go between them.
    var words: [Word]

    /// The cue's plain text.
    var text: String { words.map(\.text).joined(separator: " ") }
    /// Whether any word has its own time.
    var hasWordTimes: Bool { words.contains { $0.start != nil } }
  }

  /// A stretch of the recording whose speech is known to be missing.
  struct Gap: Equatable, Sendable {
    var start: Double
    var end: Double
  }

  /// The transcript, or why there is none.
  enum Transcript: Equatable, Sendable {
    case cues([Cue])
    /// No transcript: the reason in plain words.
    case absent(String)
    /// A transcript that cannot be read: the reason and where.
    case unreadable(reason: String, line: Int?)
  }

  /// A route's summary and its path for the sketch.
  struct Route: Equatable, Sendable {
    var distanceMetres: Double
    var durationSeconds: Double?
    var elevationGainMetres: Double?
    var points: Int
    var segments: Int
    /// Latitude/longitude per segment, for the sketch.
    var paths: [[(Double, Double)]]

    static func == (a: Route, b: Route) -> Bool {
      a.distanceMetres == b.distanceMetres && a.durationSeconds == b.durationSeconds
        && a.elevationGainMetres == b.elevationGainMetres && a.points == b.points
        && a.segments == b.segments && a.paths.count == b.paths.count
        && zip(a.paths, b.paths).allSatisfy { p, q in
          p.count == q.count && zip(p, q).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        }
    }
  }

  /// The transcript.
  var transcript: Transcript
  /// Missing speech announced by the transcript.
  var missingSpeech: [Gap]
  /// Notes about the transcript worth showing (diagnostics in plain words).
  var transcriptNotes: [String]
  /// The route, if any.
  var route: Route?
  /// Why the route cannot be shown, when its file is there but unreadable.
  var routeProblem: String?

  /// The cues, or none.
  var cues: [Cue] {
    if case .cues(let c) = transcript { return c }
    return []
  }
}
