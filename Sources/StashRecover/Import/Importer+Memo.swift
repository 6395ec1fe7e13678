import StashFormat
import Synchronization

extension Importer {
  /// Compares `memo` with what the target holds of its base (`here`), copies what is missing, and
  /// with `--move` removes the memo from the source once every file of it is verified here.
  func importOne(
    _ memo: MemoSet, from source: String, into target: String, here: MemoSet?, options: ImportOptions,
    copier: FileCopier<Seam>, lastSyncs: FolderSyncs?, entry: inout ImportReport.Memo
  ) {
    let comparison: Comparison
    do {
      comparison = try compare(memo, from: source, with: here, in: target, copier: copier)
    } catch {
      entry.outcome = .failed
      entry.detail = "\(error)"
      return
    }
    if !comparison.differing.isEmpty {
      entry.outcome = .conflict
      entry.detail =
        "here with other bytes: \(comparison.differing.map { PathText.escaped($0) }.joined(separator: ", ")); "
        + "nothing was overwritten and both are kept. Compare the two; keep both by renaming every file of "
        + "one set to a new base, or remove the one you do not want, then import again"
      return
    }
    entry.copied = comparison.missing.map(\.name)
    entry.bytes = comparison.missing.reduce(0) { $0 + $1.status.size }
    entry.outcome = comparison.missing.isEmpty ? .alreadyHere : .copied
    var notes: [String] = []
    if !comparison.recoveredHere.isEmpty {
      notes.append(
        "its parts \(comparison.recoveredHere.joined(separator: ", ")) were not copied: the file they make "
          + "is already here (recovered since an earlier import)")
    }
    if memo.routeWithdrawn {
      notes.append(
        "its route was withdrawn (location turned off while it recorded) and is not copied")
    }
    if !memo.strangers.isEmpty {
      notes.append(
        "not copied from its parts folder (not Stash's): "
          + memo.strangers.map { PathText.escaped($0) }.joined(separator: ", "))
    }
    if options.dryRun {
      if options.move { entry.moved = moveRefusal(memo, comparison) == nil }
      entry.detail = notes.joined(separator: "; ")
      return
    }
    do {
      try copy(
        comparison.missing, of: memo, from: source, into: target, here: here, copier: copier,
        lastSyncs: lastSyncs)
    } catch let error as RecoverError where error.code == .changed {
      entry.outcome = .stillRecording
      entry.detail =
        "\(error.name(in: source) ?? memo.base) changed while it was copied (a recording still "
        + "running, or a copy onto the source not finished): nothing of it was kept; import again later"
      return
    } catch {
      entry.outcome = .failed
      entry.detail = "\(error)" + (entry.copied.isEmpty ? "" : "; a rerun copies what is missing")
      return
    }
    if options.move {
      if let refusal = moveRefusal(memo, comparison) {
        notes.append("kept on the source: \(refusal)")
        entry.keptOnSource = true
      } else {
        do {
          try remove(memo, from: source)
          entry.moved = true
        } catch {
          notes.append("kept on the source, or part of it: \(error); a rerun with --move finishes it")
          entry.keptOnSource = true
        }
      }
    }
    entry.detail = notes.joined(separator: "; ")
  }

  /// How a memo on the source stands against the target.
  struct Comparison {
    /// Names the target lacks, to copy, in the order to copy them.
    var missing: [(name: String, kind: MemoFileKind, status: FileStatus)] = []
    /// Names the target holds with other bytes.
    var differing: [String] = []
    /// Parts not copied because the finished file of their kind is already here.
    var recoveredHere: [String] = []
  }

  /// Compares by size and modification time (an import keeps the source's), and by content when
  /// the sizes agree and the times do not.
  func compare(
    _ memo: MemoSet, from source: String, with here: MemoSet?, in target: String, copier: FileCopier<Seam>
  ) throws -> Comparison {
    var comparison = Comparison()
    let hereNames = here?.statuses ?? [:]
    if let folder = here?.partsFolder, folder.kind != .directory, !memo.parts.isEmpty {
      comparison.differing.append(memo.partsName)
    }
    for (name, kind, status) in memo.names {
      guard let mine = hereNames[name] else {
        if kind == .parts, let finished = Self.finishedKind(of: name, in: memo), here?.files[finished] != nil
        {
          comparison.recoveredHere.append(name)
        } else {
          comparison.missing.append((name, kind, status))
        }
        continue
      }
      if mine.kind != .regular || mine.size != status.size {
        comparison.differing.append(name)
      } else if mine.modificationTime != status.modificationTime {
        let theirs = try copier.digest(source + "/" + name)
        let ours = try copier.digest(target + "/" + name)
        if theirs.count != ours.count || theirs.hash != ours.hash { comparison.differing.append(name) }
      }
    }
    return comparison
  }

  /// The finished file a part's kind makes (a transcript or a route), or nil for the marker.
  static func finishedKind(of name: String, in memo: MemoSet) -> MemoFileKind? {
    switch PartName(String(name.dropFirst(memo.partsName.count + 1))) {
    case .transcript?: .transcript
    case .route?: .route
    default: nil
    }
  }

  /// Copies `missing` into the target: the parts (their folder made first), the title, transcript
  /// and route, then, once those are durable, the audio, and the folders fsynced after it: at once,
  /// or with `lastSyncs` once for every memo at the end of the import (the next memo's fsync before
  /// its audio makes this one's durable meanwhile; a crash before either loses at most the audio's
  /// name, which a rerun copies again).
  func copy(
    _ missing: [(name: String, kind: MemoFileKind, status: FileStatus)], of memo: MemoSet,
    from source: String,
    into target: String, here: MemoSet?, copier: FileCopier<Seam>, lastSyncs: FolderSyncs? = nil
  ) throws {
    guard !missing.isEmpty else { return }
    let fs = fileSystem
    let partsPath = target + "/" + memo.partsName
    let makesParts = missing.contains(where: { $0.kind == .parts }) && here?.partsFolder == nil
    if makesParts {
      try fs.makeDirectory(partsPath)
      try fs.syncDirectory(target)
    }
    var unsynced: Set<String> = []
    var landed: [String] = []
    for (name, kind, status) in missing {
      if kind == .audio {
        for folder in unsynced.sorted() { try fs.syncDirectory(folder) }
        unsynced = []
      }
      let folder = TemporaryName.folder(of: name, in: target)
      let leaf = String(name.split(separator: "/").last!)
      do {
        _ = try copier.copy(source + "/" + name, expected: status, to: folder, name: leaf)
      } catch let error as RecoverError where error.code == .changed {
        // A memo still being written: what this run copied of it goes again, so no half of it
        // stays (they are files this run made, by the format's names; a kill here leaves them for
        // the next run to complete).
        for name in landed.reversed() { try? fs.unlink(target + "/" + name) }
        if makesParts { try? fs.removeDirectory(partsPath) }
        for folder in Set(landed.map { TemporaryName.folder(of: $0, in: target) } + [target])
        where folder != partsPath || !makesParts {
          try? fs.syncDirectory(folder)
        }
        throw error
      }
      landed.append(name)
      unsynced.insert(folder)
    }
    if let lastSyncs {
      lastSyncs.add(unsynced)
      return
    }
    // The parts folder before the memo folder, so the folder's own name is durable last.
    for folder in unsynced.sorted(by: { $0.count > $1.count }) { try fs.syncDirectory(folder) }
  }

  /// Folders whose last fsync waits for the end of the import, shared by its workers.
  final class FolderSyncs: @unchecked Sendable {
    private var folders: Set<String> = []
    private let lock = Mutex(())

    func add(_ more: Set<String>) { lock.withLock { _ in folders.formUnion(more) } }

    /// Fsyncs every folder added (parts folders before the folder holding them); returns the
    /// errors, one line each.
    func syncAll(_ fs: Seam) -> [String] {
      let all = lock.withLock { _ in folders }
      var errors: [String] = []
      for folder in all.sorted(by: { $0.count > $1.count }) {
        do { try fs.syncDirectory(folder) } catch { errors.append("\(error)") }
      }
      return errors
    }
  }

  /// Why `--move` must leave `memo` on the source, or nil when every file of it is here.
  func moveRefusal(_ memo: MemoSet, _ comparison: Comparison) -> String? {
    if !memo.strangers.isEmpty {
      return "its parts folder holds files Stash did not write ("
        + memo.strangers.map { PathText.escaped($0) }.joined(separator: ", ")
        + "); move them out and import again"
    }
    if memo.routeWithdrawn {
      return "its route withdrawal is unfinished there: opening Stash on the phone (or stash recover on "
        + "the source) finishes it; then import again"
    }
    if !comparison.recoveredHere.isEmpty {
      return "its parts were not copied, since what they make is already here; remove them by hand if "
        + "they are what was recovered"
    }
    return nil
  }

  /// Removes a memo, all of whose files are verified in the target, from the source: only names the
  /// format defines, each only if it is still what was copied; its parts first and their folder
  /// with rmdir once empty, the audio last, so a removal cut short leaves a memo still listed.
  func remove(_ memo: MemoSet, from source: String) throws {
    let fs = fileSystem
    // The source's own writers (a sweep there, a deletion) take the same lock; a file system
    // without locks (some FUSE mounts) refuses flock, and then there is no such writer to wait for.
    let lock: FolderLock?
    do {
      lock = try FolderLock.acquire(source, wait: true, fileSystem: fs)
    } catch let error as RecoverError where error.code == .io && error.number != EIO {
      lock = nil
    }
    defer { lock?.release() }
    for (name, _, status) in memo.names {
      guard try fs.status(source + "/" + name) == status else {
        throw RecoverError(
          code: .changed, message: "it changed since it was copied: it is left on the source",
          path: source + "/" + name)
      }
    }
    let names = memo.names
    for (name, kind, _) in names where kind == .parts { try fs.unlink(source + "/" + name) }
    if memo.partsFolder != nil {
      let partsPath = source + "/" + memo.partsName
      if !memo.parts.isEmpty { try fs.syncDirectory(partsPath) }
      try fs.removeDirectory(partsPath)
    }
    for (name, kind, _) in names where kind != .parts && kind != .audio { try fs.unlink(source + "/" + name) }
    if let audio = names.first(where: { $0.kind == .audio }) { try fs.unlink(source + "/" + audio.name) }
    try fs.syncDirectory(source)
  }
}

#if canImport(Glibc)
  import Glibc
#endif
