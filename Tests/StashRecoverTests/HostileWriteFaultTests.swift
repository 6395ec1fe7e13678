import Foundation
import StashRecover
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The writes the sweep tests do not cover (title writes, deletion to the Trash and for good, audio
/// repair) under a failing call at every step with each errno, and a stop at every step: nothing is
/// lost, nothing outside Stash's names is touched, and a rerun converges.
@Suite struct HostileWriteFaultTests {
  static let errors: [(Int32, String)] = [
    (ENOSPC, "ENOSPC"), (EIO, "EIO"), (EACCES, "EACCES"), (EINTR, "EINTR"),
  ]

  /// Every way to break a run of `steps` calls: stop at each, and fail each with every errno.
  static func faults(steps: Int) -> [(label: String, fs: FaultyFileSystem)] {
    var out: [(String, FaultyFileSystem)] = []
    for step in 1...steps {
      out.append(("stop at \(step)", FaultyFileSystem(stopAt: step)))
      for (number, name) in errors {
        out.append(("\(name) at \(step)", FaultyFileSystem(failAt: step, failure: number)))
      }
    }
    return out
  }

  /// The memo folder of MemoEditingTests plus a file outside it and a stranger inside it.
  static func folder() throws -> ScratchFolder {
    let root = try MemoEditingTests.memo()
    try put("not ours", "outside.txt", in: root)
    try put("somebody's notes", "memos/notes.txt", in: root)
    return root
  }

  /// What must never change: everything outside `memos/` but the Trash, and every name in `memos/`
  /// that is not memo `m`'s.
  static func untouched(_ tree: FolderTree) -> [String: String] {
    tree.entries.filter { path, _ in
      !path.hasPrefix("Trash") && !path.hasPrefix("memos/m_") && !path.hasPrefix("memos/m.parts")
        && !path.hasPrefix("memos/.")
    }
  }

  @Test func titleWritesUnderEveryFaultKeepTheOldOrTheNewTitle() throws {
    let reference = try Self.folder()
    defer { reference.remove() }
    let before = try FolderTree(reference)
    let counter = FaultyFileSystem()
    try MemoTitle.set("Evening run", base: "m", in: reference.path + "/memos", fileSystem: counter)
    let expected = try FolderTree(reference)
    #expect(expected.entries["memos/m_title.txt"] == "Evening run")
    for (label, fs) in Self.faults(steps: counter.steps) {
      let root = try Self.folder()
      defer { root.remove() }
      let memos = root.path + "/memos"
      do {
        try MemoTitle.set("Evening run", base: "m", in: memos, fileSystem: fs)
      } catch {}
      let after = try FolderTree(root)
      #expect(Self.untouched(after) == Self.untouched(before), "\(label)")
      let title = after.entries["memos/m_title.txt"]
      #expect(title == "Walk" || title == "Evening run", "\(label): title is \(String(describing: title))")
      try MemoTitle.set("Evening run", base: "m", in: memos)
      // A kill cannot clean up: it may leave the hidden temporary, which the next sweep removes
      // (TemporaryName). Anything else must be as after an undisturbed write.
      var rerun = try FolderTree(root)
      for path in rerun.entries.keys where path.hasPrefix("memos/.") {
        #expect(
          fs.stopAt != nil
            && TemporaryName.finalName(of: String(path.dropFirst("memos/".count))) == "m_title.txt",
          "\(label): \(path) left behind")
        rerun.entries[path] = nil
      }
      #expect(rerun == expected, "\(label): a rerun did not converge")
    }
  }

  @Test func clearingATitleUnderEveryFaultLeavesItOrRemovesIt() throws {
    let reference = try Self.folder()
    defer { reference.remove() }
    let counter = FaultyFileSystem()
    try MemoTitle.set("", base: "m", in: reference.path + "/memos", fileSystem: counter)
    let expected = try FolderTree(reference)
    for (label, fs) in Self.faults(steps: counter.steps) {
      let root = try Self.folder()
      defer { root.remove() }
      try? MemoTitle.set("", base: "m", in: root.path + "/memos", fileSystem: fs)
      let title = try FolderTree(root).entries["memos/m_title.txt"]
      #expect(title == "Walk" || title == nil, "\(label)")
      try MemoTitle.set("", base: "m", in: root.path + "/memos")
      #expect(try FolderTree(root) == expected, "\(label)")
    }
  }

  @Test func permanentDeletionUnderEveryErrnoLosesOnlyTheMemo() throws {
    let reference = try Self.folder()
    defer { reference.remove() }
    let before = try FolderTree(reference)
    let counter = FaultyFileSystem()
    _ = try MemoDeletion.delete(
      base: "m", in: reference.path + "/memos", disposal: .permanent, fileSystem: counter)
    let expected = try FolderTree(reference)
    for (label, fs) in Self.faults(steps: counter.steps) where fs.failAt != nil {
      let root = try Self.folder()
      defer { root.remove() }
      _ = try? MemoDeletion.delete(base: "m", in: root.path + "/memos", disposal: .permanent, fileSystem: fs)
      let after = try FolderTree(root)
      #expect(Self.untouched(after) == Self.untouched(before), "\(label)")
      // The audio goes last: while any file of the memo is left, the audio is too.
      let left = after.entries.keys.filter { $0.hasPrefix("memos/m_") || $0.hasPrefix("memos/m.parts/") }
      #expect(left.isEmpty || after.entries["memos/m_audio.m4a"] == "audio", "\(label): \(left)")
      _ = try? MemoDeletion.delete(base: "m", in: root.path + "/memos", disposal: .permanent)
      #expect(try FolderTree(root) == expected, "\(label)")
    }
  }

  @Test func deletionToTheTrashUnderEveryFaultKeepsEveryByte() throws {
    let reference = try Self.folder()
    defer { reference.remove() }
    let before = try FolderTree(reference)
    let memoContents = before.entries.filter {
      $0.key.hasPrefix("memos/m_") || $0.key.hasPrefix("memos/m.parts/")
    }
    .filter { $0.value != "<dir>" }.values.sorted()
    let counter = FaultyFileSystem()
    let now = 1_772_355_600.0
    _ = try MemoDeletion.delete(
      base: "m", in: reference.path + "/memos", disposal: .trash(Trash(directory: reference.path + "/Trash")),
      now: now,
      fileSystem: counter)
    for (label, fs) in Self.faults(steps: counter.steps) {
      let root = try Self.folder()
      defer { root.remove() }
      let trash = Trash(directory: root.path + "/Trash")
      _ = try? MemoDeletion.delete(
        base: "m", in: root.path + "/memos", disposal: .trash(trash), now: now, fileSystem: fs)
      let after = try FolderTree(root)
      #expect(Self.untouched(after) == Self.untouched(before), "\(label)")
      // Every file of the memo is in the folder or in the Trash: none lost, none doubled.
      func contents(_ tree: FolderTree) -> [String] {
        tree.entries.filter {
          ($0.key.hasPrefix("memos/m_") || $0.key.hasPrefix("memos/m.parts/")
            || $0.key.hasPrefix("Trash/files/"))
            && $0.value != "<dir>"
        }.values.sorted()
      }
      #expect(contents(after) == memoContents, "\(label)")
      _ = try? MemoDeletion.delete(base: "m", in: root.path + "/memos", disposal: .trash(trash), now: now)
      let rerun = try FolderTree(root)
      #expect(contents(rerun) == memoContents, "\(label): after a rerun")
      #expect(
        !rerun.entries.keys.contains { $0.hasPrefix("memos/m_") || $0.hasPrefix("memos/m.parts") },
        "\(label): \(rerun)")
      // Every file in the Trash has the info that restores it.
      for path in rerun.entries.keys
      where path.hasPrefix("Trash/files/") && path.split(separator: "/").count == 3 {
        let name = path.split(separator: "/")[2]
        #expect(rerun.entries["Trash/info/\(name).trashinfo"] != nil, "\(label): \(path) has no trashinfo")
      }
    }
  }

  @Test func audioRepairUnderEveryErrnoLeavesEachFileWholeOrUntouched() throws {
    let reference = try AudioRepairTests.tornFolder()
    defer { reference.remove() }
    let original = try FolderTree(reference)
    let counter = FaultyFileSystem()
    let repairs = AudioRepairTests()
    _ = try repairs.sweep(reference, fileSystem: counter)
    let expected = try FolderTree(reference)
    #expect(expected != original, "the repair must change the torn files")
    for step in 1...counter.steps {
      for (number, name) in Self.errors {
        let root = try AudioRepairTests.tornFolder()
        defer { root.remove() }
        _ = try? repairs.sweep(root, fileSystem: FaultyFileSystem(failAt: step, failure: number))
        for (path, bytes) in try FolderTree(root).entries where !path.hasPrefix(".") {
          #expect(
            bytes == original.entries[path] || bytes == expected.entries[path], "\(name) at \(step): \(path)")
        }
        _ = try repairs.sweep(root)
        #expect(try FolderTree(root) == expected, "\(name) at \(step)")
      }
    }
  }
}
