import StashFormat
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The browser's names pass (`MemoNames`) against `FolderGrouping`, which `stash ls` and lint use:
/// the same candidates, in the same order, with the same names and kinds, on a folder of awkward
/// names; and its quick reading of the phone's timestamps against `RecordingDate.parse`.
@Suite struct MemoNamesTests {
  /// A scratch folder, removed (its names only, one level) when the test ends.
  final class Scratch {
    let path: String
    init() throws {
      var template = Array("/tmp/stash-memonames-XXXXXX".utf8CString)
      path = try #require(
        template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
    }
    /// Makes the file `name` (bytes, so a name need not be UTF-8).
    func file(_ name: [UInt8]) {
      let full = Array(path.utf8) + [UInt8(ascii: "/")] + name + [0]
      let fd = full.withUnsafeBufferPointer {
        open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
      }
      if fd >= 0 { close(fd) }
    }
    func file(_ name: String) { file(Array(name.utf8)) }
    func folder(_ name: String) { mkdir(path + "/" + name, 0o755) }
    func link(_ name: String, to target: String) { symlink(target, path + "/" + name) }
    deinit {
      guard let directory = opendir(path) else { return }
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
          String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
        }
        if name == "." || name == ".." { continue }
        let full = path + "/" + name
        if unlink(full) != 0 { rmdir(full) }
      }
      closedir(directory)
      rmdir(path)
    }
  }

  @Test func theCandidatesAreFolderGroupingsToTheByte() throws {
    let scratch = try Scratch()
    for base in [
      "2026-03-14T08-05-12", "2026-03-14T08-05-13", "Caf\u{E9}", "Cafe\u{301}", " padded", "tab\t",
      "2026-03-14_08-05-12 walk", "ünïcode base", "x",
    ] {
      scratch.file(base + "_audio.m4a")
      scratch.file(base + "_transcription.vtt")
    }
    scratch.file("2026-03-14T08-05-12_title.txt")
    scratch.file("2026-03-14T08-05-12_track.gpx")
    scratch.file(Array("bad\u{FF}".utf8.dropLast(2)) + [0xFF] + Array("_audio.m4a".utf8))
    scratch.file(".hidden_audio.m4a")
    scratch.file("orphan_transcription.vtt")
    scratch.file("nearmiss_Audio.m4a")
    scratch.file("x_audio.m4a ")
    scratch.folder("capture.parts")
    scratch.file("filed.parts")
    scratch.file("filed_transcription.vtt")
    scratch.folder("dir_audio.m4a")
    scratch.link("linked_audio.m4a", to: "2026-03-14T08-05-12_audio.m4a")
    scratch.link("broken_audio.m4a", to: "nowhere")
    scratch.link("linkedparts.parts", to: "capture.parts")
    mkfifo(scratch.path + "/pipe_audio.m4a", 0o644)

    let expected = FolderGrouping(try DirectoryReader.entries(of: scratch.path)).candidates
    let names = try MemoNames(path: scratch.path)
    #expect(names.count == expected.count)
    #expect(expected.count >= 12, "the folder has the candidates meant")
    for (index, want) in expected.enumerated() where index < names.count {
      let got = names.candidate(index)
      #expect(Array(got.base.utf8) == Array(want.base.utf8))
      for kind in MemoFileKind.allCases {
        #expect(
          got[kind].map { Array($0.name.utf8) } == want[kind].map { Array($0.name.utf8) },
          "\(want.base) \(kind)")
        #expect(got[kind]?.kind == want[kind]?.kind, "\(want.base) \(kind)")
        #expect(names.has(index, kind) == (want[kind] != nil))
      }
      #expect(names.index(of: want.base) == index)
      #expect(names.date(index) == RecordingDate.parse(base: want.base))
    }
    #expect(names.index(of: "orphan") == nil && names.index(of: "2026-03-14T08-05-1") == nil)
  }

  @Test func thePhonesTimestampsAreReadAsRecordingDateReadsThem() throws {
    let scratch = try Scratch()
    var bases: [String] = []
    for (year, month, day) in [
      (2026, 3, 29), (2026, 10, 25), (2024, 2, 29), (2023, 2, 29), (2026, 13, 1), (1969, 12, 31),
    ] {
      for (hour, minute, second) in [(0, 0, 0), (2, 30, 0), (23, 59, 60), (24, 0, 0), (12, 60, 0)] {
        for (t, s) in [("T", "-"), (" ", ":"), ("_", "."), ("t", "-"), ("T", ":")] {
          func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
          bases.append(
            "\(year)-\(two(month))-\(two(day))\(t)\(two(hour))\(s)\(two(minute))\(s)\(two(second))")
        }
      }
    }
    bases += [
      "2026-03-14T08-05-12Z", "2026-03-14T08-05-1x", "2026-03-14T08:05-12", "2026-03-14T08-05-12.5",
      "20260314T080512",
    ]
    for base in bases { scratch.file(base + "_audio.m4a") }
    let names = try MemoNames(path: scratch.path)
    #expect(names.count == bases.count)
    var dated = 0
    for index in 0..<names.count {
      let base = names.base(index)
      #expect(names.date(index) == RecordingDate.parse(base: base), "\(base)")
      if names.date(index) != nil { dated += 1 }
    }
    #expect(dated > 50 && dated < names.count, "some bases are dates and some are not")
  }
}
