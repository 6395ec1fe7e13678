import Foundation
import StashFormat
import Testing

/// `FolderGrouping` takes plain ASCII memo names as they come and classifies the rest afterwards:
/// the candidates must still come in the order of their first names, and reading a folder must
/// group its names as its entries are grouped.
@Suite struct FolderGroupingTests {
  static func entries(_ names: [String], kind: DirectoryEntry.Kind = .file) -> [DirectoryEntry] {
    names.map { DirectoryEntry(bytes: Array($0.utf8), kind: kind) }
  }

  static func bases(_ grouping: FolderGrouping) -> [[UInt8]] {
    grouping.candidates.map { Array($0.base.utf8) }
  }

  /// A base that is not plain ASCII (NFC and NFD spellings) between plain ones keeps its place.
  @Test func candidatesComeInTheOrderOfTheirFirstNames() {
    let nfc = "Caf\u{E9}"
    let nfd = "Cafe\u{301}"
    let grouping = FolderGrouping(
      Self.entries([
        "b_audio.m4a", nfc + "_title.txt", "a_transcription.vtt", nfd + "_audio.m4a", "a_audio.m4a",
        nfc + "_audio.m4a", ".hidden", "orphan_transcription.vtt", "b_title.txt", "notes.txt",
      ]))
    #expect(Self.bases(grouping) == [Array("b".utf8), Array(nfc.utf8), Array("a".utf8), Array(nfd.utf8)])
    #expect(grouping.candidates.map { $0.title?.name } == ["b_title.txt", nfc + "_title.txt", nil, nil])
    #expect(grouping.candidates[2].transcript?.name == "a_transcription.vtt")
    #expect(grouping.others.map(\.name) == [".hidden", "notes.txt", "orphan_transcription.vtt"])
    #expect(grouping.others.map(\.role.key) == ["hidden", "unrecognised", "orphan"])
    // In byte order: the NFD spelling (`e` then U+0301) first.
    #expect(
      grouping.collisions.map { $0.bases.map { Array($0.utf8) } } == [[Array(nfd.utf8), Array(nfc.utf8)]])
  }

  /// Bases of ASCII alone collide by their bytes once lowercased; others do not.
  @Test func asciiBasesCollideWhenLowercased() {
    let grouping = FolderGrouping(
      Self.entries(["Memo_audio.m4a", "x_audio.m4a", "memo_audio.m4a", "MEMO_audio.m4a", "X-1_audio.m4a"]))
    #expect(grouping.collisions.map(\.bases) == [["MEMO", "Memo", "memo"]])
    #expect(grouping.candidates.count == 5)
  }

  /// The folder read name by name gives what its entries give, near misses and strangers too.
  @Test func readingAFolderGroupsAsItsEntriesDo() throws {
    let folder = try FolderScratch("stash-grouping")
    for index in 0..<300 {
      try folder.write(String(format: "2026-03-%02dT08-05-%02d_audio.m4a", index % 28 + 1, index % 60), "x")
    }
    for name in [
      "Caf\u{E9}_audio.m4a", "Cafe\u{301}_title.txt", " blank_audio.m4a", "blank_audio.m4a", "memo_audio.m4a",
      "Memo_title.txt", "lone_transcription.vtt", "x_audio.M4A", ".DS_Store", "notes.txt",
    ] {
      try folder.write(name, "x")
    }
    try folder.write("file.parts", "not a folder")
    try folder.write("file_audio.m4a", "x")
    try folder.folder("2026-03-01T08-05-00.parts")
    folder.write(rawName: Array("bad\u{FF}".utf8.dropLast()) + [0xFF] + Array("_audio.m4a".utf8), [1])
    let read = try FolderGrouping(path: folder.path)
    let listed = FolderGrouping(try DirectoryReader.entries(of: folder.path))
    #expect(Self.bases(read) == Self.bases(listed))
    #expect(read.candidates.count >= 290)
    for (got, want) in zip(read.candidates, listed.candidates) {
      for kind in MemoFileKind.allCases {
        #expect(got[kind]?.name == want[kind]?.name && got[kind]?.kind == want[kind]?.kind, "\(want.base)")
      }
    }
    #expect(read.others == listed.others)
    #expect(read.others.contains { $0.role.key == "nearMiss" })
    #expect(read.collisions.map(\.bases) == listed.collisions.map(\.bases))
    #expect(!read.collisions.isEmpty)
  }
}
