import Dispatch
import StashBrowser
import StashFormat
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a listing's memos in the background, the rows on screen before the rest, and keeps the
/// filled rows for the loop to take: the list is shown from the folder's names at once and its
/// lengths, marks and titles arrive as they are read, while keys are answered.
final class RowFill: Sendable {
  private struct State {
    /// Bumped by every new listing; a fill of an older one stops at its next batch.
    var generation = 0
    /// The memos on screen (their `MemoList.listingIndex`), read next when not read yet.
    var wanted: [Int] = []
    /// Rows read and not yet taken, each with its memo's listing index.
    var done: [(index: Int, row: MemoRow)] = []
    /// How many memos of the current listing (kept by listing index) are not read yet: 0 once
    /// the fill is over or stopped.
    var remaining = 0
  }

  /// How many memos are read at a time (on both cores): small enough that the rows on screen
  /// wait for little, large enough that a batch's hand-off costs nothing beside its reads.
  static let batchSize = 1024
  /// The rows on screen go in smaller batches, so the first of them arrive at once.
  static let wantedBatchSize = 64
  private let state = Mutex(State())
  private let queue = DispatchQueue(label: "stash-tui.fill")
  /// Slows every batch down by this many seconds: `STASH_TUI_FILL_DELAY`, for tests that must see
  /// the browser while it is still reading (a real folder on a slow disk looks the same).
  private let delay: Double

  init(delay: Double = 0) { self.delay = delay }

  /// Whether rows were read and not yet taken.
  var hasRead: Bool { state.withLock { !$0.done.isEmpty } }

  /// Whether memos of the current listing are still to be read.
  var isFilling: Bool { state.withLock { $0.remaining > 0 } }

  /// Starts reading the `count` memos of the library's last listing (in its order, the wanted
  /// ones first) through `library`, waking `inbox` after each batch; a fill of an older listing
  /// stops. `heard` marks the memos left off partway.
  func start(_ count: Int, library: MemoLibrary, inbox: EventInbox, heard: HeardPlaces? = nil) {
    let generation = state.withLock { state in
      state.generation += 1
      state.done = []
      state.wanted = []
      state.remaining = count
      return state.generation
    }
    // The library's `read` may be called from any thread (MemoLibrary).
    let library = UnsafeTransfer(library)
    let delay = self.delay
    queue.async { [self] in
      var unread = Array(repeating: true, count: count)
      var left = count
      var next = 0
      func take(_ index: Int, into batch: inout [Int]) {
        guard index >= 0, index < count, unread[index] else { return }
        unread[index] = false
        left -= 1
        batch.append(index)
      }
      while left > 0 {
        guard let wanted = state.withLock({ $0.generation == generation ? $0.wanted : nil }) else { return }
        var batch: [Int] = []
        for index in wanted where batch.count < Self.wantedBatchSize { take(index, into: &batch) }
        if batch.isEmpty {
          // Then the list from the top (newest first), the first batch small: it is on screen.
          let size = next == 0 ? Self.wantedBatchSize : Self.batchSize
          while batch.count < size, next < count {
            take(next, into: &batch)
            next += 1
          }
        }
        guard !batch.isEmpty else { break }
        if delay > 0 { usleep(UInt32(delay * 1e6)) }
        var rows = library.value.read(batch)
        heard?.mark(&rows, audioPath: library.value.audioPath)
        let current = state.withLock { state in
          guard state.generation == generation else { return false }
          state.done += rows
          state.remaining = left
          return true
        }
        guard current else { return }
        inbox.wake()
      }
      state.withLock { state in if state.generation == generation { state.remaining = 0 } }
      inbox.wake()
    }
  }

  /// The memos on screen now (listing indices), to be read before the rest.
  func want(_ indices: [Int]) {
    state.withLock { $0.wanted = indices }
  }

  /// The rows read since the last call, each with its memo's listing index.
  func take() -> [(index: Int, row: MemoRow)] {
    state.withLock { state in
      defer { state.done = [] }
      return state.done
    }
  }

  /// Stops the current fill at its next batch.
  func stop() {
    state.withLock { state in
      state.generation += 1
      state.remaining = 0
    }
  }
}
