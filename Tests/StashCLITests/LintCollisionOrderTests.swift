import Foundation
import StashTestSupport
import Testing

/// Lint puts a name collision on the file of the memo the listing puts first (issue #33: one
/// comparator): bases that are one spelling in NFC and NFD both point at the newer memo's audio,
/// and `stash ls` lists that memo first.
@Suite struct LintCollisionOrderTests {
  let stash = Fixtures.product("stash").path
  let audio = Fixtures.folder("demo").appendingPathComponent("2025-12-03T18-42-07_audio.m4a")
  /// `café` composed (NFC) and decomposed (NFD), as bytes: Swift's strings compare them equal.
  let composed = "caf" + String(decoding: [0xC3, 0xA9], as: UTF8.self)
  let decomposed = "cafe" + String(decoding: [0xCC, 0x81], as: UTF8.self)

  func run(_ arguments: [String]) throws -> ProcessResult {
    try runProcess(stash, arguments, environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"])
  }

  /// The files lint's collision findings are on, as bytes.
  func collisionFiles(_ folder: ScratchFolder) throws -> [[UInt8]] {
    let lint = try run(["lint", folder.path])
    #expect(lint.status == 1, "\(lint.standardError)")
    let marker = ": error[folder-name-collision]"
    return lint.standardOutput.split(separator: "\n").compactMap { line -> [UInt8]? in
      guard let end = line.range(of: marker) else { return nil }
      let path = line[..<end.lowerBound]
      return Array(path.utf8.split(separator: UInt8(ascii: "/")).last ?? [])
    }
  }

  /// The bases `stash ls --bases` lists, as bytes, in its order.
  func listedBases(_ folder: ScratchFolder) throws -> [[UInt8]] {
    let listed = try run(["ls", "--bases", folder.path])
    return listed.standardOutput.split(separator: "\n").dropLast().map { line in
      let bytes = Array(line.utf8)
      let open = bytes.lastIndex(of: UInt8(ascii: "["))!
      return Array(bytes[(open + 1)..<(bytes.count - 1)])
    }
  }

  @Test(arguments: [true, false]) func theCollisionIsOnTheMemoListedFirst(composedIsNewer: Bool) throws {
    let folder = try ScratchFolder("stash-lint-collision")
    defer { folder.remove() }
    let names = [composed, decomposed].map { folder.url.appendingPathComponent($0 + "_audio.m4a") }
    for name in names { try FileManager.default.copyItem(at: audio, to: name) }
    // Neither base names a date: each memo is dated by its audio's file, a day apart.
    let (newer, older) = composedIsNewer ? (names[0], names[1]) : (names[1], names[0])
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_738_490_400)], ofItemAtPath: newer.path)
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_738_404_000)], ofItemAtPath: older.path)

    let first = try listedBases(folder)
    let newerBase = Array((composedIsNewer ? composed : decomposed).utf8)
    #expect(first.count == 2 && first[0] == newerBase, "\(first)")
    let files = try collisionFiles(folder)
    #expect(files.count == 2, "\(files)")
    #expect(files.allSatisfy { $0 == newerBase + Array("_audio.m4a".utf8) }, "\(files) \(newerBase)")
  }
}
