import StashFormat
import Synchronization

extension Importer {
  /// Compares `memo` with what the target holds of its base (`here`) and with what earlier imports
  /// brought (`record`), copies what is missing, records what is now here, and with `--move`
  /// removes the memo from the source once every file of it is verified here, now or before.
  func importOne(
    _ memo: MemoSet, from source: String, into target: String, here: MemoSet?, options: ImportOptions,
    copier: FileCopier<Seam>, lastSyncs: FolderSyncs?, record: ImportRecord = ImportRecord(folder: ""),
    book: RecordBook? = nil, entry: inout ImportReport.Memo
  ) {
    var comparison: Comparison
    do {
      comparison = try compare(
        memo, from: source, with: here, in: target, record: record, again: options.again, copier: copier)
    } catch {
      entry.outcome = .failed
      entry.detail = "\(error)"
      return
    }
    let names = { (list: [String]) in list.map { PathText.escaped($0) }.joined(separator: ", ") }
    if !comparison.differing.isEmpty || !comparison.changedOnSource.isEmpty {
      defer { entry.detail = ((memo.voiceMemo?.notes ?? []) + [entry.detail]).joined(separator: "; ") }
      entry.outcome = .conflict
      var what: [String] = []
      if !comparison.differing.isEmpty {
        what.append(
          "here with other bytes\(options.record == nil ? "" : ", and not as an import brought them"): "
            + names(comparison.differing))
      }
      if !comparison.changedOnSource.isEmpty {
        what.append(
          "changed on the source since it was imported (the copy here is still what the import brought): "
            + names(comparison.changedOnSource))
      }
      entry.detail =
        what.joined(separator: "; ") + "; "
        + "nothing was overwritten and both are kept. Compare the two: to keep both, move every file of "
        + "this base here into another folder; to keep one, delete the other; then import again"
      return
    }
    // A memo whose audio was deleted here since it was imported is deleted here, whatever else of
    // it is left: nothing new of it is copied either (a new title alone would be a file of no memo).
    let audioDeleted = memo.names.contains { $0.kind == .audio && comparison.deletedHere.contains($0.name) }
    if audioDeleted && !comparison.missing.isEmpty {
      comparison.notCopied = comparison.missing.map(\.name)
      comparison.missing = []
    }
    entry.copied = comparison.missing.map(\.name)
    entry.bytes = comparison.missing.reduce(0) { $0 + $1.status.size }
    let hereNames = here?.statuses ?? [:]
    if !comparison.missing.isEmpty {
      entry.outcome = .copied
    } else if !comparison.deletedHere.isEmpty
      && (audioDeleted || !memo.names.contains(where: { hereNames[$0.name] != nil }))
    {
      entry.outcome = .deletedHere
    } else {
      // A file deleted here since (the others still here) is a change made here too.
      let changed =
        !comparison.changedHere.isEmpty || !comparison.recoveredSince.isEmpty
        || !comparison.deletedHere.isEmpty
      entry.outcome = changed ? .changedHere : .alreadyHere
    }
    var notes: [String] = memo.voiceMemo?.notes ?? []
    // With `--move` what was deleted here goes from the source too (§7.6): then nothing brings it
    // back, and the report says so rather than offer `--again`.
    let movesAway = options.move && moveRefusal(memo, comparison) == nil
    let none = options.dryRun ? "no copy would be left" : "no copy is left"
    if entry.outcome == .deletedHere {
      notes.append(
        movesAway
          ? "\(none) in either folder (one deleted in stash-tui is in the Trash)"
          : "not copied again; stash import --again brings it back")
    } else if !comparison.deletedHere.isEmpty {
      let them = comparison.deletedHere.count == 1 ? "it" : "them"
      notes.append(
        "deleted here since it was imported, not copied again: \(names(comparison.deletedHere)); "
          + (movesAway ? "\(none) of \(them) in either folder" : "stash import --again brings \(them) back"))
    }
    if !comparison.notCopied.isEmpty {
      notes.append(
        "new on the source and not copied, as its audio is gone here: \(names(comparison.notCopied))")
    }
    if !comparison.changedHere.isEmpty {
      notes.append(
        (entry.outcome == .changedHere ? "" : "changed here since it was imported, ")
          + "kept as it is here: \(names(comparison.changedHere))")
    }
    if !comparison.recoveredSince.isEmpty {
      notes.append(
        "its parts \(comparison.recoveredSince.joined(separator: ", ")) were recovered here since it "
          + "was imported (the file they make is here)")
    }
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
      // The plan says what the run would do: a memo `--move` would leave on the source, and why.
      if options.move {
        let refusal = moveRefusal(memo, comparison)
        entry.moved = refusal == nil
        if let refusal {
          notes.append("would be kept on the source: \(refusal)")
          entry.keptOnSource = true
        }
      }
      entry.detail = notes.joined(separator: "; ")
      return
    }
    do {
      let hashes = try copy(
        comparison.missing, of: memo, from: source, into: target, here: here, copier: copier,
        lastSyncs: lastSyncs)
      for (name, status) in comparison.missing.map({ ($0.name, $0.status) }) {
        comparison.verified.append(
          (name, .init(size: status.size, modificationTime: status.modificationTime, hash: hashes[name])))
      }
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
    book?.record(comparison.verified, base: memo.base)
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
    /// Names the target holds with other bytes, which no import brought.
    var differing: [String] = []
    /// Names the target holds as an import brought them, whose source file has changed since.
    var changedOnSource: [String] = []
    /// Parts not copied because the finished file of their kind is already here.
    var recoveredHere: [String] = []
    /// Parts an import brought, unchanged on the source, that a recovery here has since made into
    /// their finished file.
    var recoveredSince: [String] = []
    /// Names an import brought, unchanged on the source, that the target no longer holds.
    var deletedHere: [String] = []
    /// Names an import brought, unchanged on the source, that the target holds with other bytes.
    var changedHere: [String] = []
    /// Names here with the source's bytes, as the record is to hold them.
    var verified: [(name: String, entry: ImportRecord.Entry)] = []
    /// Names the target lacks that are not copied: new on the source for a memo whose audio was
    /// deleted here (they would belong to no memo).
    var notCopied: [String] = []
  }

  /// Compares by size and modification time (an import keeps the source's), and by content when
  /// the sizes agree and the times do not. A name the record holds, whose source file is still
  /// what was imported, and which the target lacks or holds with other bytes, was deleted or
  /// changed here since (with `again`, one deleted is copied again).
  func compare(
    _ memo: MemoSet, from source: String, with here: MemoSet?, in target: String,
    record: ImportRecord = ImportRecord(folder: ""), again: Bool = false, copier: FileCopier<Seam>
  ) throws -> Comparison {
    var comparison = Comparison()
    let hereNames = here?.statuses ?? [:]
    if let folder = here?.partsFolder, folder.kind != .directory, !memo.parts.isEmpty {
      comparison.differing.append(memo.partsName)
    }
    // Whether the file of `folder` (the source's by default) is still what an import brought (its
    // hash read only when the time alone cannot tell).
    func imported(_ name: String, _ status: FileStatus, in folder: String = source) throws -> Bool {
      guard let was = record.entry(base: memo.base, name: name), was.size == status.size else {
        return false
      }
      if was.modificationTime == status.modificationTime { return true }
      guard let hash = was.hash else { return false }
      let theirs =
        folder == source
        ? try sourceDigest(name, of: memo, in: source, copier: copier)
        : try copier.digest(folder + "/" + name)
      return theirs.count == was.size && theirs.hash == hash
    }
    for (name, kind, status) in memo.names {
      guard let mine = hereNames[name] else {
        let finishedHere =
          kind == .parts && Self.finishedKind(of: name, in: memo).map { here?.files[$0] != nil } == true
        let wasImported = try imported(name, status)
        if wasImported && finishedHere {
          comparison.recoveredSince.append(name)
        } else if wasImported && !again {
          comparison.deletedHere.append(name)
        } else if finishedHere {
          comparison.recoveredHere.append(name)
        } else {
          comparison.missing.append((name, kind, status))
        }
        continue
      }
      var same = mine.kind == .regular && mine.size == status.size
      var hash: UInt64?
      if same && mine.modificationTime != status.modificationTime {
        let theirs = try sourceDigest(name, of: memo, in: source, copier: copier)
        let ours = try copier.digest(target + "/" + name)
        same = theirs.count == ours.count && theirs.hash == ours.hash
        hash = theirs.hash
      }
      if same {
        let known = record.entry(base: memo.base, name: name)
        comparison.verified.append(
          (
            name,
            .init(
              size: status.size, modificationTime: status.modificationTime,
              hash: hash
                ?? (known?.size == status.size && known?.modificationTime == status.modificationTime
                  ? known?.hash : nil))
          ))
      } else if try imported(name, status) {
        comparison.changedHere.append(name)
      } else if try imported(name, mine, in: target) {
        comparison.changedOnSource.append(name)
      } else {
        comparison.differing.append(name)
      }
    }
    return comparison
  }

  /// The byte count and hash of `name` of `memo` as the source gives it: the file's, or those of
  /// the bytes made for it on import (a Voice Memos recording's transcript and title).
  func sourceDigest(_ name: String, of memo: MemoSet, in source: String, copier: FileCopier<Seam>) throws
    -> (count: Int, hash: UInt64)
  {
    guard let bytes = memo.madeBytes(name) else {
      return try copier.digest(source + "/" + memo.sourceName(name))
    }
    var hash = ContentHash()
    hash.update(bytes)
    return (hash.count, hash.value)
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
  ) throws -> [String: UInt64] {
    guard !missing.isEmpty else { return [:] }
    var hashes: [String: UInt64] = [:]
    let fs = fileSystem
    let partsPath = target + "/" + memo.partsName
    let makesParts = missing.contains(where: { $0.kind == .parts }) && here?.partsFolder == nil
    if makesParts {
      // With the source's permissions, as the files are copied with its times.
      try fs.makeDirectory(partsPath, modeOf: source + "/" + memo.partsName)
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
        if let bytes = memo.madeBytes(name) {
          // Made on import: written whole under its name, never over another file; its folder is
          // fsynced with the copied files' (before the audio, or at the end).
          try AtomicFile.write(
            bytes, named: leaf, in: folder, mode: .createNew, fileSystem: fs, syncingFolder: false)
          var hash = ContentHash()
          hash.update(bytes)
          hashes[name] = hash.value
        } else {
          hashes[name] = try copier.copy(
            source + "/" + memo.sourceName(name), expected: status, to: folder, name: leaf
          ).hash
        }
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
      return hashes
    }
    // The parts folder before the memo folder, so the folder's own name is durable last.
    for folder in unsynced.sorted(by: { $0.count > $1.count }) { try fs.syncDirectory(folder) }
    return hashes
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
    if !comparison.notCopied.isEmpty {
      return "it holds files that were not copied (new since its audio was deleted here)"
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
    // Files made on import have nothing on the source to remove.
    let names = memo.names.filter { memo.madeBytes($0.name) == nil }.map {
      (name: memo.sourceName($0.name), kind: $0.kind, status: $0.status)
    }
    for (name, _, status) in names {
      guard try fs.status(source + "/" + name) == status else {
        throw RecoverError(
          code: .changed, message: "it changed since it was copied: it is left on the source",
          path: source + "/" + name)
      }
    }
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
