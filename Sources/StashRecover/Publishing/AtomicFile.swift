#if canImport(Glibc)
  import Glibc
#endif

/// Writes a whole file so that a reader, or a crash, sees either nothing or every byte: a hidden
/// temporary file in the same folder, written, fsynced, renamed to its name, then the folder fsynced. Every call throws `RecoverError`.
public enum AtomicFile {
  /// How the final rename treats a file already bearing the name.
  public enum Mode: Sendable {
    /// Never replace: publishing a recovered file must not overwrite one a person or the phone made.
    case createNew
    /// Replace the name itself (a title being changed, audio being repaired); a symbolic link there
    /// is replaced as a link, never written through.
    case replace
  }

  /// Writes `bytes` as `name` in `folder`. On failure the temporary file is removed where possible,
  /// and `name` is untouched. With `.createNew`, an existing `name` fails with code `exists`.
  /// `verify` is given the temporary file's path once it is on disk, before the rename: throwing
  /// there abandons the write. `syncingFolder` false leaves the folder's fsync to the caller, who
  /// makes one for many files (the name is not durable until then).
  public static func write(
    _ bytes: [UInt8], named name: String, in folder: String, mode: Mode, fileSystem fs: some FileSystem,
    syncingFolder: Bool = true, verify: (String) throws -> Void = { _ in }
  ) throws {
    let temporary = folder + "/" + TemporaryName.make(for: name)
    let final = folder + "/" + name
    // Every error below is about the file being written: it is named so, never by the random
    // temporary name (which no one will find) or by a descriptor.
    let descriptor: Int32
    do { descriptor = try fs.createExclusive(temporary) } catch { throw named(error, final) }
    do {
      try finish(descriptor, writing: bytes, as: final, fileSystem: fs)
      try verify(temporary)
      switch mode {
      case .createNew:
        do {
          try fs.renameNoReplace(temporary, final)
        } catch {
          guard error.number == EEXIST else { throw error }
          throw RecoverError(
            code: .exists, message: "a file already has this name; it is left as it is", path: final)
        }
      case .replace:
        try fs.rename(temporary, final)
      }
    } catch {
      // Best effort: a failing disk may refuse this too, and the next sweep removes the leftover.
      try? fs.unlink(temporary)
      throw named(error, final)
    }
    if syncingFolder { try fs.syncDirectory(folder) }
  }

  /// Writes `bytes` into the new file open as `descriptor`, fsyncs it and closes it (closed
  /// whatever fails). An error is named after `path`, the file being written: the seam can name
  /// these calls only by their descriptor.
  static func finish(
    _ descriptor: Int32, writing bytes: [UInt8], as path: String, fileSystem fs: some FileSystem
  ) throws {
    do {
      try fs.write(descriptor, bytes)
      try fs.sync(descriptor)
    } catch {
      try? fs.close(descriptor)
      throw named(error, path)
    }
    do { try fs.close(descriptor) } catch { throw named(error, path) }
  }

  /// `error` (a `RecoverError`) about `path`.
  static func named(_ error: any Error, _ path: String) -> any Error {
    guard var error = error as? RecoverError else { return error }
    error.path = path
    return error
  }
}
