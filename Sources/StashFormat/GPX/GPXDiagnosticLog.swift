/// Collects a reader's diagnostics, keeping at most `limit` of each code so a million bad points
/// give twenty messages and a count rather than a million messages.
struct GPXDiagnosticLog {
  /// How many diagnostics of one code are kept before the rest are only counted.
  static let limit = 20
  private(set) var kept: [Diagnostic] = []
  private var counts: [FormatError.Code: Int] = [:]

  mutating func add(
    _ code: FormatError.Code, _ severity: Severity, _ message: String, at location: SourceLocation
  ) {
    let count = counts[code, default: 0] + 1
    counts[code] = count
    if count <= Self.limit {
      kept.append(Diagnostic(code: code, severity: severity, message: message, location: location))
    }
  }

  /// Everything kept, followed by one summary per code that went past the limit, in the codes'
  /// order as text.
  func finished() -> [Diagnostic] {
    var all = kept
    for code in counts.keys.sorted(by: { $0.rawValue < $1.rawValue }) where counts[code]! > Self.limit {
      let first = kept.first { $0.code == code }!
      let unlisted = counts[code]! - Self.limit
      all.append(
        Diagnostic(
          code: code, severity: first.severity, message: Diagnostic.unlistedMessage(unlisted),
          unlisted: unlisted))
    }
    return all
  }
}
