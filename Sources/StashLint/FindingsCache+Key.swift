import StashFormat
import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

extension FindingsCache {
  /// The files whose bytes the checks read beyond the listing's read: their stats are the key.
  /// The title and the parts folder are read by every run (`Memo.read`), so their findings are
  /// never cached.
  static let checkedKinds: [MemoFileKind] = [.audio, .transcript, .route, .bookmarks]

  /// The key of `candidate`'s entry: its base, every name and kind the listing gave it, and each
  /// checked file's device, inode, size, mode, and modification and status-change times in
  /// nanoseconds (a status change cannot be set back by hand, so a file rewritten with its size
  /// and modification time put back still moves it). `settled` is false when a file changed in
  /// the second before `now` (when the folder was read): a write in the same clock tick after
  /// this read would leave every stat as it is, so such an entry is not kept (git's "racily
  /// clean" files).
  package static func key(_ candidate: FolderGrouping.Candidate, opened: OpenFolder, now: Double) -> (
    key: Key, settled: Bool
  ) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(256)
    bytes += candidate.base.utf8
    var settled = true
    for (kind, slot) in candidate.filled {
      bytes.append(0)
      bytes += kind.rawValue.utf8
      bytes.append(0)
      bytes += slot.name.utf8
      bytes.append(0)
      bytes += slot.kind.rawValue.utf8
      guard checkedKinds.contains(kind) else { continue }
      bytes.append(0)
      guard let info = opened.status(of: slot.name) else {
        bytes += Array("unstatable \(errno)".utf8)
        continue
      }
      for value in [
        UInt64(info.st_dev), UInt64(info.st_ino), UInt64(bitPattern: Int64(info.st_size)),
        UInt64(info.st_mode),
        UInt64(bitPattern: Int64(info.st_mtim.tv_sec)), UInt64(info.st_mtim.tv_nsec),
        UInt64(bitPattern: Int64(info.st_ctim.tv_sec)), UInt64(info.st_ctim.tv_nsec),
      ] {
        FindingsCacheFile.put(value, 8, &bytes)
      }
      if Double(info.st_ctim.tv_sec) + 1 >= now || Double(info.st_mtim.tv_sec) + 1 >= now { settled = false }
    }
    var high = ContentHash()
    high.update([1])
    high.update(bytes)
    var low = ContentHash()
    low.update([2])
    low.update(bytes)
    return (Key(high: high.value, low: low.value), settled)
  }
}

extension FindingsCache.Entry {
  /// The entry of `memo`, whose file checks found `findings` (each on the file of its kind).
  package init(_ memo: Memo, findings: [FindingsCache.Finding]) {
    self.init(
      recordedAt: memo.recordedAt, dateSource: memo.dateSource, durationSeconds: memo.durationSeconds,
      cutShort: Self.isCutShort(memo), findings: findings)
  }

  /// Whether `memo`, read now, is as it was when the entry was written.
  package func fits(_ memo: Memo) -> Bool {
    recordedAt == memo.recordedAt && dateSource == memo.dateSource && durationSeconds == memo.durationSeconds
      && cutShort == Self.isCutShort(memo)
  }

  static func isCutShort(_ memo: Memo) -> Bool {
    if case .cutShort = memo.audio?.state { return true }
    return false
  }

  /// The findings as `LintFinding`s on `memo`'s files in `folder`, without messages: for what
  /// counts them (the `!` mark), never for what shows them.
  package func lintFindings(_ memo: Memo, folder: String) -> [LintFinding] {
    findings.compactMap { finding in
      guard let file = memo.files[finding.kind] else { return nil }
      var made = LintFinding(
        code: finding.code, severity: finding.severity, name: PathText.escaped(file), folder: folder,
        location: finding.location, message: "")
      made.unlisted = finding.unlisted
      return made
    }
  }
}
