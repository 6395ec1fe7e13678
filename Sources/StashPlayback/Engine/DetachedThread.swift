#if canImport(Glibc)
  import Glibc
#endif

/// Threads of our own: the decoder and the output must not wait behind a pool's other work.
enum DetachedThread {
  /// Starts a thread running `body` (`pthread_create`, then `pthread_detach`): the body ends itself.
  static func start(_ body: @escaping @Sendable () -> Void) {
    final class Box: @unchecked Sendable {
      let body: @Sendable () -> Void
      init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
      &thread, nil,
      { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
      }, box)
    precondition(result == 0, "pthread_create failed: \(String(cString: strerror(result)))")
    pthread_detach(thread)
  }
}
