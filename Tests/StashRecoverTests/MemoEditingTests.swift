import Foundation
import StashRecover
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Titles, deletion and the Trash.
@Suite struct MemoEditingTests {
  static func memo() throws -> ScratchFolder {
    let root = try ScratchFolder("stash-memo")
    try put("audio", "memos/m_audio.m4a", in: root)
    try put("WEBVTT\n", "memos/m_transcription.vtt", in: root)
    try put("<gpx/>", "memos/m_track.gpx", in: root)
    try put("Walk", "memos/m_title.txt", in: root)
    try put("part", "memos/m.parts/transcription.0003.vtt", in: root)
    try put("", "memos/m.parts/track.withdrawn", in: root)
    try put("other", "memos/other_audio.m4a", in: root)
    return root
  }

  @Test func titleIsWrittenReplacedAndRemoved() throws {
    let root = try Self.memo()
    defer { root.remove() }
    let folder = root.path + "/memos"
    try MemoTitle.set("  Morning\nwalk\u{1b}  ", base: "m", in: folder)
    #expect(try FolderTree(root).entries["memos/m_title.txt"] == "Morning walk")
    try MemoTitle.set("", base: "m", in: folder)
    #expect(try FolderTree(root).entries["memos/m_title.txt"] == nil)
    try MemoTitle.set(" \n ", base: "m", in: folder)  // clearing twice is fine
    try MemoTitle.set("New", base: "other", in: folder)
    #expect(try FolderTree(root).entries["memos/other_title.txt"] == "New")
    // A memo whose audio is gone (since it was listed) gets no title: it would belong to no memo.
    #expect(throws: RecoverError.self) { try MemoTitle.set("Ghost", base: "n", in: folder) }
    #expect(try FolderTree(root).entries["memos/n_title.txt"] == nil)
    #expect(throws: RecoverError.self) { try MemoTitle.set("x", base: "../escape", in: folder) }
  }

  @Test func aTitleThatIsALinkIsReplacedNotWrittenThrough() throws {
    let root = try Self.memo()
    defer { root.remove() }
    try put("keep me", "outside.txt", in: root)
    try FileManager.default.removeItem(atPath: root.path + "/memos/m_title.txt")
    try FileManager.default.createSymbolicLink(
      atPath: root.path + "/memos/m_title.txt", withDestinationPath: "../outside.txt")
    try MemoTitle.set("Mine", base: "m", in: root.path + "/memos")
    let tree = try FolderTree(root).entries
    #expect(tree["outside.txt"] == "keep me")
    #expect(tree["memos/m_title.txt"] == "Mine")
  }

  @Test func permanentDeletionTakesEveryFileAndTheEmptiedPartsFolder() throws {
    let root = try Self.memo()
    defer { root.remove() }
    let outcome = try MemoDeletion.delete(base: "m", in: root.path + "/memos", disposal: .permanent)
    #expect(try FolderTree(root).entries == ["memos": "<dir>", "memos/other_audio.m4a": "other"])
    #expect(outcome.removed.last == "m_audio.m4a", "audio goes last")
    #expect(throws: RecoverError.self) {
      try MemoDeletion.delete(base: "m", in: root.path + "/memos", disposal: .permanent)
    }
  }

  /// A memo file's name on a folder (what it holds is no file of the format): nothing is deleted,
  /// to the Trash or for good, and the folder is named. (To the Trash it once went whole, its
  /// contents unnamed.)
  @Test func aFolderWithAMemoFilesNameStopsTheDeletion() throws {
    let root = try Self.memo()
    defer { root.remove() }
    let folder = root.path + "/memos"
    try FileManager.default.removeItem(atPath: folder + "/m_audio.m4a")
    try put("mine", "memos/m_audio.m4a/notes.txt", in: root)
    let before = try FolderTree(root)
    for disposal in [MemoDeletion.Disposal.permanent, .trash(Trash(directory: root.path + "/Trash"))] {
      #expect {
        try MemoDeletion.delete(base: "m", in: folder, disposal: disposal)
      } throws: { error in
        (error as? RecoverError)?.code == .notAFile && (error as? RecoverError)?.files == ["m_audio.m4a"]
      }
      #expect(try FolderTree(root) == before)
    }
  }

  @Test func aStrangersFileInThePartsFolderStopsTheDeletionAndIsNamed() throws {
    let root = try Self.memo()
    defer { root.remove() }
    try put("mine", "memos/m.parts/notes.txt", in: root)
    let before = try FolderTree(root)
    #expect {
      try MemoDeletion.delete(base: "m", in: root.path + "/memos", disposal: .permanent)
    } throws: { error in
      let error = error as? RecoverError
      return error?.code == .strangers && error?.files == ["m.parts/notes.txt"]
        && error?.message.contains("nothing was deleted") == true
    }
    #expect(try FolderTree(root) == before)
    try FileManager.default.removeItem(atPath: root.path + "/memos/m.parts/notes.txt")
    _ = try MemoDeletion.delete(base: "m", in: root.path + "/memos", disposal: .permanent)
    #expect(try FolderTree(root).entries == ["memos": "<dir>", "memos/other_audio.m4a": "other"])
  }

  @Test func aLinkedMemoFileIsRemovedAsALinkAndItsTargetKept() throws {
    let root = try Self.memo()
    defer { root.remove() }
    try put("precious", "elsewhere.m4a", in: root)
    try FileManager.default.removeItem(atPath: root.path + "/memos/m_audio.m4a")
    try FileManager.default.createSymbolicLink(
      atPath: root.path + "/memos/m_audio.m4a", withDestinationPath: "../elsewhere.m4a")
    _ = try MemoDeletion.delete(base: "m", in: root.path + "/memos", disposal: .permanent)
    #expect(
      try FolderTree(root).entries == [
        "memos": "<dir>", "memos/other_audio.m4a": "other", "elsewhere.m4a": "precious",
      ])
  }

  @Test func trashKeepsEveryFileRestorableWithItsTrashInfo() throws {
    let root = try Self.memo()
    defer { root.remove() }
    try put("an older memo", "Trash/files/m_title.txt", in: root)
    try put("[Trash Info]\n", "Trash/info/m_title.txt.trashinfo", in: root)
    try FileManager.default.moveItem(atPath: root.path + "/memos", toPath: root.path + "/my memos")
    let folder = root.path + "/my memos"
    let trash = Trash(directory: root.path + "/Trash")
    let now = 1_772_355_600.0
    _ = try MemoDeletion.delete(base: "m", in: folder, disposal: .trash(trash), now: now)
    let tree = try FolderTree(root).entries
    #expect(tree["my memos/m_audio.m4a"] == nil && tree["my memos/m.parts"] == nil)
    #expect(tree["Trash/files/m_audio.m4a"] == "audio")
    #expect(tree["Trash/files/m_title.txt"] == "an older memo")
    #expect(tree["Trash/files/m_title.txt.2"] == "Walk", "a taken name gets the next free one")
    #expect(tree["Trash/files/m.parts/transcription.0003.vtt"] == "part")
    let info = tree["Trash/info/m_audio.m4a.trashinfo"] ?? ""
    let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
    #expect(
      info.hasPrefix(
        "[Trash Info]\nPath=" + real.replacingOccurrences(of: " ", with: "%20") + "/m_audio.m4a\n"))
    #expect(info.contains("\nDeletionDate=2026-03-01T"), "\(info)")
    #expect(tree["Trash/info/m_title.txt.2.trashinfo"]?.contains("/m_title.txt\n") == true)
    #expect(Trash.percentEncoded("/a b/ü%") == "/a%20b/%C3%BC%25")
  }

  /// Reports the Trash on another device, as a memo folder on a USB stick would see it.
  final class OtherDeviceTrash: FileSystem {
    let base = SystemFileSystem()
    let trash: String
    init(trash: String) { self.trash = trash }
    func status(_ path: String) throws(RecoverError) -> FileStatus? {
      guard var status = try base.status(path) else { return nil }
      if path.hasPrefix(trash) { status.device &+= 1 }
      return status
    }
    func list(_ d: String) throws(RecoverError) -> [String] { try base.list(d) }
    func read(_ p: String, limit: Int) throws(RecoverError) -> [UInt8] { try base.read(p, limit: limit) }
    func createExclusive(_ p: String) throws(RecoverError) -> Int32 { try base.createExclusive(p) }
    func write(_ d: Int32, _ b: [UInt8]) throws(RecoverError) { try base.write(d, b) }
    func sync(_ d: Int32) throws(RecoverError) { try base.sync(d) }
    func close(_ d: Int32) throws(RecoverError) { try base.close(d) }
    func renameNoReplace(_ s: String, _ d: String) throws(RecoverError) { try base.renameNoReplace(s, d) }
    func rename(_ s: String, _ d: String) throws(RecoverError) { try base.rename(s, d) }
    func unlink(_ p: String) throws(RecoverError) { try base.unlink(p) }
    func removeDirectory(_ p: String) throws(RecoverError) { try base.removeDirectory(p) }
    func makeDirectory(_ p: String) throws(RecoverError) { try base.makeDirectory(p) }
    func syncDirectory(_ p: String) throws(RecoverError) { try base.syncDirectory(p) }
    func openDirectory(_ p: String) throws(RecoverError) -> Int32 { try base.openDirectory(p) }
    func lock(_ d: Int32, wait: Bool) throws(RecoverError) -> Bool { try base.lock(d, wait: wait) }
  }

  @Test func aTrashOnAnotherFileSystemIsRefusedBeforeAnythingMoves() throws {
    let root = try Self.memo()
    defer { root.remove() }
    let before = try FolderTree(root.appendingPathComponent("memos"))
    let trash = Trash(directory: root.path + "/Trash")
    #expect {
      try MemoDeletion.delete(
        base: "m", in: root.path + "/memos", disposal: .trash(trash),
        fileSystem: OtherDeviceTrash(trash: trash.directory))
    } throws: { ($0 as? RecoverError)?.code == .trashUnavailable }
    #expect(try FolderTree(root.appendingPathComponent("memos")) == before)
  }

  @Test func trashLocationFollowsXDG() {
    #expect(Trash.home(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"])?.directory == "/d/Trash")
    #expect(Trash.home(environment: ["HOME": "/h"])?.directory == "/h/.local/share/Trash")
    #expect(
      Trash.home(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"])?.directory
        == "/h/.local/share/Trash")
    #expect(Trash.home(environment: [:]) == nil)
  }

  @Test func deletionUnderFaultsLosesOnlyWhatItWasAskedToAndCanBeRepeated() throws {
    let counter = FaultyFileSystem()
    let reference = try Self.memo()
    defer { reference.remove() }
    _ = try MemoDeletion.delete(
      base: "m", in: reference.path + "/memos", disposal: .permanent, fileSystem: counter)
    for step in 1...counter.steps {
      let root = try Self.memo()
      defer { root.remove() }
      _ = try? MemoDeletion.delete(
        base: "m", in: root.path + "/memos", disposal: .permanent, fileSystem: FaultyFileSystem(stopAt: step))
      #expect(try FolderTree(root).entries["memos/other_audio.m4a"] == "other")
      do {
        _ = try MemoDeletion.delete(base: "m", in: root.path + "/memos", disposal: .permanent)
      } catch let error as RecoverError where error.code == .notFound {
        // Killed at the folder fsync or the unlock, the last two steps: everything was already gone.
        #expect(step >= counter.steps - 1)
      }
      #expect(
        try FolderTree(root).entries == ["memos": "<dir>", "memos/other_audio.m4a": "other"], "step \(step)")
    }
  }
}
