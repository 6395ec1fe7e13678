import Foundation
import StashRecover
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct AtomicFileTests {
  @Test func createNewNeverReplacesAndLeavesNoTemporary() throws {
    let root = try ScratchFolder("atomic")
    defer { root.remove() }
    try AtomicFile.write(
      Array("one".utf8), named: "a", in: root.path, mode: .createNew, fileSystem: SystemFileSystem())
    #expect(try FolderTree(root).entries == ["a": "one"])
    #expect {
      try AtomicFile.write(
        Array("two".utf8), named: "a", in: root.path, mode: .createNew, fileSystem: SystemFileSystem())
    } throws: { ($0 as? RecoverError)?.code == .exists }
    #expect(try FolderTree(root).entries == ["a": "one"])
    try AtomicFile.write(
      Array("two".utf8), named: "a", in: root.path, mode: .replace, fileSystem: SystemFileSystem())
    #expect(try FolderTree(root).entries == ["a": "two"])
  }

  @Test func replacingALinkReplacesTheLinkNotItsTarget() throws {
    let root = try ScratchFolder("atomic")
    try put("target", "outside/t", in: root)
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("memos"), withIntermediateDirectories: true)
    defer { root.remove() }
    try FileManager.default.createSymbolicLink(
      atPath: root.path + "/memos/a", withDestinationPath: "../outside/t")
    try AtomicFile.write(
      Array("new".utf8), named: "a", in: root.path + "/memos", mode: .replace, fileSystem: SystemFileSystem())
    #expect(
      try FolderTree(root).entries == [
        "outside": "<dir>", "outside/t": "target", "memos": "<dir>", "memos/a": "new",
      ])
  }

  @Test func aFailureAtAnyStepLeavesTheOldFileAndNoTemporary() throws {
    for step in 1...6 {
      for failure in [ENOSPC, EIO, EACCES, EINTR] {
        let root = try ScratchFolder("atomic")
        try put("old", "a", in: root)
        defer { root.remove() }
        let fs = FaultyFileSystem(failAt: step, failure: failure)
        do {
          try AtomicFile.write(Array("new".utf8), named: "a", in: root.path, mode: .replace, fileSystem: fs)
          Issue.record("step \(step) of \(fs.steps) did not fail")
        } catch {
          let tree = try FolderTree(root).entries
          // Fails before the rename: old file, no temporary. At the folder fsync (step 6): new file.
          #expect(tree == ["a": step == 6 ? "new" : "old"], "step \(step): \(tree)")
        }
      }
    }
  }
}
