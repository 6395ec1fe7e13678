import StashFormat
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Threads of the sweep's own for sweeping several captures at once. Its own threads, not
/// Dispatch's pool: a sweep spends much of its time blocked in the kernel (an unlink on a disk
/// mounted with `discard` waits for the device), and a pool sized to the cores does not start
/// another thread while one is blocked, so the waits would not overlap.
enum SweepWorkers {
  /// Calls `body` once for every index in `0..<count`, on `workers` threads (the calling thread
  /// one of them), each taking the next index not yet taken. Returns when every call has
  /// returned. With one worker, or one index, every call runs on the calling thread, in order.
  static func forEach(_ count: Int, workers: Int, _ body: (Int) -> Void) {
    let threads = min(max(1, workers), count)
    guard threads > 1 else {
      for index in 0..<count { body(index) }
      return
    }
    final class Counter: Sendable {
      let taken = Atomic<Int>(0)
    }
    let next = Counter()
    withoutActuallyEscaping(body) { body in
      // Each index is taken by exactly one thread, and the caller waits for them all below.
      let body = UnsafeTransfer(body)
      let run: @Sendable () -> Void = {
        while true {
          let index = next.taken.wrappingAdd(1, ordering: .relaxed).oldValue
          guard index < count else { return }
          body.value(index)
        }
      }
      var started: [pthread_t] = []
      for _ in 1..<threads {
        // No thread to be had (a limit reached): the threads that did start, and this one, do
        // the work.
        guard let thread = Threads.start(run) else { break }
        started.append(thread)
      }
      run()
      for thread in started { pthread_join(thread, nil) }
    }
  }
}
