import StashFormat
import StashLint
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A memo folder listed as `MemoFolder.read` orders it (newest first, ties by base in byte order),
/// with each memo read, printed and let go in turn: the memory a listing holds is the folder's
/// names and a few pieces of output, not every memo. Only a memo whose base names no date is read
/// before the rest, to learn its date (from its audio or its file), and kept until it is printed.
struct Listing {
  let path: String
  let grouping: FolderGrouping
  /// Indexes into `grouping.candidates`, in listing order.
  let order: [Int]
  /// Each candidate's date (`RecordingDate.parse` of its base, else that of the memo read early).
  let dates: [Double]
  let opened: OpenFolder
  /// The time every memo's audio date is judged against (as `MemoFolder.read` takes it once).
  let now: Double
  /// The folder's `.stashlint`, which the marks follow as lint does.
  let configuration: LintConfiguration
  /// The folder's name-collision findings, each memo's own added to its account.
  let collisions: [LintFinding]

  /// How many memos a piece of output holds: one hand-off to a core, one buffer, one write.
  static let piece = 256

  var count: Int { order.count }

  /// Reads the folder's names and puts its memos in order; throws only when the folder cannot be
  /// read (`folder-unreadable`).
  init(path: String, warn: (String) -> Void) throws(FormatError) {
    self.path = path
    grouping = try MemoFolder.group(path: path)
    now = RecordingDate.currentTime()
    opened = OpenFolder(path: path)
    configuration = MemoAccount.configuration(of: path, warn: warn)
    collisions = LintEngine.collisionFindings(grouping, folder: path, now: now)
    let candidates = grouping.candidates
    // The date `Memo.read` gives a memo whose base names one is that date.
    var dates = Parallel.map(candidates.count, chunk: 1024) { RecordingDate.parse(base: candidates[$0].base) }
    let undated = dates.indices.filter { dates[$0] == nil }
    let (path, now, opened) = (path, now, opened)
    let early = Parallel.map(undated.count, chunk: 16) { n in
      Memo.read(candidates[undated[n]], folder: path, now: now, opened: opened, baseDate: nil)
    }
    for (index, memo) in zip(undated, early) { dates[index] = memo.recordedAt }
    let keys = dates.map { $0! }
    self.dates = keys
    var order = Array(candidates.indices)
    order.sort { i, j in
      if keys[i] != keys[j] { return keys[i] > keys[j] }
      return candidates[i].base.utf8.lexicographicallyPrecedes(candidates[j].base.utf8)
    }
    self.order = order
  }

  /// Reads and checks the memos on both cores (each memo's one account: `MemoAccount`), a piece at
  /// a time, hands each to `render` with its place in the listing, and writes each piece's bytes
  /// to standard output as soon as every piece before it is written. Returns the folder's totals,
  /// summed in listing order as `FolderSummary` sums.
  @discardableResult
  func print(_ render: (Int, MemoAccount, inout JSONWriter) -> Void) -> FolderSummary {
    let output = OrderedOutput(FolderSummary(others: grouping.others, collisions: grouping.collisions))
    let candidates = grouping.candidates
    let pieces = (order.count + Self.piece - 1) / Self.piece
    _ = Parallel.map(pieces, chunk: 1) { n in
      var out = JSONWriter(capacity: Self.piece * 1024)
      var tallies: [FolderSummary.Tally] = []
      tallies.reserveCapacity(Self.piece)
      for position in n * Self.piece..<min(order.count, (n + 1) * Self.piece) {
        let index = order[position]
        let account = MemoAccount.read(
          candidates[index], folder: path, now: now, opened: opened, configuration: configuration,
          collisions: collisions)
        render(position, account, &out)
        tallies.append(FolderSummary.Tally(account.memo))
      }
      output.deliver(n, out.bytes, tallies)
    }
    return output.totals
  }
}

extension Listing {
  /// Writes `bytes` to standard output whole (`write(2)`, again after EINTR or a short write):
  /// every byte a listing prints goes this way, so nothing waits in a buffer of its own.
  static func write(_ bytes: [UInt8]) {
    SystemCall.writeAll(1, bytes)
  }
}

/// Pieces of output finished on any thread, written in their order: a piece waits only for the
/// pieces before it. The totals are counted in the same order.
private final class OrderedOutput: Sendable {
  private struct State {
    var next = 0
    var waiting: [Int: ([UInt8], [FolderSummary.Tally])] = [:]
    var totals: FolderSummary
  }
  private let state: Mutex<State>

  init(_ totals: FolderSummary) { state = Mutex(State(totals: totals)) }

  var totals: FolderSummary { state.withLock { $0.totals } }

  func deliver(_ n: Int, _ bytes: [UInt8], _ tallies: [FolderSummary.Tally]) {
    state.withLock { state in
      state.waiting[n] = (bytes, tallies)
      while let (ready, tallies) = state.waiting.removeValue(forKey: state.next) {
        Listing.write(ready)
        for tally in tallies { state.totals.add(tally) }
        state.next += 1
      }
    }
  }
}
