import Dispatch

/// Reading (parsing) the parts of one assembly on every core. Parsing a part is pure computation
/// on bytes already read, so it may run on another thread without changing anything the sweep
/// does through the file system, or its order: the reads happened before, the publishing comes
/// after, on the calling thread.
enum PartReading {
  /// `read` applied to every part, the results in the parts' order. Parts are dealt out in turns
  /// (one worker takes parts 0, 2, 4, ..., the other 1, 3, 5, ...) so that both get a fair share
  /// of a run of similar parts; a handful of parts is read on the calling thread, where handing
  /// off would cost more than it saves.
  static func map<Result: Sendable>(_ parts: [Part], _ read: @Sendable (Part) -> Result) -> [Result] {
    let workers = 2
    guard parts.count >= 4 else { return parts.map(read) }
    var results = [Result?](repeating: nil, count: parts.count)
    results.withUnsafeMutableBufferPointer { buffer in
      // Each worker writes only its own slots.
      nonisolated(unsafe) let slots = buffer
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        for index in stride(from: worker, to: parts.count, by: workers) {
          slots[index] = read(parts[index])
        }
      }
    }
    return results.map { $0! }
  }
}
