import StashFormat
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Brings memos from source folders into a target memo folder as whole sets, each file verified,
/// nothing overwritten: `stash import`. Holds the target's folder lock throughout. A kill at any
/// point leaves the target with whole files only (and hidden temporaries, which the next import
/// removes), and the next import finishes what is missing.
public struct Importer<Seam: CopyingFileSystem> {
  /// One folder to import from: every memo in it, or only `bases` (a file named on the command
  /// line brings its whole memo).
  public struct Source: Sendable, Equatable {
    /// The folder.
    public var folder: String
    /// The memos to import, or nil for all.
    public var bases: Set<String>?
    /// Apple Voice Memos recordings named on the command line, by file name (with `bases` empty,
    /// only these).
    public var recordings: Set<String> = []

    /// A source folder, all of it or some of its memos.
    public init(folder: String, bases: Set<String>? = nil) {
      self.folder = folder
      self.bases = bases
    }

    /// One Apple Voice Memos recording, `name` in `folder`.
    public init(folder: String, recording name: String) {
      self.folder = folder
      self.bases = []
      self.recordings = [name]
    }
  }

  /// Where an import has got to, for a progress line.
  public struct Progress: Sendable, Equatable {
    /// Memos looked at so far, and in all.
    public var memosDone = 0, memosTotal = 0
    /// Bytes copied so far, and to copy in all (known once the memos have been compared).
    public var bytesDone = 0, bytesTotal = 0
  }

  /// Every file-system call goes through here.
  public var fileSystem: Seam
  /// Called as the import goes (after each memo, and after each piece of a file copied).
  public var onProgress: (Progress) -> Void = { _ in }
  /// Waits between the two looks at a recent memo; a test replaces it to run a writer meanwhile.
  public var pause: (Double) -> Void = { seconds in
    if seconds > 0 { usleep(UInt32(min(seconds, 3600) * 1_000_000)) }
  }

  /// How many memos are copied at once when the seam allows concurrent calls. Each copy waits
  /// mostly on fsync and on reading back from the disk, and the waits overlap: on the 2-core test
  /// machine, 200 memos (540 MB) took 5.4–6.5 s with 8, 4.7–5.9 s with 16 and 3.9–5.8 s with 32
  /// (two rounds, load 14–19). Sixteen keeps most of that gain for half the threads and buffers.
  public var workers = 16

  /// The size of the pieces files are read and written in (1 MiB; tests make it small to fail a
  /// read in the middle of a file).
  package var pieceSize = 1 << 20

  /// An importer over `fileSystem`.
  public init(fileSystem: Seam) {
    self.fileSystem = fileSystem
  }

  /// Imports `sources` into `target` (which must exist, except for a dry run). With `wait`, waits for another writer's
  /// folder lock (after calling `onWait`); without, throws code `busy`.
  public func run(
    _ sources: [Source], into target: String, options: ImportOptions, wait: Bool = true,
    onWait: () -> Void = {}
  ) throws -> ImportReport {
    let fs = fileSystem
    if let overlap = ImportOverlap.reason(sources: sources.map(\.folder), target: target) {
      throw RecoverError(code: .overlap, message: overlap, path: target)
    }
    // A dry run into a folder not made yet plans against an empty one.
    let missing = try options.dryRun && fs.status(target) == nil
    let lock = missing ? nil : try FolderLock.acquire(target, wait: wait, fileSystem: fs, onWait: onWait)
    defer { lock?.release() }
    var report = ImportReport(
      target: target, dryRun: options.dryRun, temporariesRemoved: [], memos: [], skipped: [], errors: [])
    var here =
      missing ? MemoFolderListing() : try MemoFolderListing.read(target, orphans: true, fileSystem: fs)
    report.temporariesRemoved = here.temporaries
    if !options.dryRun && !here.temporaries.isEmpty {
      for name in here.temporaries { try fs.unlink(target + "/" + name) }
      for folder in Set(here.temporaries.map { TemporaryName.folder(of: $0, in: target) }) {
        try fs.syncDirectory(folder)
      }
      here.temporaries = []
    }

    // What earlier imports brought here; a record that cannot be read is set aside, never trusted.
    var record = ImportRecord(folder: options.record?.folder ?? "")
    var recordDamaged = false
    if let location = options.record {
      let (loaded, problem) = ImportRecord.load(location.path, folder: location.folder, fileSystem: fs)
      if let loaded { record = loaded }
      if let problem {
        recordDamaged = true
        report.notices.append(
          "the import record \(problem); it is set aside and "
            + (options.dryRun ? "would be" : "is") + " written anew: memos deleted here since an "
            + "earlier import are copied again this once")
      }
    }
    let book = RecordBook(record)

    var listings: [(Source, MemoFolderListing)] = []
    for source in sources {
      do {
        var listing = try MemoFolderListing.read(source.folder, only: source.bases, fileSystem: fs)
        if !source.recordings.isEmpty { listing.voiceMemoCandidates = source.recordings.sorted() }
        report.notices += VoiceMemoAdoption.adopt(
          &listing, in: source.folder, fileSystem: fs, includeDeleted: options.includeDeleted)
        listings.append((source, listing))
        for other in listing.others {
          report.skipped.append(
            ImportReport.Skipped(source: source.folder, name: other.name, reason: other.reason))
        }
        for base in source.bases ?? [] where listing.memos[base] == nil {
          report.errors.append("\(PathText.escaped(source.folder + "/" + base)): no memo has this name")
        }
      } catch {
        report.errors.append("\(error)")
      }
    }
    // First every memo is judged and compared (names and statuses only), so the bytes to copy are
    // known before the first byte is, for the progress line.
    let tally = Tally(memosTotal: listings.reduce(0) { $0 + $1.1.memos.count })
    var work: [(source: String, memo: MemoSet, entry: ImportReport.Memo)] = []
    for (source, listing) in listings {
      let live = stillRecording(listing, in: source.folder, here: here, options: options)
      for base in listing.memos.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
        let memo = listing.memos[base]!
        var entry = ImportReport.Memo(
          source: source.folder, base: base, outcome: .copied, copied: [], bytes: 0, moved: false, detail: "")
        if let reason = memo.incompleteBecause {
          entry.outcome = .incomplete
          entry.detail = reason
        } else if let reason = live[base] {
          entry.outcome = .stillRecording
          entry.detail = reason
        } else if here.memos[base] == nil,
          let earlier = importedAs(memo, from: source.folder, here: here, in: target)
        {
          // Brought before under the date an import with less to go on gave it: not copied twice.
          entry.outcome = .alreadyHere
          entry.detail =
            ((memo.voiceMemo?.notes ?? []) + [
              "already here as \(earlier), the date its name or index gives (imported before without "
                + "Voice Memos' database, which dates it \(base))"
            ]).joined(separator: "; ")
        } else {
          let hereNames = Set(here.memos[base]?.names.map(\.name) ?? [])
          tally.progress.bytesTotal += memo.names.filter {
            !hereNames.contains($0.name) && (options.again || record.entry(base: base, name: $0.name) == nil)
          }.reduce(0) {
            $0 + $1.status.size
          }
        }
        work.append((source.folder, memo, entry))
      }
    }
    // Memos of one source go several at once where the seam allows it (each memo's calls keep
    // their order, so a kill leaves every memo where a one-at-a-time import could have): a copy
    // waits mostly on fsync, and the waits overlap. One source after another, so a base that two
    // sources name is compared with what the first brought.
    let workers = fs.allowsConcurrentCalls ? self.workers : 1
    let onProgress = self.onProgress
    // Without --move nothing waits on a memo's last folder fsync: one at the end serves them all.
    let lastSyncs = options.move || options.dryRun ? nil : FolderSyncs()
    // One copier (and its buffer) a worker, not one a memo.
    let copiers = CopierPool(fileSystem: fs, pieceSize: pieceSize) { bytes in
      tally.add(bytes: bytes, onProgress)
    }
    var start = 0
    while start < work.count {
      var end = start
      while end < work.count && work[end].source == work[start].source { end += 1 }
      let batch = Array(work[start..<end])
      let entries = UnsafeMutableBufferPointer<ImportReport.Memo>.allocate(capacity: batch.count)
      _ = entries.initialize(from: batch.map(\.entry))
      defer { entries.deallocate() }
      let hereNow = here
      SweepWorkers.forEach(batch.count, workers: workers) { index in
        var (source, memo, _) = batch[index]
        if entries[index].outcome == .copied {
          // A Voice Memos transcript is made here, by the worker, beside the others' copies.
          let made = VoiceMemoAdoption.makeTranscript(&memo)
          if made > 0 && hereNow.memos[memo.base]?.files[.transcript] == nil {
            tally.add(bytesTotal: made, onProgress)
          }
          let copier = copiers.take()
          defer { copiers.give(copier) }
          importOne(
            memo, from: source, into: target, here: hereNow.memos[memo.base], options: options,
            copier: copier, lastSyncs: lastSyncs, record: record, book: book,
            entry: &entries[index])
        }
        tally.add(memos: 1, onProgress)
      }
      report.memos += UnsafeBufferPointer(entries)
      start = end
      // What is now here of the memos copied, for a later source naming the same bases: one
      // listing of the target, not one a memo (which made a long import quadratic).
      let copied = Set(report.memos.suffix(batch.count).filter { $0.outcome == .copied }.map(\.base))
      if start < work.count && !options.dryRun && !copied.isEmpty {
        let now = try? MemoFolderListing.read(target, only: copied, orphans: true, fileSystem: fs)
        for base in copied { here.memos[base] = now?.memos[base] }
      }
    }
    if let lastSyncs { report.errors += lastSyncs.syncAll(fs) }
    // Written once the memos it names are durable here (the folder fsyncs above), so it never
    // says a memo was imported that a crash could still take back.
    if let location = options.record, !options.dryRun, book.changed || recordDamaged {
      do {
        try book.record.save(location.path, fileSystem: fs)
      } catch {
        report.notices.append(
          "the import record could not be written: \(error); the next import may copy again what "
            + "was deleted here since")
      }
    }
    return report
  }

  /// The base under which the target already holds the Voice Memos recording `memo` (one of its
  /// `otherBases`, its audio byte for byte the recording), or nil.
  func importedAs(_ memo: MemoSet, from source: String, here: MemoFolderListing, in target: String) -> String?
  {
    guard let voiceMemo = memo.voiceMemo, let size = memo.files[.audio]?.size else { return nil }
    for other in voiceMemo.otherBases {
      guard let there = here.memos[other], there.files[.audio]?.size == size else { continue }
      if Self.sameBytes(
        source + "/" + voiceMemo.name, target + "/" + MemoFileKind.audio.name(for: other), size: size)
      {
        return other
      }
    }
    return nil
  }

  /// Whether the files at `a` and `b`, both `size` bytes long, hold the same bytes (read a MiB at
  /// a time); false when either cannot be read.
  static func sameBytes(_ a: String, _ b: String, size: Int) -> Bool {
    guard let first = try? ReadOnlyFile(path: a), let second = try? ReadOnlyFile(path: b) else {
      return false
    }
    var offset = 0
    while offset < size {
      let count = min(1 << 20, size - offset)
      guard let x = try? first.read(at: offset, count: count),
        let y = try? second.read(at: offset, count: count),
        x.count == count, x == y
      else { return false }
      offset += count
    }
    return true
  }

  /// The import record as this import adds to it, shared by the workers.
  final class RecordBook: @unchecked Sendable {
    private var held: ImportRecord
    private(set) var changed = false
    private let lock = Mutex(())

    init(_ record: ImportRecord) { held = record }

    var record: ImportRecord { lock.withLock { _ in held } }

    /// Records what `base` brought, by name relative to the folder.
    func record(_ entries: [(name: String, entry: ImportRecord.Entry)], base: String) {
      lock.withLock { _ in
        for (name, entry) in entries where held.entry(base: base, name: name) != entry {
          held.record(entry, base: base, name: name)
          changed = true
        }
      }
    }
  }

  /// Copiers not in use, shared by the workers: each worker takes one for a memo and gives it back.
  final class CopierPool: @unchecked Sendable {
    private var idle: [FileCopier<Seam>] = []
    private let lock = Mutex(())
    private let make: () -> FileCopier<Seam>

    init(fileSystem: Seam, pieceSize: Int, onBytes: @escaping (Int) -> Void) {
      make = {
        let copier = FileCopier(fileSystem: fileSystem, pieceSize: pieceSize)
        copier.onBytes = onBytes
        return copier
      }
    }

    func take() -> FileCopier<Seam> { lock.withLock { _ in idle.popLast() } ?? make() }
    func give(_ copier: FileCopier<Seam>) { lock.withLock { _ in idle.append(copier) } }
  }

  /// The progress so far, shared by the workers and their copiers' callbacks; the callback is
  /// called under its lock, one call at a time.
  final class Tally: @unchecked Sendable {
    var progress = Progress()
    private let lock = Mutex(())
    init(memosTotal: Int) { progress.memosTotal = memosTotal }

    func add(bytes: Int = 0, memos: Int = 0, bytesTotal: Int = 0, _ onProgress: (Progress) -> Void) {
      lock.withLock { _ in
        progress.bytesTotal += bytesTotal
        progress.bytesDone += bytes
        progress.memosDone += memos
        onProgress(progress)
      }
    }
  }
}
