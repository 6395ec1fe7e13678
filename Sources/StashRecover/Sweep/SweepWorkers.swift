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
      nonisolated(unsafe) let body = body
      let run: @Sendable () -> Void = {
        while true {
          let index = next.taken.wrappingAdd(1, ordering: .relaxed).oldValue
          guard index < count else { return }
          body(index)
        }
      }
      var started: [pthread_t] = []
      for _ in 1..<threads {
        final class Box: @unchecked Sendable {
          let run: @Sendable () -> Void
          init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        let box = Unmanaged.passRetained(Box(run)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
          &thread, nil,
          { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
          }, box)
        if result == 0 {
          started.append(thread)
        } else {
          // No thread to be had (a limit reached): the threads that did start, and this one, do
          // the work.
          Unmanaged<Box>.fromOpaque(box).release()
          break
        }
      }
      run()
      for thread in started { pthread_join(thread, nil) }
    }
  }
}
