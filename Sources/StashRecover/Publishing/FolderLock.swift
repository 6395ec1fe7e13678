/// An exclusive `flock(2)` on a memo folder itself, held by every writer in StashRecover so that two
/// sweeps, or a sweep and a deletion, never interleave. Locking the folder's own descriptor adds no
/// lock file to a user's folder; the lock goes when the descriptor closes, even if the process dies.
public final class FolderLock {
  /// The folder locked.
  public let folder: String
  private let descriptor: Int32
  private let fileSystem: any FileSystem
  private var held = true

  private init(folder: String, descriptor: Int32, fileSystem: any FileSystem) {
    self.folder = folder
    self.descriptor = descriptor
    self.fileSystem = fileSystem
  }

  /// Locks `folder`. With `wait`, blocks until another holder lets go; without, throws code `busy`.
  /// `onWait` runs once before blocking, so a command can say why it is waiting.
  public static func acquire(
    _ folder: String, wait: Bool, fileSystem: some FileSystem, onWait: () -> Void = {}
  ) throws -> FolderLock {
    let descriptor = try fileSystem.openDirectory(folder)
    do {
      if try !fileSystem.lock(descriptor, wait: false) {
        guard wait else {
          throw RecoverError(
            code: .busy, message: "another stash process is writing in this folder; try again when it ends",
            path: folder)
        }
        onWait()
        _ = try fileSystem.lock(descriptor, wait: true)
      }
    } catch {
      try? fileSystem.close(descriptor)
      throw error
    }
    return FolderLock(folder: folder, descriptor: descriptor, fileSystem: fileSystem)
  }

  /// Lets go of the lock (closing the descriptor releases it).
  public func release() {
    guard held else { return }
    held = false
    try? fileSystem.close(descriptor)
  }

  deinit { release() }
}
