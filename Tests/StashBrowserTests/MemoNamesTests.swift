import StashFormat
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The browser's names pass (`MemoNames`) against `FolderGrouping`, which `stash ls` and lint use:
/// the same candidates, with the same names and kinds, on a folder of awkward names and on a large
/// one; its quick reading of the phone's timestamps against `RecordingDate.parse`; the integer
/// form of the phone's bases (`PlainBase`) and its sort.
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

    let names = try MemoNames(path: scratch.path)
    let expected = try MemoNamesTests.compare(names, scratch.path)
    #expect(expected >= 12, "the folder has the candidates meant")
    #expect(names.index(of: "orphan") == nil && names.index(of: "2026-03-14T08-05-1") == nil)
    #expect(names.index(of: "2026-03-14T08-05-14") == nil, "a plain base not in the folder")
  }

  /// The browser's collisions are `FolderGrouping`'s (which `stash ls` and lint report): plain
  /// bases with `t` for `T` and `z` for `Z`, other bases by case and by canonical equivalence, and
  /// none in a folder of the phone's own names. (A base with no memo, an orphan's, is not among
  /// the names the browser keeps: a memo colliding only with one is not marked there.)
  @Test func theCollisionsAreFolderGroupings() throws {
    let colliding = try Scratch()
    for base in [
      "2026-03-14T08-05-12", "2026-03-14t08-05-12", "2026-03-14T08-05-13Z", "2026-03-14t08-05-13z",
      "2026-03-14T08-05-13", "2026-03-14T08-05-14z", "2026-03-14T08-05-14Z", "2026-03-14 08-05-15",
      "2026-03-14_08-05-15", "Walk", "walk", "Caf\u{E9}", "Cafe\u{301}", "alone", "2026-03-14t08-05-16",
    ] {
      colliding.file(base + "_audio.m4a")
    }
    let grouping = try MemoNames(path: colliding.path).collidingGrouping()
    let expected = try FolderGrouping(path: colliding.path).collisions
    #expect(expected.count == 5, "\(expected)")
    #expect(grouping.collisions == expected)
    #expect(grouping.candidates.count == 10)
    #expect(Set(grouping.candidates.map(\.base)) == Set(expected.flatMap(\.bases)))

    // A memo's base against an orphan's (a transcript or a title with no audio), both ways round,
    // plain and not; two orphans colliding with each other; an orphan alone.
    let orphans = try Scratch()
    for name in [
      "2026-03-14T08-05-20_audio.m4a", "2026-03-14t08-05-20_transcription.vtt",
      "2026-03-14t08-05-21_audio.m4a", "2026-03-14T08-05-21_title.txt", "Note_audio.m4a", "note_title.txt",
      "2026-03-14T08-05-22_title.txt", "2026-03-14t08-05-22_transcription.vtt",
      "2026-03-14t08-05-23_title.txt",
    ] {
      orphans.file(name)
    }
    let withOrphans = try MemoNames(path: orphans.path).collidingGrouping()
    let lintSees = try FolderGrouping(path: orphans.path).collisions
    #expect(lintSees.count == 4, "\(lintSees)")
    #expect(withOrphans.collisions == lintSees)
    // Only the memos are candidates: the three whose base collides with an orphan's.
    #expect(
      Set(withOrphans.candidates.map(\.base)) == ["2026-03-14T08-05-20", "2026-03-14t08-05-21", "Note"])

    let plain = try Scratch()
    for second in 10..<60 { plain.file("2026-03-14T08-05-\(second)_audio.m4a") }
    plain.file("2026-03-14T08-06-00z_audio.m4a")
    let none = try MemoNames(path: plain.path).collidingGrouping()
    #expect(none.collisions.isEmpty && none.candidates.isEmpty)
    #expect(try FolderGrouping(path: plain.path).collisions.isEmpty)
  }

  /// Checks `names` against `FolderGrouping` over the folder at `path`: the same candidates with
  /// the same names and kinds, in MemoNames' order (the plain bases in byte order, then the
  /// others in the folder's order), each found by its base, each dated as `RecordingDate` dates
  /// it. Returns how many candidates there are.
  static func compare(_ names: MemoNames, _ path: String) throws -> Int {
    let grouped = FolderGrouping(try DirectoryReader.entries(of: path)).candidates
    func isPlain(_ base: String) -> Bool {
      var text = base
      return text.withUTF8 { PlainBase.key(UnsafeRawBufferPointer($0)) != nil }
    }
    let expected =
      grouped.filter { isPlain($0.base) }.sorted { $0.base.utf8.lexicographicallyPrecedes($1.base.utf8) }
      + grouped.filter { !isPlain($0.base) }
    #expect(names.count == expected.count)
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
      if index > 0 {
        #expect(
          names.basePrecedes(index - 1, index)
            == Array(expected[index - 1].base.utf8).lexicographicallyPrecedes(Array(want.base.utf8)))
        #expect(!names.basePrecedes(index, index))
      }
    }
    return expected.count
  }

  /// Many memos, as a phone's folder holds them (most bases plain, each with some of its files),
  /// with bases of other forms, orphans and parts folders among them: the grouping of the sorted
  /// plain names and of the hashed others against `FolderGrouping`, name by name.
  @Test func aLargeFolderGroupsAsFolderGroupingDoes() throws {
    let scratch = try Scratch()
    var random = SystemRandomNumberGenerator()
    var made = Set<String>()
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    while made.count < 3_000 {
      let day = ["T", " ", "_", "t"].randomElement(using: &random)!
      let time = ["-", ":", "."].randomElement(using: &random)!
      var base =
        "\(Int.random(in: 1999...2027, using: &random))-\(two(Int.random(in: 0...13, using: &random)))-"
        + "\(two(Int.random(in: 1...31, using: &random)))\(day)\(two(Int.random(in: 0...24, using: &random)))"
        + "\(time)\(two(Int.random(in: 0...59, using: &random)))\(time)\(two(Int.random(in: 0...60, using: &random)))"
      // One in ten with more: a zone (still a plain base) or another form (the hash table's).
      if Int.random(in: 0..<10, using: &random) == 0 {
        base += ["Z", " walk", "é"].randomElement(using: &random)!
      }
      guard made.insert(base).inserted else { continue }
      let shape = Int.random(in: 0..<20, using: &random)
      if shape == 0 {
        scratch.folder(base + ".parts")
      } else if shape == 1 {
        scratch.file(base + ".parts")
      } else if shape != 2 {
        scratch.file(base + "_audio.m4a")
      }
      for kind in [MemoFileKind.transcript, .route, .title] where Bool.random(using: &random) {
        scratch.file(base + kind.suffix)
      }
    }
    let names = try MemoNames(path: scratch.path)
    #expect(try MemoNamesTests.compare(names, scratch.path) > 2_500)
  }

  /// The folder read ahead on a thread of its own gives the names `forEachName` gives, in the
  /// same order, with the same kinds, across many of its buffers (names of every length, so a
  /// name lands on each side of a buffer's end).
  @Test func readingAheadGivesTheNamesInOrder() throws {
    let scratch = try Scratch()
    let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789._-".utf8)
    var random = SystemRandomNumberGenerator()
    var made = Set<[UInt8]>()
    while made.count < 6_000 {
      let length = made.count % 255 + 1
      let name = (0..<length).map { _ in letters.randomElement(using: &random)! }
      guard !name.allSatisfy({ $0 == 0x2E }), made.insert(name).inserted else { continue }
      if made.count % 500 == 0 {
        mkdir(scratch.path + "/" + String(decoding: name, as: UTF8.self), 0o755)
      } else {
        scratch.file(name)
      }
    }
    func read(_ ahead: Bool) throws -> [([UInt8], Int32)] {
      var names: [([UInt8], Int32)] = []
      let body = { (name: UnsafeRawBufferPointer, type: Int32) in names.append((Array(name), type)) }
      if ahead {
        try DirectoryReader.forEachNameReadingAhead(of: scratch.path, body)
      } else {
        try DirectoryReader.forEachName(of: scratch.path, body)
      }
      return names
    }
    let (serial, ahead) = (try read(false), try read(true))
    #expect(serial.count == made.count)
    #expect(serial.map(\.0) == ahead.map(\.0))
    #expect(serial.map(\.1) == ahead.map(\.1))
    #expect(serial.reduce(0) { $0 + $1.0.count + 3 } > 4 * 128 << 10, "more names than the buffers hold")
    #expect(throws: FormatError.self) {
      try DirectoryReader.forEachNameReadingAhead(of: scratch.path + "/none") { _, _ in }
    }
    // The entries a memo folder is grouped from (`FolderGrouping(path:)` reads ahead) are the same.
    let entries = try DirectoryReader.entries(of: scratch.path)
    #expect(entries.count == made.count)
    #expect(try DirectoryReader.entries(of: scratch.path, readingAhead: true) == entries)
    #expect(entries.filter { $0.kind == .folder }.count == made.count / 500)
  }

  /// A plain base's key sorts as its bytes do and gives its bytes back; a near miss has none.
  /// Random bases of the phone's form, every separator they may have, a third each with no zone,
  /// `Z` and `z` (UTC); any digits, so most are impossible dates.
  static func plainBases(_ count: Int) -> [[UInt8]] {
    var random = SystemRandomNumberGenerator()
    let digits = Array("0123456789".utf8)
    return (0..<count).map { n in
      var base = Array("0000-00-00T00-00-00".utf8)
      for at in [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18] {
        base[at] = digits.randomElement(using: &random)!
      }
      base[10] = Array(" T_t".utf8).randomElement(using: &random)!
      base[13] = Array("-.:".utf8).randomElement(using: &random)!
      base[16] = base[13]
      if n % 3 == 1 { base.append(UInt8(ascii: "Z")) }
      if n % 3 == 2 { base.append(UInt8(ascii: "z")) }
      return base
    }
  }

  @Test func plainKeysKeepTheBytesAndTheirOrder() {
    var random = SystemRandomNumberGenerator()
    let bases = Self.plainBases(2_000)
    let keys = bases.map { base in base.withUnsafeBytes { PlainBase.key($0) } }
    #expect(keys.allSatisfy { $0 != nil && $0! < 1 << UInt64(PlainBase.bits) })
    for (base, key) in zip(bases, keys) {
      guard let key else { continue }
      #expect(PlainBase.withBytes(key) { Array($0) } == base, "\(String(decoding: base, as: UTF8.self))")
    }
    for _ in 0..<4_000 {
      let (i, j) = (
        Int.random(in: 0..<bases.count, using: &random), Int.random(in: 0..<bases.count, using: &random)
      )
      guard let a = keys[i], let b = keys[j] else { continue }
      #expect((a < b) == bases[i].lexicographicallyPrecedes(bases[j]))
      #expect((a == b) == (bases[i] == bases[j]))
    }
    for near in [
      "2026-03-14T08-05.12", "2026-03-14T08-05-1x", "2026-03-14x08-05-12", "2026/03-14T08-05-12",
      "2026-03-14T08-05-123", "2026-03-14T08-05-1", "2026-03-14T08_05_12", "２026-03-14T08-05-12",
      "2026-03-14T08-05-12+", "2026-03-14T08-05-12ZZ", "2026-03-14T08-05-12 ", "2026-03-14T08-05Z",
    ] {
      #expect(Array(near.utf8).withUnsafeBytes { PlainBase.key($0) } == nil, "\(near)")
    }
  }

  /// The radix sort orders by the bits asked for, carrying each value's companion, on values spread over every pass's digits and
  /// on values that share most of them (the passes it skips).
  @Test func theRadixSortSortsByTheBitsAbove() {
    var random = SystemRandomNumberGenerator()
    for spread in [UInt64.max >> 6, 0xFFFF_FFFF, 0x3F_FFFF] {
      var values = (0..<10_000).map { _ in UInt64.random(in: 0...spread, using: &random) | 1 << 57 }
      let expected = values.map { $0 >> 7 }.sorted()
      // Each value's own number travels with it.
      func carried(_ value: UInt64) -> Double { Double(value & 0xFFFF_FFFF) + Double(value >> 40) / 7 }
      var numbers = values.map(carried)
      PlainBase.sort(&values, carrying: &numbers, bitsFrom: 7, count: PlainBase.bits)
      #expect(values.map { $0 >> 7 } == expected)
      #expect(numbers == values.map(carried))
    }
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
