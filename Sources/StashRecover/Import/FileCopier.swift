/// Copies one file so that it lands whole or not at all: read from the source in pieces and
/// hashed on the way, written under a hidden temporary name in the target folder, its modification
/// time set to the source's, fsynced, read back from the disk (its cached pages dropped first) and
/// hashed again, then renamed to its name without replacing anything. Every call goes through the
/// seam. A failure removes the temporary file where it can; a kill leaves it for the next import.
package final class FileCopier<Seam: CopyingFileSystem> {
  /// Every call goes through here.
  package let fileSystem: Seam
  /// Called after each piece written, with its size in bytes.
  package var onBytes: (Int) -> Void = { _ in }
  private let buffer: UnsafeMutableRawBufferPointer

  /// A copier through `fileSystem`, in pieces of `pieceSize` bytes: 1 MiB by default, large enough
  /// that a call's cost is lost in the copy, small enough to stay in the CPU's cache between the
  /// hash and the write.
  package init(fileSystem: Seam, pieceSize: Int = 1 << 20) {
    self.fileSystem = fileSystem
    buffer = .allocate(byteCount: max(1, pieceSize), alignment: 4096)
  }

  deinit { buffer.deallocate() }

  /// Copies `source`, which was seen as `expected`, to `name` in `folder`; returns its byte count
  /// and the hash of its bytes (as read back).
  /// Throws code `changed` when the source is not what was seen (it grew, or was rewritten),
  /// `exists` when the name was taken meanwhile, `verify-failed` when the bytes read back differ.
  package func copy(_ source: String, expected: FileStatus, to folder: String, name: String) throws -> (
    bytes: Int, hash: UInt64
  ) {
    let fs = fileSystem
    let final = folder + "/" + name
    let temporary = folder + "/" + TemporaryName.make(for: name)
    let input: Int32
    let opened: FileStatus
    do { (input, opened) = try fs.openForReading(source) } catch { throw AtomicFile.named(error, source) }
    defer { try? fs.close(input) }
    guard opened.size == expected.size, opened.modificationTime == expected.modificationTime else {
      throw Self.changed(source)
    }
    let output: Int32
    do { output = try fs.createExclusive(temporary) } catch { throw AtomicFile.named(error, final) }
    var outputOpen = true
    let verified: UInt64
    do {
      var hash = ContentHash()
      while true {
        let count: Int
        do { count = try fs.read(input, into: buffer) } catch { throw AtomicFile.named(error, source) }
        if count == 0 { break }
        guard hash.count + count <= expected.size else { throw Self.changed(source) }
        let piece = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        hash.update(piece)
        do { try fs.write(output, from: piece) } catch { throw AtomicFile.named(error, final) }
        onBytes(count)
      }
      // Short, or changed while it was read: a file still being written.
      guard hash.count == expected.size, try fs.status(source) == opened else { throw Self.changed(source) }
      do {
        try fs.setModificationTime(output, nanoseconds: expected.modificationNanoseconds)
        try fs.sync(output)
        outputOpen = false
        try fs.close(output)
      } catch { throw AtomicFile.named(error, final) }
      let back = try digest(temporary, dropCache: true, naming: final)
      guard back.count == expected.size, back.hash == hash.value else {
        throw RecoverError(
          code: .verifyFailed,
          message: "the copy read back from the disk is not the bytes read from the source "
            + "(\(back.count) of \(expected.size) bytes, or a different hash): it was not kept; "
            + "the target's disk or the cable may be failing", path: final)
      }
      verified = back.hash
      do {
        try fs.renameNoReplace(temporary, final)
      } catch let error where error.number == EEXIST {
        throw RecoverError(
          code: .exists, message: "a file took this name while it was copied; it is left as it is",
          path: final)
      } catch { throw AtomicFile.named(error, final) }
    } catch {
      if outputOpen { try? fs.close(output) }
      try? fs.unlink(temporary)
      throw error
    }
    return (expected.size, verified)
  }

  /// The byte count and hash of the file at `path`, read through the seam; with `dropCache`, its
  /// cached pages are dropped first so the bytes come from the disk. Errors name `naming`.
  package func digest(_ path: String, dropCache: Bool = false, naming: String? = nil) throws -> (
    count: Int, hash: UInt64
  ) {
    let fs = fileSystem
    do {
      let (descriptor, _) = try fs.openForReading(path)
      defer { try? fs.close(descriptor) }
      if dropCache { fs.dropCachedPages(descriptor) }
      var hash = ContentHash()
      while true {
        let count = try fs.read(descriptor, into: buffer)
        if count == 0 { break }
        hash.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      }
      return (hash.count, hash.value)
    } catch { throw AtomicFile.named(error, naming ?? path) }
  }

  static func changed(_ path: String) -> RecoverError {
    RecoverError(code: .changed, message: "it changed while it was copied", path: path)
  }
}

#if canImport(Glibc)
  import Glibc
#endif
