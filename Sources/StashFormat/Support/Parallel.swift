import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Work spread over every core, its results in a fixed order: the one place our modules fill a
/// buffer in parallel (folder reading, name classification, the listing's JSON, lint's checks).
package enum Parallel {
  /// `[body(0), body(1), …, body(count - 1)]`, the calls made on every core, `chunk` consecutive
  /// indexes at a time (one hand-off each: large for cheap calls, small for uneven ones). Each
  /// call writes only its own slot, so the result never depends on scheduling.
  package static func map<Result>(_ count: Int, chunk: Int, _ body: (Int) -> Result) -> [Result] {
    let chunk = max(1, chunk)
    return map(
      count,
      on: { count, each in
        DispatchQueue.concurrentPerform(iterations: (count + chunk - 1) / chunk) { n in
          for index in n * chunk..<min(count, (n + 1) * chunk) { each(index) }
        }
      }, body)
  }

  /// `[body(0), …, body(count - 1)]` with the calls made by `schedule`, which must call its
  /// second argument exactly once for every index in `0..<count` (on any threads) and return
  /// when all have returned: the recovery sweep brings threads of its own.
  package static func map<Result>(
    _ count: Int, on schedule: (Int, @escaping @Sendable (Int) -> Void) -> Void, _ body: (Int) -> Result
  ) -> [Result] {
    guard count > 0 else { return [] }
    return Array(unsafeUninitializedCapacity: count) { buffer, initialized in
      let slots = UnsafeTransfer(buffer)
      withoutActuallyEscaping(body) { body in
        let body = UnsafeTransfer(body)
        schedule(count) { index in (slots.value.baseAddress! + index).initialize(to: body.value(index)) }
      }
      initialized = count
    }
  }
}

/// Threads of our own, for work that blocks in the kernel (a pool sized to the cores would not
/// overlap the waits): the one place a closure is handed to `pthread_create(3)`.
package enum Threads {
  /// Starts a thread running `body`; nil when none can be had (a limit reached), and `body` is
  /// then not run. Join it with `pthread_join(3)`.
  package static func start(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
    final class Start {
      let body: @Sendable () -> Void
      init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let start = Unmanaged.passRetained(Start(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
      &thread, nil,
      { raw in
        Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
      }, start)
    guard result == 0 else {
      Unmanaged<Start>.fromOpaque(start).release()
      return nil
    }
    return thread
  }
}

/// A value handed to another thread where the compiler cannot see that doing so is safe: the
/// sender guarantees that the threads never touch it at once (as swift-nio's `UnsafeTransfer`).
package struct UnsafeTransfer<Value>: @unchecked Sendable {
  /// The value handed over.
  package var value: Value

  /// Wraps `value` for the hand-off.
  package init(_ value: Value) { self.value = value }
}
