import Foundation
import StashRecover
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The order of the Trash's writes, as the specification asks: each `.trashinfo` is durable (its
/// bytes and its name in `info/`) before its file moves into `files/`, so a power cut can leave an
/// info file without its file, never a file that cannot be restored. Checked on the calls a
/// recording file system sees.
@Suite struct TrashDurabilityTests {
  @Test func eachTrashInfoIsDurableBeforeItsFileMoves() throws {
    let root = try MemoEditingTests.memo()
    defer { root.remove() }
    let folder = root.path + "/memos"
    let trash = root.path + "/Trash"
    let recorder = FaultyFileSystem()
    let outcome = try MemoDeletion.delete(
      base: "m", in: folder, disposal: .trash(Trash(directory: trash)), fileSystem: recorder)
    #expect(!outcome.removed.isEmpty)
    let calls = recorder.calls
    var moves = 0
    for (index, call) in calls.enumerated() where call.hasPrefix("renameNoReplace \(folder)/") {
      moves += 1
      let name = String(call.dropFirst("renameNoReplace \(folder)/".count).prefix { $0 != " " })
      let created = try #require(
        calls[..<index].lastIndex(of: "create \(trash)/info/\(name).trashinfo"), "\(name): \(calls)")
      let between = Array(calls[created..<index])
      let synced = try #require(between.firstIndex { $0.hasPrefix("sync ") }, "\(name): \(between)")
      let closed = try #require(between.firstIndex { $0.hasPrefix("close ") }, "\(name): \(between)")
      let infoSynced = try #require(
        between.firstIndex(of: "syncDirectory \(trash)/info"),
        "info/ never fsynced before \(name) moved: \(between)")
      #expect(synced < closed && closed < infoSynced)
      #expect(calls[index...].contains("syncDirectory \(trash)/files"), "\(name)")
    }
    #expect(moves == 5, "title, track, transcript, parts folder, audio: \(calls)")
  }

  /// A Trash made by this deletion: each new folder is fsynced into its parent before anything is
  /// moved into it, or a power cut could take `info/` or `files/` away with what they hold.
  @Test func newTrashFoldersAreDurableBeforeAnythingMoves() throws {
    let root = try MemoEditingTests.memo()
    defer { root.remove() }
    let trash = root.path + "/Trash"
    let recorder = FaultyFileSystem()
    _ = try MemoDeletion.delete(
      base: "m", in: root.path + "/memos", disposal: .trash(Trash(directory: trash)), fileSystem: recorder)
    let calls = recorder.calls
    let firstCreate = try #require(calls.firstIndex { $0.hasPrefix("create \(trash)/info/") })
    for (made, parent) in [(trash, root.path), (trash + "/files", trash), (trash + "/info", trash)] {
      let mkdir = try #require(calls.firstIndex(of: "mkdir \(made)"), "\(calls)")
      let synced = calls[mkdir..<firstCreate].contains("syncDirectory \(parent)")
      #expect(synced, "\(made) not fsynced into \(parent) before use: \(calls)")
    }
  }

  /// A Trash whose data folder does not exist yet (`XDG_DATA_HOME` named but never made, a new
  /// account's `~/.local/share`): the missing folders are made, private to the user, each fsynced
  /// into its parent, and the memo goes to the Trash. (Deleting once failed here with "cannot make
  /// the folder".)
  @Test func missingFoldersAboveTheTrashAreMade() throws {
    let root = try MemoEditingTests.memo()
    defer { root.remove() }
    let data = root.path + "/home/.local/share"
    let trash = data + "/Trash"
    let recorder = FaultyFileSystem()
    let outcome = try MemoDeletion.delete(
      base: "m", in: root.path + "/memos", disposal: .trash(Trash(directory: trash)), fileSystem: recorder)
    #expect(outcome.removed.count == 5)
    let moved = try FileManager.default.contentsOfDirectory(atPath: trash + "/files")
    #expect(moved.count == 5, "\(moved)")
    let calls = recorder.calls
    let firstCreate = try #require(calls.firstIndex { $0.hasPrefix("create \(trash)/info/") })
    for made in [root.path + "/home", root.path + "/home/.local", data, trash] {
      let mkdir = try #require(calls.firstIndex(of: "mkdir \(made)"), "\(calls)")
      let parent = (made as NSString).deletingLastPathComponent
      #expect(calls[mkdir..<firstCreate].contains("syncDirectory \(parent)"), "\(made): \(calls)")
      var status = stat()
      #expect(stat(made, &status) == 0 && status.st_mode & 0o777 == 0o700, "\(made)")
    }
  }

  /// A `.trashinfo` that cannot be written (a full disk) is named in the error, not by a descriptor,
  /// and nothing has moved.
  @Test func aTrashInfoThatCannotBeWrittenIsNamed() throws {
    let root = try MemoEditingTests.memo()
    defer { root.remove() }
    let folder = root.path + "/memos"
    let trash = root.path + "/Trash"
    let before = try FolderTree(URL(fileURLWithPath: folder))
    let fs = FaultyFileSystem()
    fs.failing = [("write", "", ENOSPC)]
    #expect {
      try MemoDeletion.delete(
        base: "m", in: folder, disposal: .trash(Trash(directory: trash)), fileSystem: fs)
    } throws: { error in
      let path = (error as? RecoverError)?.path ?? ""
      return path.hasPrefix(trash + "/info/") && path.hasSuffix(".trashinfo")
        && error.localizedDescription != ""
    }
    #expect(try FolderTree(URL(fileURLWithPath: folder)) == before)
  }
}
