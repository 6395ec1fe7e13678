import StashFormat
import Testing

/// The phone's timestamp bases in UTC (`…Z`, `…z`) held as integers by `PlainBase`, as the local
/// ones are: after the local form, dated as `RecordingDate` dates them, and a folder of both forms
/// grouped as `FolderGrouping` groups it. (Bytes and order kept: `MemoNamesTests`.)
@Suite struct PlainBaseZoneTests {
  /// The same instant with each zone and with none: three keys, in byte order.
  @Test func zonesSortAfterTheLocalForm() {
    let keys = ["2026-03-14T08-05-12", "2026-03-14T08-05-12Z", "2026-03-14T08-05-12z"].map {
      Array($0.utf8).withUnsafeBytes { PlainBase.key($0) }
    }
    #expect(keys.allSatisfy { $0 != nil } && keys[0]! < keys[1]! && keys[1]! < keys[2]!)
  }

  /// Dates, impossible ones among them, and a folder of both forms and their near misses against
  /// `FolderGrouping`, candidate by candidate (`MemoNamesTests.compare`).
  @Test func zonedBasesGroupAndDateAsTheFullReadingDoes() throws {
    let scratch = try MemoNamesTests.Scratch()
    var made = Set<String>()
    for base in MemoNamesTests.plainBases(600) {
      let text = String(decoding: base, as: UTF8.self)
      guard made.insert(text).inserted else { continue }
      scratch.file(text + "_audio.m4a")
      if made.count % 2 == 0 { scratch.file(text + "_transcription.vtt") }
      if made.count % 5 == 0 { scratch.folder(text + ".parts") }
    }
    for base in [
      "2026-03-29T02-30-00Z", "2026-03-29T02-30-00", "2024-02-29T23-59-60Z", "2023-02-29T12-00-00Z",
      "1969-12-31T23-59-59z", "2026-03-14T08-05-12+01", "2026-03-14T08-05-12Z walk",
    ] {
      guard made.insert(base).inserted else { continue }
      scratch.file(base + "_audio.m4a")
    }
    let names = try MemoNames(path: scratch.path)
    let count = try MemoNamesTests.compare(names, scratch.path)
    #expect(count == made.count)
    var zonedAndDated = 0
    for index in 0..<names.count {
      let base = names.base(index)
      if base.hasSuffix("Z") || base.hasSuffix("z"), names.date(index) != nil { zonedAndDated += 1 }
    }
    #expect(zonedAndDated >= 3, "some UTC bases are real dates")
  }
}
