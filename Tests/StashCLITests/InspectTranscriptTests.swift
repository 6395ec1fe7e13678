import Foundation
import StashTestSupport
import Testing

/// `stash inspect FILE.vtt --json`: the documented JSON, read back with Foundation's parser.
@Suite struct InspectTranscriptTests {
  private func inspect(_ text: [UInt8], name: String = "memo_transcription.vtt") throws -> (
    Int32, [String: Any]
  ) {
    let folder = try ScratchFolder("inspect-vtt")
    defer { folder.remove() }
    let file = folder.appendingPathComponent(name)
    try Data(text).write(to: file)
    let result = try runProcess(Fixtures.product("stash").path, ["inspect", file.path, "--json"])
    let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    return (result.status, json ?? [:])
  }

  @Test func cuesRegionsAndDiagnosticsByTheirIDLNames() throws {
    let text = """
      WEBVTT

      NOTE stash missing-speech 00:00:10.000 00:00:12.500

      REGION
      id:left width:40% lines:2 regionanchor:0%,100% viewportanchor:5%,95% scroll:up

      one
      00:00:01.000 --> 00:00:02.500 region:left align:start
      <v Ana>Hello &amp; welcome

      00:00:03.000 --> 00:00:02.000 line:10%,end position:20%,line-right size:50% vertical:rl bogus:1
      <b>unclosed

      """
    let (status, json) = try inspect(Array(text.utf8))
    #expect(status == 0)
    #expect(json["kind"] as? String == "webvtt")
    let cues = try #require(json["cues"] as? [[String: Any]])
    #expect(cues.count == 2)
    #expect(cues[0]["id"] as? String == "one")
    #expect(cues[0]["startTime"] as? Double == 1 && cues[0]["endTime"] as? Double == 2.5)
    #expect(cues[0]["text"] as? String == "<v Ana>Hello &amp; welcome")
    #expect(cues[0]["line"] as? String == "auto" && cues[0]["position"] as? String == "auto")
    #expect(cues[0]["snapToLines"] as? Bool == true && cues[0]["align"] as? String == "start")
    let region = try #require(cues[0]["region"] as? [String: Any])
    #expect(
      region["id"] as? String == "left" && region["width"] as? Double == 40 && region["lines"] as? Int == 2)
    #expect(region["viewportAnchorX"] as? Double == 5 && region["viewportAnchorY"] as? Double == 95)
    #expect(region["scroll"] as? String == "up")
    #expect(cues[1]["region"] is NSNull)
    #expect(cues[1]["line"] as? Double == 10 && cues[1]["snapToLines"] as? Bool == false)
    #expect(cues[1]["lineAlign"] as? String == "end" && cues[1]["position"] as? Double == 20)
    #expect(cues[1]["positionAlign"] as? String == "line-right" && cues[1]["size"] as? Double == 50)
    #expect(cues[1]["vertical"] as? String == "rl")
    let regions = try #require(json["regions"] as? [[String: Any]])
    #expect(regions.count == 1 && regions[0]["regionAnchorY"] as? Double == 100)
    let gaps = try #require(json["missingSpeech"] as? [[String: Any]])
    #expect(gaps.count == 1 && gaps[0]["start"] as? Double == 10 && gaps[0]["end"] as? Double == 12.5)
    let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
    #expect(
      diagnostics.map { $0["code"] as? String } == [
        "vtt-end-not-after-start", "vtt-bad-setting", "vtt-unclosed-tag",
      ])
    #expect(diagnostics[1]["line"] as? Int == 12 && diagnostics[1]["column"] as? Int == 89)
    #expect(diagnostics[1]["severity"] as? String == "warning")
    #expect((diagnostics[1]["message"] as? String)?.contains("bogus") == true)
  }

  @Test func aFileThatIsNotWebVTTSaysSoInItsDiagnostics() throws {
    let (status, json) = try inspect(Array("1\n00:00:01,000 --> 00:00:02,000\nSRT\n".utf8), name: "x.vtt")
    #expect(status == 0)
    #expect((json["cues"] as? [Any])?.isEmpty == true)
    let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.first?["code"] as? String == "vtt-no-signature")
    #expect(diagnostics.first?["severity"] as? String == "error")
  }

  @Test func aMissingFileIsAnError() throws {
    let result = try runProcess(Fixtures.product("stash").path, ["inspect", "/nonexistent/x.vtt", "--json"])
    #expect(result.status == 2)
    #expect(result.standardError.contains("/nonexistent/x.vtt"))
  }
}
