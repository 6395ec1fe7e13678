#if canImport(Glibc)
  import Glibc
#endif

extension LintFinding {
  /// The findings in the order they are printed: by path (bytes), then position, then code, then
  /// message; findings equal in all of those keep their order. A folder with many findings has
  /// many per file, so each distinct path is ranked once and findings compare ranks (comparing
  /// paths as strings pair by pair took seconds for 100,000 findings).
  package static func sorted(_ findings: [LintFinding]) -> [LintFinding] {
    // Runs of findings on one path (a file's checks add them together), each with its path's bytes.
    var runs: [[UInt8]] = []
    var runOf = [Int](repeating: 0, count: findings.count)
    for index in findings.indices {
      if index == 0 || !sameBytes(findings[index].path, findings[index - 1].path) {
        runs.append(Array(findings[index].path.utf8))
      }
      runOf[index] = runs.count - 1
    }
    // Byte-equal paths share a rank even when their runs are apart.
    let byPath = runs.indices.sorted { runs[$0].lexicographicallyPrecedes(runs[$1]) }
    var rankOfRun = [Int](repeating: 0, count: runs.count)
    var rank = 0
    for (position, run) in byPath.enumerated() {
      if position > 0 && runs[run] != runs[byPath[position - 1]] { rank += 1 }
      rankOfRun[run] = rank
    }
    let order = findings.indices.sorted { a, b in
      let (ra, rb) = (rankOfRun[runOf[a]], rankOfRun[runOf[b]])
      if ra != rb { return ra < rb }
      let within = compareInFile(findings[a], findings[b])
      return within != 0 ? within < 0 : a < b
    }
    return order.map { findings[$0] }
  }

  /// Findings of one folder, added source by source, handed on in print order: a finding is held
  /// only until a bound past it shows that nothing still to come prints before it. Within one
  /// folder every printed path is the folder joined with the name, so names order them.
  package struct Window {
    /// The findings not yet handed on, in the order they were added or, after a release, sorted.
    private var pending: [LintFinding] = []

    /// How many findings are held (a test's view of the window's size).
    package var count: Int { pending.count }

    /// Adds findings that were found after those already held.
    package mutating func add(_ findings: [LintFinding]) { pending += findings }

    /// Hands on, in order, every held finding whose name sorts before `bound` (all of them when
    /// `bound` is nil); the rest stay, still in the order that keeps ties stable.
    package mutating func release(before bound: [UInt8]?, to emit: (LintFinding) -> Void) {
      guard !pending.isEmpty else { return }
      pending = LintFinding.sorted(pending)
      guard let bound else {
        pending.forEach(emit)
        pending = []
        return
      }
      var released = 0
      while released < pending.count, pending[released].name.utf8.lexicographicallyPrecedes(bound) {
        emit(pending[released])
        released += 1
      }
      pending.removeFirst(released)
    }
  }

  /// Two findings on one path: by line, column, byte offset, code, then message (-1, 0 or 1).
  package static func compareInFile(_ a: LintFinding, _ b: LintFinding) -> Int {
    let (la, lb) = (a.location.line ?? 0, b.location.line ?? 0)
    if la != lb { return la < lb ? -1 : 1 }
    let (ca, cb) = (a.location.column ?? 0, b.location.column ?? 0)
    if ca != cb { return ca < cb ? -1 : 1 }
    let (oa, ob) = (a.location.offset ?? -1, b.location.offset ?? -1)
    if oa != ob { return oa < ob ? -1 : 1 }
    if a.code != b.code { return a.code < b.code ? -1 : 1 }
    if a.message != b.message { return a.message < b.message ? -1 : 1 }
    return 0
  }

  /// Whether two strings hold the same UTF-8 bytes (String's `==` compares canonical equivalence).
  package static func sameBytes(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    guard !a.isEmpty else { return true }
    let fast = a.utf8.withContiguousStorageIfAvailable { x in
      b.utf8.withContiguousStorageIfAvailable { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
    }
    return (fast ?? nil) ?? a.utf8.elementsEqual(b.utf8)
  }
}
