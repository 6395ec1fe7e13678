import StashFormat
import StashLint
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A memo folder listed in the listing's order (`MemoFolderOrder`), with each memo read,
/// checked, printed and let go in turn: the memory a listing holds is the folder's names and a
/// few pieces of output, not every memo.
struct Listing {
  let folder: MemoFolderOrder<FolderGrouping>
  /// The folder's `.stashlint`, which the marks follow as lint does.
  let configuration: LintConfiguration
  /// The folder's name-collision findings, each memo's own added to its account.
  let collisions: [LintFinding]
  /// What the memos' checks found last time, or nil (`--no-cache`, or a cache that cannot be used).
  let cache: FindingsCache?

  /// How many memos a piece of output holds: one hand-off to a core, one buffer, one write.
  static let piece = 256

  var count: Int { folder.count }

  /// Reads the folder's names and puts its memos in order; throws only when the folder cannot be
  /// read (`folder-unreadable`).
  init(path: String, cached: Bool, warn: (String) -> Void) throws(FormatError) {
    folder = try MemoFolderOrder<FolderGrouping>(path: path)
    configuration = MemoAccount.configuration(of: path, warn: warn)
    collisions = LintEngine.collisionFindings(folder.names, folder: path, now: folder.now)
    cache = cached ? CacheCommand.open(folder: path, warn: warn) : nil
  }

  /// Reads and checks the memos on both cores (each memo's one account: `MemoAccount`), a piece at
  /// a time, hands each to `render` with its place in the listing, and writes each piece's bytes
  /// to standard output as soon as every piece before it is written. Returns the folder's totals,
  /// summed in listing order as `FolderSummary` sums. Without `messages`, the findings the cache
  /// answers for carry none (`MemoAccount.read`). The cache is written after.
  @discardableResult
  func print(
    messages: Bool = true, warn: (String) -> Void, _ render: (Int, MemoAccount, inout JSONWriter) -> Void
  )
    -> FolderSummary
  {
    let output = OrderedOutput(
      FolderSummary(others: folder.names.others, collisions: folder.names.collisions))
    let pieces = (folder.count + Self.piece - 1) / Self.piece
    _ = Parallel.map(pieces, chunk: 1) { n in
      var out = JSONWriter(capacity: Self.piece * 1024)
      var tallies: [FolderSummary.Tally] = []
      tallies.reserveCapacity(Self.piece)
      for position in n * Self.piece..<min(folder.count, (n + 1) * Self.piece) {
        let account = MemoAccount.read(
          folder.candidate(at: position), folder: folder.path, now: folder.now, opened: folder.opened,
          configuration: configuration, collisions: collisions, cache: cache, messages: messages)
        render(position, account, &out)
        tallies.append(FolderSummary.Tally(account.memo))
      }
      output.deliver(n, out.bytes, tallies)
    }
    cache?.save(whole: true, memoCount: folder.count).map(warn)
    return output.totals
  }
}

extension Listing {
  /// Writes `bytes` to standard output whole (`write(2)` through `SystemCall.writeAll`):
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
