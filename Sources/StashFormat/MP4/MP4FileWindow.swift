/// A file read through `pread` with one cached range, so a parser can ask for small pieces
/// (headers, small tables) without a system call each, while media data is never loaded.
struct MP4FileWindow {
  let file: ReadOnlyFile
  /// The cached bytes and the file offset of the first.
  private(set) var cache: [UInt8] = []
  private(set) var cacheOffset = 0
  /// How many `pread` calls this window has made (for tests and speed figures).
  private(set) var readCount = 0

  init(file: ReadOnlyFile) { self.file = file }

  var size: Int { file.size }

  /// Loads `count` bytes at `offset` into the cache (fewer at the end of the file).
  mutating func prefetch(at offset: Int, count: Int) throws(FormatError) {
    if offset >= cacheOffset && offset + count <= cacheOffset + cache.count { return }
    cache = try file.read(at: offset, count: count)
    cacheOffset = offset
    readCount += 1
  }

  /// Up to `count` bytes at `offset`: from the cache when it holds them all, else by one `pread`
  /// that does not disturb the cache. Fewer only at the end of the file.
  mutating func bytes(at offset: Int, count: Int) throws(FormatError) -> [UInt8] {
    let wanted = max(0, min(count, size - offset))
    if offset >= cacheOffset && offset + wanted <= cacheOffset + cache.count {
      let start = offset - cacheOffset
      return Array(cache[start..<start + wanted])
    }
    readCount += 1
    return try file.read(at: offset, count: wanted)
  }

  /// A reader over up to `count` bytes at `offset`. It shares the cache's storage when the cache
  /// holds them (no copy), so parsing small boxes costs no allocation.
  mutating func reader(at offset: Int, count: Int) throws(FormatError) -> MP4ByteReader {
    let wanted = max(0, min(count, size - offset))
    if offset >= cacheOffset && offset + wanted <= cacheOffset + cache.count {
      let start = offset - cacheOffset
      return MP4ByteReader(cache, from: start, to: start + wanted)
    }
    readCount += 1
    return MP4ByteReader(try file.read(at: offset, count: wanted))
  }

  /// The header of the box at `offset` inside a container ending at `containerEnd`.
  mutating func header(at offset: Int, containerEnd: Int) throws(FormatError) -> MP4BoxHeader.Outcome {
    let want = min(MP4BoxHeader.maximumSize, containerEnd - offset, size - offset)
    guard want >= 8 else { return .short }
    if offset >= cacheOffset && offset + want <= cacheOffset + cache.count {
      return MP4BoxHeader.parse(cache, at: offset - cacheOffset, offset: offset, containerEnd: containerEnd)
    }
    let bytes = try bytes(at: offset, count: want)
    return MP4BoxHeader.parse(bytes, at: 0, offset: offset, containerEnd: containerEnd)
  }
}
