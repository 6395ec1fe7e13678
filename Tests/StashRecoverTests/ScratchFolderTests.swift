import Foundation
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The tests' scratch folder: new and empty each time, and removed with everything in it but
/// nothing a link in it points to.
@Suite struct ScratchFolderTests {
  @Test func eachIsNewEmptyAndOpenToReaders() throws {
    let first = try ScratchFolder("stash-scratch")
    defer { first.remove() }
    let second = try ScratchFolder("stash-scratch")
    defer { second.remove() }
    #expect(first.path != second.path)
    #expect(first.url.lastPathComponent.hasPrefix("stash-scratch-"))
    for folder in [first, second] {
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
      let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
      #expect(mode == 0o755)
    }
  }

  @Test func removeTakesWhatIsInsideAndNothingALinkPointsTo() throws {
    let outside = try ScratchFolder("stash-scratch-outside")
    defer { outside.remove() }
    try put("keep", "kept.txt", in: outside)
    try put("keep too", "folder/kept.txt", in: outside)

    let scratch = try ScratchFolder("stash-scratch")
    try put("x", "a/b/c.txt", in: scratch)
    try put("", "a/empty/.hidden", in: scratch)
    // Links to a folder and to a file outside, and a name that is not UTF-8.
    try FileManager.default.createSymbolicLink(
      atPath: scratch.path + "/a/to-folder", withDestinationPath: outside.path + "/folder")
    try FileManager.default.createSymbolicLink(
      atPath: scratch.path + "/to-file", withDestinationPath: outside.path + "/kept.txt")
    let raw = Array(scratch.path.utf8) + Array("/a/b/bad".utf8) + [0xFF, 0xFE, 0]
    let fd = raw.withUnsafeBufferPointer {
      open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o644)
    }
    #expect(fd >= 0)
    close(fd)
    #expect(mkfifo(scratch.path + "/a/fifo", 0o644) == 0)

    scratch.remove()
    #expect(!FileManager.default.fileExists(atPath: scratch.path), "the scratch folder is left")
    #expect(
      try FolderTree(outside).entries == [
        "kept.txt": "keep", "folder": "<dir>", "folder/kept.txt": "keep too",
      ])
    // Removing again, or a folder already gone, is harmless.
    scratch.remove()
  }
}
