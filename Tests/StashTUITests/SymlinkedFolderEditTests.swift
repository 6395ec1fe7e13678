import Foundation
import StashTestSupport
import Testing

/// The browser started on a symbolic link to a memo folder writes into the folder itself (the
/// writers follow no link, so the browser hands them the folder the link names).
@Suite struct SymlinkedFolderEditTests {
  @Test func aTitleIsSetThroughALinkToTheFolder() throws {
    let folder = try TUIHarness.memoFolder()
    let link = folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + "-link")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)
    defer {
      try? FileManager.default.removeItem(at: link)
      try? FileManager.default.removeItem(at: folder)
    }
    let screen = try TUIHarness.render(link, keys: "<down><down>rWalk by the river<enter>")
    let titleFile = folder.appendingPathComponent("2026-03-14T09-30-00Z_title.txt")
    #expect(
      (try? String(contentsOf: titleFile, encoding: .utf8)) == "Walk by the river", "\(screen)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == folder.path)
  }
}
