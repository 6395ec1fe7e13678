import Synchronization

/// A bounded queue of chunks between exactly one producer (the decoder thread) and one consumer
/// (the output thread). Bounded so decoding runs only a little ahead of what is heard; a full ring
/// makes the producer wait, which is what keeps playback cheap.
final class ChunkRing: Sendable {
  private struct Storage: ~Copyable {
    var slots: [AudioChunk?]
    var head = 0
    var count = 0
  }

  /// How many chunks it holds at most.
  let capacity: Int
  private let storage: Mutex<Storage>

  init(capacity: Int) {
    self.capacity = capacity
    storage = Mutex(Storage(slots: Array(repeating: nil, count: capacity)))
  }

  /// Adds `chunk` at the back and returns how many chunks were waiting before it (so the producer
  /// wakes the consumer only when it may be waiting on an empty ring); nil when the ring is full
  /// (the chunk is not taken).
  @discardableResult
  func push(_ chunk: AudioChunk) -> Int? {
    storage.withLock { ring in
      guard ring.count < capacity else { return nil }
      ring.slots[(ring.head + ring.count) % capacity] = chunk
      ring.count += 1
      return ring.count - 1
    }
  }

  /// Takes the front chunk, with whether the ring was full before (so the consumer wakes the
  /// producer only when it may be waiting); nil when empty.
  func pop() -> (chunk: AudioChunk, wasFull: Bool)? {
    storage.withLock { ring in
      guard ring.count > 0, let chunk = ring.slots[ring.head] else { return nil }
      let wasFull = ring.count >= capacity
      ring.slots[ring.head] = nil
      ring.head = (ring.head + 1) % capacity
      ring.count -= 1
      return (chunk, wasFull)
    }
  }

  /// Whether the ring is full.
  var isFull: Bool { storage.withLock { $0.count >= capacity } }

  /// Chunks waiting.
  var count: Int { storage.withLock { $0.count } }
}
