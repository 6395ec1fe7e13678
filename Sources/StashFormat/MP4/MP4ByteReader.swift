/// A cursor over bytes already in memory. Every read returns nil when too few bytes are left and
/// moves the cursor only when it succeeds, so a short or hostile box can never be over-read.
struct MP4ByteReader {
  /// The bytes read from.
  let bytes: [UInt8]
  /// The index of the next byte to read.
  private(set) var position: Int
  /// One past the last index this reader may touch.
  let end: Int

  init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
    self.bytes = bytes
    let limit = min(end ?? bytes.count, bytes.count)
    self.position = min(max(start, 0), limit)
    self.end = limit
  }

  /// Bytes not yet read.
  var remaining: Int { end - position }

  mutating func uint8() -> UInt8? {
    guard remaining >= 1 else { return nil }
    defer { position += 1 }
    return bytes[position]
  }

  mutating func uint16() -> UInt16? {
    guard let v = unsigned(2) else { return nil }
    return UInt16(truncatingIfNeeded: v)
  }

  mutating func uint24() -> UInt32? {
    guard let v = unsigned(3) else { return nil }
    return UInt32(truncatingIfNeeded: v)
  }

  mutating func uint32() -> UInt32? {
    guard let v = unsigned(4) else { return nil }
    return UInt32(truncatingIfNeeded: v)
  }

  mutating func uint64() -> UInt64? { unsigned(8) }

  mutating func int32() -> Int32? { uint32().map { Int32(bitPattern: $0) } }

  mutating func int64() -> Int64? { uint64().map { Int64(bitPattern: $0) } }

  mutating func fourCC() -> FourCC? { uint32().map(FourCC.init) }

  /// The version byte and 24-bit flags that start every full box.
  mutating func versionAndFlags() -> (version: UInt8, flags: UInt32)? {
    guard let word = uint32() else { return nil }
    return (UInt8(word >> 24), word & 0x00FF_FFFF)
  }

  /// Moves past `count` bytes, or returns false and stays put.
  mutating func skip(_ count: Int) -> Bool {
    guard count >= 0, remaining >= count else { return false }
    position += count
    return true
  }

  /// The next `count` bytes, or nil.
  mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
    guard count >= 0, remaining >= count else { return nil }
    defer { position += count }
    return bytes[position..<position + count]
  }

  private mutating func unsigned(_ width: Int) -> UInt64? {
    guard remaining >= width else { return nil }
    // The bounds are checked once, above (`end` never passes the array's end); a field of 4 or 8
    // bytes (nearly every one) is loaded whole.
    let value = bytes.withUnsafeBytes { raw -> UInt64 in
      if width == 4 || width == 8 { return raw.bigEndianField(at: position, width: width) }
      var value: UInt64 = 0
      for index in position..<position + width { value = value << 8 | UInt64(raw[index]) }
      return value
    }
    position += width
    return value
  }
}

extension UnsafeRawBufferPointer {
  /// The big-endian field of `width` bytes (4 or 8) at `offset`, which the caller has checked
  /// lies inside the buffer.
  @inline(__always)
  func bigEndianField(at offset: Int, width: Int) -> UInt64 {
    width == 4
      ? UInt64(UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
      : UInt64(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }
}
