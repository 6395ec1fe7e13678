/// A file read through `pread` with cached ranges, so a parser can ask for small pieces (headers,
/// small tables) without a system call each, while media data is never loaded.
struct MP4FileWindow {
  let file: ReadOnlyFile
  /// The range the reader chose to load (`prefetch`), and the file offset of its first byte.
  private(set) var cache: [UInt8] = []
  private(set) var cacheOffset = 0
  /// A small block read around a miss, when `readAhead` is set: headers and small tables that
  /// follow one another (the end of a `moov` after its big tables) then cost one `pread`.
  private var spare: [UInt8] = []
  private var spareOffset = 0
  /// Bytes read around a small miss (0: read exactly what is asked).
  let readAhead: Int
  /// How many `pread` calls this window has made (for tests and speed figures).
  private(set) var readCount = 0

  /// How much of the file's end a miss reads whole: four blocks of read-ahead.
  static func wholeRest(_ readAhead: Int) -> Int { 4 * readAhead }

  init(file: ReadOnlyFile, readAhead: Int = 0) {
    self.file = file
    self.readAhead = readAhead
  }

  var size: Int { file.size }

  /// Loads `count` bytes at `offset` into the cache (fewer at the end of the file).
  mutating func prefetch(at offset: Int, count: Int) throws(FormatError) {
    if offset >= cacheOffset && offset + count <= cacheOffset + cache.count { return }
    // The block read around a header often holds the box that follows it (a finished file's
    // `moov` at its end): it becomes the cache rather than being read again.
    let wanted = max(0, min(count, size - offset))
    if offset >= spareOffset && offset + wanted <= spareOffset + spare.count {
      swap(&cache, &spare)
      (cacheOffset, spareOffset) = (spareOffset, cacheOffset)
      return
    }
    cache = try file.read(at: offset, count: count)
    cacheOffset = offset
    readCount += 1
  }

  /// Where `count` bytes at `offset` are held: the storage and the index of the first, loading
  /// them when neither cached range holds them all.
  private mutating func locate(_ offset: Int, _ count: Int) throws(FormatError) -> ([UInt8], Int) {
    if offset >= cacheOffset && offset + count <= cacheOffset + cache.count {
      return (cache, offset - cacheOffset)
    }
    if offset >= spareOffset && offset + count <= spareOffset + spare.count {
      return (spare, offset - spareOffset)
    }
    readCount += 1
    if count <= readAhead {
      // When little of the file is left (a finished file's `moov` at its end, whose tables may
      // outgrow one block), all of it comes in this read rather than in one read per miss.
      let rest = size - offset
      spare = try file.read(
        at: offset, count: rest > 0 && rest <= Self.wholeRest(readAhead) ? rest : readAhead)
      spareOffset = offset
      return (spare, 0)
    }
    return (try file.read(at: offset, count: count), 0)
  }

  /// Up to `count` bytes at `offset`; fewer only at the end of the file.
  mutating func bytes(at offset: Int, count: Int) throws(FormatError) -> [UInt8] {
    let wanted = max(0, min(count, size - offset))
    let (storage, start) = try locate(offset, wanted)
    return start == 0 && storage.count == wanted ? storage : Array(storage[start..<start + wanted])
  }

  /// Calls `body` with up to `count` bytes at `offset` (fewer only at the end of the file), lent
  /// from cached storage rather than copied out of it.
  mutating func withBytes<Result>(
    at offset: Int, count: Int, _ body: (UnsafeRawBufferPointer) -> Result
  ) throws(FormatError) -> Result {
    let wanted = max(0, min(count, size - offset))
    let (storage, start) = try locate(offset, wanted)
    return storage.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<start + wanted])) }
  }

  /// A reader over up to `count` bytes at `offset`. It shares cached storage (no copy), so
  /// parsing small boxes costs no allocation.
  mutating func reader(at offset: Int, count: Int) throws(FormatError) -> MP4ByteReader {
    let wanted = max(0, min(count, size - offset))
    let (storage, start) = try locate(offset, wanted)
    return MP4ByteReader(storage, from: start, to: start + wanted)
  }

  /// The header of the box at `offset` inside a container ending at `containerEnd`.
  mutating func header(at offset: Int, containerEnd: Int) throws(FormatError) -> MP4BoxHeader.Outcome {
    let want = min(MP4BoxHeader.maximumSize, containerEnd - offset, size - offset)
    guard want >= 8 else { return .short }
    let (storage, start) = try locate(offset, want)
    return MP4BoxHeader.parse(storage, at: start, offset: offset, containerEnd: containerEnd)
  }
}
