/// One row of the results table: a figure, what it came to, its target and whether it met it.
struct Figure {
  /// Whether a figure met its target.
  enum Verdict: String {
    case pass = "pass"
    case fail = "FAIL"
    case info = "info"
    case notMeasured = "not measured"

    /// `.pass` when `ok`, else `.fail`.
    static func verdict(_ ok: Bool) -> Verdict { ok ? .pass : .fail }
  }

  var issue: String
  var name: String
  var result: String
  var target: String
  var verdict: Verdict
  var note: String = ""

  /// A figure that could not be measured, with the reason in the note.
  static func missing(_ issue: String, _ name: String, target: String, because reason: String) -> Figure {
    Figure(issue: issue, name: name, result: "—", target: target, verdict: .notMeasured, note: reason)
  }
}

/// One row of the side-by-side table: a peer tool on the same input as ours.
struct PeerRow {
  var task: String
  var peer: String
  var input: String
  var theirs: String
  var ours: String
  /// How many times faster ours is (their time over ours), or a reason it is missing.
  var ratio: String
  /// Where the peer's answers differ from ours.
  var agreement: String
}
