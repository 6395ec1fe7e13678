/// A growable run of bytes that its owner frees with `deallocate()`: the GPX reader's text of the
/// field being captured, and the scanner's decoded attribute values and names. Kept apart from
/// Array so the hot paths pay no uniqueness check, retain or bounds check per append.
struct GPXByteBuffer {
  private(set) var base: UnsafeMutablePointer<UInt8>
  /// How many bytes are in use, from `base`.
  var count = 0
  private var capacity: Int

  init(capacity: Int) {
    base = .allocate(capacity: capacity)
    self.capacity = capacity
  }

  func deallocate() { base.deallocate() }

  /// Room for `more` bytes after `count`; `base` may move.
  @inline(__always) mutating func reserve(_ more: Int) {
    if count + more > capacity { grow(to: count + more) }
  }

  private mutating func grow(to needed: Int) {
    while capacity < needed { capacity *= 2 }
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    grown.update(from: base, count: count)
    base.deallocate()
    base = grown
  }

  @inline(__always) mutating func append(_ bytes: UnsafeRawPointer, _ byteCount: Int) {
    reserve(byteCount)
    UnsafeMutableRawPointer(base + count).copyMemory(from: bytes, byteCount: byteCount)
    count += byteCount
  }

  @inline(__always) mutating func append(byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }
}
