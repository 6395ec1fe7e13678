import Foundation
import StashFormat
import Testing

@Suite struct TitleTests {
  func codes(_ title: Title) -> [FormatError.Code] { title.problems.map(\.code) }

  @Test func trimsToOneLineOfUTF8() {
    let title = Title.parse(Array("  Walk to the station \n".utf8))
    #expect(title.text == "Walk to the station")
    #expect(title.displayText == "Walk to the station")
    #expect(title.problems.isEmpty)
    #expect(Title.parse(Array("散歩 🚶\r\n".utf8)).text == "散歩 🚶")
    #expect(Title.parse(Array("שלום עולם".utf8)).text == "שלום עולם")
  }

  @Test func emptyOrBlankHasNoTextAndSaysSo() {
    for input in ["", "   ", "\n\n\t "] {
      let title = Title.parse(Array(input.utf8))
      #expect(title.text == nil)
      #expect(title.displayText == nil)
      #expect(codes(title) == [.titleEmpty])
    }
  }

  @Test func spanningLinesIsShownOnOneLine() {
    let title = Title.parse(Array("\n First line \r\n  second\tline\n".utf8))
    #expect(title.text == "First line \r\n  second\tline")
    #expect(title.displayText == "First line second line")
    #expect(codes(title) == [.titleSpansLines])
    #expect(codes(Title.parse(Array("a\u{2028}b".utf8))) == [.titleSpansLines])
    // Runs of blanks inside one line are made one space too, without a finding.
    let spaced = Title.parse(Array("a  b\tc".utf8))
    #expect(spaced.displayText == "a b c")
    #expect(spaced.problems.isEmpty)
  }

  @Test func invalidUTF8IsAnErrorWithTheOffset() {
    let title = Title.parse([0x41, 0x42, 0xFF, 0x43])
    #expect(codes(title) == [.titleNotUTF8])
    #expect(title.problems[0].location.offset == 2)
    #expect(title.text == "AB\u{FFFD}C")
    // An overlong encoding and a lone continuation byte are not UTF-8 either.
    #expect(codes(Title.parse([0xC0, 0xAF])) == [.titleNotUTF8])
    #expect(codes(Title.parse([0x61, 0x80])) == [.titleNotUTF8])
  }

  @Test func absurdlyLongIsCutAndReported() {
    let long = String(repeating: "ab", count: 300)
    let title = Title.parse(Array(long.utf8))
    #expect(codes(title) == [.titleTooLong])
    #expect(title.displayText?.count == Title.maximumCharacters)
    #expect(title.displayText?.hasSuffix("…") == true)
    #expect(title.text == long)
    let exact = String(repeating: "x", count: Title.maximumCharacters)
    #expect(Title.parse(Array(exact.utf8)).problems.isEmpty)
  }

  @Test func byteOrderMarkIsDroppedAsInfo() {
    let title = Title.parse([0xEF, 0xBB, 0xBF] + Array("Named".utf8))
    #expect(title.text == "Named")
    #expect(codes(title) == [.titleByteOrderMark])
    #expect(title.problems[0].severity == .info)
  }

  @Test func controlCharactersAreReported() {
    let title = Title.parse(Array("bell\u{07}here".utf8))
    #expect(codes(title) == [.titleControlCharacter])
  }

  @Test func aHugeFileIsReadOnlyInPartAndACutCharacterIsNotAnError() throws {
    let scratch = try FolderScratch("stash-title")
    defer { scratch.remove() }
    // 3-byte characters straddling the read limit: the cut must not look like bad UTF-8.
    let text = String(repeating: "語", count: Title.maximumBytes)
    let file = try scratch.write("big_title.txt", text)
    let title = Title.read(path: file.path)
    #expect(codes(title) == [.titleTooLong])
    #expect(title.byteCount == Title.maximumBytes * 3)
    #expect(title.displayText?.hasPrefix("語語語") == true)
    #expect(title.displayText?.count == Title.maximumCharacters)
  }

  @Test func unreadableFilesAreProblemsNotThrows() throws {
    let scratch = try FolderScratch("stash-title")
    defer { scratch.remove() }
    try scratch.folder("dir_title.txt")
    #expect(codes(Title.read(path: scratch.path + "/dir_title.txt")) == [.titleUnreadable])
    try FileManager.default.createSymbolicLink(
      atPath: scratch.path + "/loop_title.txt", withDestinationPath: "loop_title.txt")
    #expect(codes(Title.read(path: scratch.path + "/loop_title.txt")) == [.titleUnreadable])
    #expect(mkfifo(scratch.path + "/fifo_title.txt", 0o644) == 0)
    let fifo = Title.read(path: scratch.path + "/fifo_title.txt")
    #expect(codes(fifo) == [.titleUnreadable])
    #expect(fifo.problems[0].message.contains("FIFO"))
  }

  @Test func inspectionJSON() throws {
    let scratch = try FolderScratch("stash-title")
    defer { scratch.remove() }
    let file = try scratch.write("a_title.txt", "  Two\nlines \n")
    let json = try Inspection.json(forFileAt: file.path)
    #expect(json["kind"] == .string("title"))
    #expect(json["text"] == .string("Two\nlines"))
    #expect(json["displayText"] == .string("Two lines"))
    #expect(json["byteCount"] == .int(13))
    guard case .array(let diagnostics)? = json["diagnostics"] else {
      Issue.record("no diagnostics array")
      return
    }
    #expect(diagnostics.map { $0["code"] } == [.string("title-spans-lines")])
    // A FIFO is refused by the command (it is not a title file at all), never opened.
    #expect(mkfifo(scratch.path + "/p_title.txt", 0o644) == 0)
    #expect(throws: FormatError.self) { try Inspection.json(forFileAt: scratch.path + "/p_title.txt") }
  }
}
