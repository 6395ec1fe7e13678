/// The transcript Apple's Voice Memos keeps in a recording's `tsrp` box: UTF-8 JSON of the form
/// `{"attributedString": …, "locale": {"identifier": "en_US", …}}`, where `attributedString` is
/// Foundation's Codable form of an AttributedString in one of three shapes (FORMAT.md, "A
/// transcript from Apple's Voice Memos"):
/// - `interleaved`: `["We ", {"timeRange": [3.1, 3.48]}, "talked ", {…}]`;
/// - `table`: `{"runs": ["We ", 0, "talked ", 1, …], "attributeTable": [{…}, …]}`, where a run
///   with no attributes is written inline as `{}` rather than as an index;
/// - `plain`: a bare string, with no attributes at all.
///
/// A run's `timeRange` is two numbers in seconds: the first is where the run starts; the second
/// is read as its end or as its duration, whichever the data shows (`SecondTime.decide`).
public struct VoiceMemoTranscript: Sendable, Equatable {
  /// One run of text with the time its attributes give, if any.
  public struct Run: Sendable, Equatable {
    /// The text, exactly as Apple wrote it (pause marks and disfluencies kept).
    public var text: String
    /// When it starts, in seconds, or nil for a run without a time.
    public var start: Double?
    /// When it ends, in seconds (never before `start`), or nil.
    public var end: Double?

    /// A run.
    public init(text: String, start: Double? = nil, end: Double? = nil) {
      self.text = text
      self.start = start
      self.end = end
    }
  }

  /// Which of the three encodings `attributedString` used.
  public enum Shape: String, Sendable {
    case interleaved, table, plain
  }

  /// What the second number of a `timeRange` was read as.
  public enum SecondTime: String, Sendable {
    /// `[start, end]`.
    case end
    /// `[start, duration]`.
    case duration

    /// The reading the pairs `[first, second]` (in run order) bear out. Both readings must
    /// give each run an end no earlier than its start and no later than the next run's start.
    /// An end smaller than its start is impossible, so a second number smaller than its first
    /// (which a duration is as soon as a run starts later than it lasts: after the first second
    /// or so of any recording) means durations. Otherwise the end reading fits wherever the
    /// duration reading does (a run's start plus its second number is never less than the
    /// second number alone), so it is taken: the two differ only in files whose every run starts
    /// before it has lasted as long, and there the data cannot tell them apart.
    public static func decide(_ pairs: [(Double, Double)]) -> SecondTime {
      pairs.contains { $0.1 < $0.0 } ? .duration : .end
    }
  }

  /// The runs, in order.
  public var runs: [Run]
  /// The locale's identifier, such as `en_US`, when given.
  public var locale: String?
  /// The encoding `attributedString` used.
  public var shape: Shape
  /// How the second `timeRange` number was read.
  public var secondTime: SecondTime
  /// What was wrong but did not stop the reading: runs whose times go back are kept without a
  /// time (`mp4-bad-transcript`, a warning).
  public var diagnostics: [Diagnostic]

  /// A transcript.
  public init(
    runs: [Run], locale: String? = nil, shape: Shape = .interleaved, secondTime: SecondTime = .end,
    diagnostics: [Diagnostic] = []
  ) {
    self.runs = runs
    self.locale = locale
    self.shape = shape
    self.secondTime = secondTime
    self.diagnostics = diagnostics
  }

  /// The text of every run, joined.
  public var text: String { runs.map(\.text).joined() }

  /// Parses the `tsrp` JSON `bytes`, which start at file offset `offset` of `path`. Throws
  /// `mp4-bad-transcript` (with the byte where the JSON breaks, or the box's start for JSON of
  /// another shape) when no transcript can be read from them.
  public static func parse(_ bytes: [UInt8], path: String? = nil, offset: Int = 0) throws(FormatError)
    -> VoiceMemoTranscript
  {
    func refuse(_ message: String, at byte: Int = 0) -> FormatError {
      FormatError(
        code: .mp4BadTranscript, message: "the Voice Memos transcript (tsrp) \(message)", path: path,
        location: SourceLocation(offset: offset + byte))
    }
    let json: JSONValue
    do {
      json = try JSONReader.parse(bytes)
    } catch {
      throw refuse("is not JSON: \(error.message)", at: error.offset)
    }
    guard case .object = json, let attributed = json["attributedString"] else {
      throw refuse("is JSON of another shape: it has no \"attributedString\"")
    }
    var locale: String?
    if case .string(let identifier)? = json["locale"]?["identifier"] { locale = identifier }

    var raw: [(text: String, range: (Double, Double)?)] = []
    let shape: Shape
    do throws(ShapeError) {
      switch attributed {
      case .string(let text):
        shape = .plain
        raw = [(text, nil)]
      case .array(let items):
        shape = .interleaved
        guard items.count % 2 == 0 else { throw ShapeError("the array of runs has an odd number of items") }
        raw.reserveCapacity(items.count / 2)
        for index in stride(from: 0, to: items.count, by: 2) {
          guard case .string(let text) = items[index] else {
            throw ShapeError("item \(index) of the array of runs is not text")
          }
          raw.append((text, try timeRange(items[index + 1], run: index / 2)))
        }
      case .object:
        shape = .table
        guard case .array(let items)? = attributed["runs"] else {
          throw ShapeError("\"attributedString\" is an object without an array \"runs\"")
        }
        var table: [JSONValue] = []
        if let given = attributed["attributeTable"] {
          guard case .array(let entries) = given else {
            throw ShapeError("\"attributeTable\" is not an array")
          }
          table = entries
        }
        guard items.count % 2 == 0 else { throw ShapeError("\"runs\" has an odd number of items") }
        raw.reserveCapacity(items.count / 2)
        for index in stride(from: 0, to: items.count, by: 2) {
          guard case .string(let text) = items[index] else {
            throw ShapeError("item \(index) of \"runs\" is not text")
          }
          let attributes: JSONValue
          switch items[index + 1] {
          case .int(let entry):
            guard table.indices.contains(entry) else {
              throw ShapeError(
                "run \(index / 2) refers to attribute \(entry), but \"attributeTable\" has \(table.count)")
            }
            attributes = table[entry]
          case .object: attributes = items[index + 1]
          default: throw ShapeError("run \(index / 2)'s attributes are neither an index nor an object")
          }
          raw.append((text, try timeRange(attributes, run: index / 2)))
        }
      default:
        throw ShapeError("\"attributedString\" is neither text, an array nor an object")
      }
    } catch {
      throw refuse("is JSON of another shape: \(error.message)")
    }

    let secondTime = SecondTime.decide(raw.compactMap(\.range))
    var runs: [Run] = []
    runs.reserveCapacity(raw.count)
    var diagnostics: [Diagnostic] = []
    var latest: Double?
    var backwards: [Int] = []
    for (index, run) in raw.enumerated() {
      guard let (first, second) = run.range else {
        runs.append(Run(text: run.text))
        continue
      }
      if let latest, first < latest {
        // Times that go back would put a word before the one said before it: kept untimed.
        backwards.append(index)
        runs.append(Run(text: run.text))
        continue
      }
      latest = first
      let end = secondTime == .end ? second : first + second
      runs.append(Run(text: run.text, start: first, end: max(end, first)))
    }
    if let first = backwards.first {
      diagnostics.append(
        Diagnostic(
          code: .mp4BadTranscript, severity: .warning,
          message:
            "the times of \(Text.count(backwards.count, "run")) of the Voice Memos transcript go back (the first "
            + "is run \(first + 1) of \(raw.count)); they are kept without a time",
          location: SourceLocation(offset: offset)))
    }
    return VoiceMemoTranscript(
      runs: runs, locale: locale, shape: shape, secondTime: secondTime, diagnostics: diagnostics)
  }

  private struct ShapeError: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }

  /// The latest time a `timeRange` may give, in seconds (some 115 days): times are written to the
  /// millisecond, and nothing longer is a recording.
  public static let latestTime = 10_000_000.0

  /// The `timeRange` of an attributes object: nil when it has none, two numbers from 0 to
  /// `latestTime`.
  private static func timeRange(_ attributes: JSONValue, run: Int) throws(ShapeError) -> (Double, Double)? {
    guard case .object = attributes else { throw ShapeError("run \(run)'s attributes are not an object") }
    guard let range = attributes["timeRange"] else { return nil }
    guard case .array(let numbers) = range, numbers.count == 2, let first = number(numbers[0]),
      let second = number(numbers[1]), first >= 0, second >= 0, first <= latestTime, second <= latestTime
    else {
      throw ShapeError(
        "run \(run)'s timeRange is not two numbers of seconds (0 to \(Int(latestTime)))")
    }
    return (first, second)
  }

  private static func number(_ value: JSONValue) -> Double? {
    switch value {
    case .int(let whole): Double(whole)
    case .double(let real): real
    default: nil
    }
  }
}
