/// The four marks a listing shows beside a memo, the same in `stash ls` and the browser: one set,
/// described once (`legend`), so the two can never disagree.
public struct MemoMarks: Sendable, Equatable {
  /// `T`: the memo has a transcript.
  public var transcript: Bool
  /// `R`: the memo has a route.
  public var route: Bool
  /// `!`: one of the memo's files has a problem (a warning or an error): `show` says what.
  public var problem: Bool
  /// `*`: a killed recording left parts: `stash recover` assembles them.
  public var recovery: Bool

  /// Marks with the given values.
  public init(transcript: Bool, route: Bool, problem: Bool, recovery: Bool) {
    self.transcript = transcript
    self.route = route
    self.problem = problem
    self.recovery = recovery
  }

  /// Each mark and what it means, in the order they are shown.
  public static let legend: [(mark: Character, meaning: String)] = [
    ("T", "it has a transcript"), ("R", "it has a route"),
    ("!", "a file has a problem: `stash show` says what"),
    ("*", "a killed recording left parts: run `stash recover`"),
  ]

  /// The marks in order, with `absent` where one does not apply: `TR!*`, `T---`.
  public func text(absent: Character = "-") -> String {
    String([transcript, route, problem, recovery].enumerated().map { $1 ? Self.legend[$0].mark : absent })
  }
}
