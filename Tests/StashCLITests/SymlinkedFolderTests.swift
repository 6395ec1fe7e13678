import Foundation
import StashTestSupport
import Testing

/// A folder named through a symbolic link: each command that writes follows the link the person
/// typed, once, and works on the folder itself, as `stash ls` reads it (nothing inside the folder is
/// ever followed; the sweep's own tests cover that).
@Suite struct SymlinkedFolderTests {
  let stash = Fixtures.product("stash").path

  /// A symbolic link to `target`, beside it.
  static func link(to target: URL) throws -> URL {
    let link = target.deletingLastPathComponent().appendingPathComponent(target.lastPathComponent + "-link")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    return link
  }

  @Test func recoverSweepsALinkToAFolderLikeTheFolderItself() throws {
    let folder = try RecoverFolder()
    let link = try Self.link(to: folder.root)
    defer {
      folder.remove()
      try? FileManager.default.removeItem(at: link)
    }
    let result = try runProcess(stash, ["recover", link.path, "--json"])
    #expect(result.status == 1, "\(result.standardError)")
    for entry in folder.captures {
      let base = entry["base"] as! String
      #expect(try folder.files(of: base) == entry["after"] as! [String], "\(base)")
    }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == folder.root.path)
    // A trailing slash (which made the link work before) gives the same.
    let again = try runProcess(stash, ["recover", link.path + "/"])
    #expect(again.status == 1, "\(again.standardError)")
    #expect(!again.standardError.contains("not a folder"))
  }

  @Test func recoverStillRefusesALinkToAFile() throws {
    let scratch = try ScratchFolder("stash-recover-link")
    defer { scratch.remove() }
    let file = scratch.appendingPathComponent("file")
    try Data("x".utf8).write(to: file)
    let link = try Self.link(to: file)
    let result = try runProcess(stash, ["recover", link.path])
    #expect(result.status == 2)
    #expect(result.standardError.contains("\(link.path): not a folder"), "\(result.standardError)")
  }

  @Test func lintFixSweepsALinkToAFolder() throws {
    let folder = try RecoverFolder()
    let link = try Self.link(to: folder.root)
    defer {
      folder.remove()
      try? FileManager.default.removeItem(at: link)
    }
    let result = try runProcess(stash, ["lint", link.path, "--fix"])
    #expect(!result.standardError.contains("failed"), "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "fix: 2026-04-01T09-00-00: published 2026-04-01T09-00-00_transcription.vtt"),
      "\(result.standardError)")
    #expect(
      try folder.files(of: "2026-04-01T09-00-00")
        == [
          "2026-04-01T09-00-00_audio.m4a", "2026-04-01T09-00-00_track.gpx",
          "2026-04-01T09-00-00_transcription.vtt",
        ])
  }

  @Test func exportWritesIntoALinkToAFolder() throws {
    let scratch = try ScratchFolder("stash-export-link")
    let link = try Self.link(to: scratch.url)
    defer {
      scratch.remove()
      try? FileManager.default.removeItem(at: link)
    }
    let memo = Fixtures.folder("demo").path + "/2026-06-01T07-30-00Z"
    let result = try runProcess(stash, ["export", memo, "--to", "txt", "-o", link.path + "/out.txt"])
    #expect(result.status == 0, "\(result.standardError)")
    let written = try String(contentsOf: scratch.appendingPathComponent("out.txt"), encoding: .utf8)
    #expect(written == (try runProcess(stash, ["export", memo, "--to", "txt"]).standardOutput))
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["out.txt"])
  }
}
