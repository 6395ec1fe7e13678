import StashFormat

/// XXH64 (seed 0) of a stream of bytes, fed piece by piece: what an import compares to tell that the
/// bytes read back from the disk are the bytes read from the source. It is a check against damage
/// (a torn write, a bad cable, a failing card), not against someone forging a file, and runs at
/// several GB/s, so the check costs little beside the copy.
package struct ContentHash {
  private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

  private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
    prime1 &+ prime2, prime2, 0, 0 &- prime1
  )
  /// Bytes waiting for a whole 32-byte stripe.
  private var pending: [UInt8] = []
  /// Every byte fed so far.
  package private(set) var count = 0

  /// A hash of nothing yet.
  package init() { pending.reserveCapacity(32) }

  /// Feeds `bytes`.
  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    count += bytes.count
    var offset = 0
    if !pending.isEmpty {
      let take = min(32 - pending.count, bytes.count)
      pending.append(contentsOf: bytes[0..<take])
      offset = take
      guard pending.count == 32 else { return }
      pending.withUnsafeBytes { stripe($0.baseAddress!) }
      pending.removeAll(keepingCapacity: true)
    }
    let base = bytes.baseAddress!
    while bytes.count - offset >= 32 {
      stripe(base + offset)
      offset += 32
    }
    if offset < bytes.count { pending.append(contentsOf: bytes[offset...]) }
  }

  /// Feeds `bytes`.
  package mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// `value` as 16 lower-case hex digits: how the state files outside a memo folder (the import
  /// record, the browser's places and selections) name what they hash.
  package var hex: String { Self.hex(value) }

  /// A hash value as 16 lower-case hex digits.
  package static func hex(_ value: UInt64) -> String { Text.zeroPadded(String(value, radix: 16), width: 16) }

  /// The hash of everything fed.
  package var value: UInt64 {
    var hash: UInt64
    if count >= 32 {
      hash =
        rotate(lanes.0, 1) &+ rotate(lanes.1, 7) &+ rotate(lanes.2, 12) &+ rotate(lanes.3, 18)
      for lane in [lanes.0, lanes.1, lanes.2, lanes.3] {
        hash = (hash ^ Self.round(0, lane)) &* Self.prime1 &+ Self.prime4
      }
    } else {
      hash = Self.prime5
    }
    hash &+= UInt64(count)
    pending.withUnsafeBytes { tail in
      var offset = 0
      while tail.count - offset >= 8 {
        hash ^= Self.round(
          0, UInt64(littleEndian: tail.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        hash = rotate(hash, 27) &* Self.prime1 &+ Self.prime4
        offset += 8
      }
      if tail.count - offset >= 4 {
        let word = UInt32(littleEndian: tail.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        hash ^= UInt64(word) &* Self.prime1
        hash = rotate(hash, 23) &* Self.prime2 &+ Self.prime3
        offset += 4
      }
      while offset < tail.count {
        hash ^= UInt64(tail[offset]) &* Self.prime5
        hash = rotate(hash, 11) &* Self.prime1
        offset += 1
      }
    }
    hash ^= hash >> 33
    hash &*= Self.prime2
    hash ^= hash >> 29
    hash &*= Self.prime3
    hash ^= hash >> 32
    return hash
  }

  private mutating func stripe(_ pointer: UnsafeRawPointer) {
    func word(_ index: Int) -> UInt64 {
      UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
    }
    lanes.0 = Self.round(lanes.0, word(0))
    lanes.1 = Self.round(lanes.1, word(1))
    lanes.2 = Self.round(lanes.2, word(2))
    lanes.3 = Self.round(lanes.3, word(3))
  }

  private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
    rotate(accumulator &+ input &* prime2, 31) &* prime1
  }
}

@inline(__always) private func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
  (value << bits) | (value >> (64 - bits))
}
