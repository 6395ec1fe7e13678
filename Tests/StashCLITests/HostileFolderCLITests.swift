import Foundation
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The built `stash` pointed at hostile folders: names that would break a line or drive the
/// terminal, files it may not read, and inputs built to exhaust memory or time.
@Suite struct HostileFolderCLITests {
  let stash = Fixtures.product("stash").path

  /// Two seconds of tone, AAC in fragmented MP4, made by ffmpeg once per run.
  static let audio: Data = {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stash-hostile-tone-\(getpid()).m4a")
    let made = try? runProcess(
      "ffmpeg",
      [
        "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=2", "-ac",
        "1",
        "-ar", "48000", "-c:a", "aac", "-b:a", "32k", "-movflags",
        "+frag_keyframe+empty_moov+default_base_moof",
        out.path,
      ])
    precondition(made?.status == 0, "ffmpeg failed: \(made?.standardError ?? "")")
    let data = try! Data(contentsOf: out)
    try? FileManager.default.removeItem(at: out)
    return data
  }()

  /// Creates `name`, given as raw bytes, in `folder` with `contents`.
  static func write(rawName: [UInt8], in folder: URL, _ contents: Data) {
    let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + rawName + [0]
    let fd = path.withUnsafeBufferPointer {
      open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o644)
    }
    precondition(fd >= 0, "cannot create a file with a raw name")
    _ = contents.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    close(fd)
  }

  /// Runs `stash` under GNU time; returns the result and the peak resident memory in MB.
  func measured(_ arguments: [String], asUser: Bool = false) throws -> (ProcessResult, Double) {
    let scratch = try ScratchFolder("stash-rss")
    defer { scratch.remove() }
    let report = scratch.appendingPathComponent("rss")
    let prefix = asUser ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
    // `timeout` turns a hang into a failure with status 124 rather than a stuck test run.
    let result = try runProcess(
      "/usr/bin/time", ["-f", "%M", "-o", report.path, "timeout", "120"] + prefix + [stash] + arguments)
    let kilobytes =
      Double(
        (try? String(contentsOf: report, encoding: .utf8))?.split(separator: "\n").last.map(String.init) ?? ""
      ) ?? -1
    return (result, kilobytes / 1024)
  }

  static func controlCharacters(in text: String) -> [Unicode.Scalar] {
    text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
  }

  @Test func hostileNamesAreEscapedInTextAndValidInJSONAndSARIF() throws {
    let folder = try ScratchFolder("stash-hostile-cli")
    defer { folder.remove() }
    let long = String(repeating: "n", count: 245)
    let names: [[UInt8]] = [
      Array("new\nline_audio.m4a".utf8),
      Array("esc\u{1B}]0;pwned\u{7}bell\r!_audio.m4a".utf8),
      Array("tab\there\u{85}c1_audio.m4a".utf8),
      [0x62, 0x61, 0x64, 0xFF, 0xC0, 0xAF] + Array("_audio.m4a".utf8),
      Array((long + "_audio.m4a").utf8),
      Array("new\nline_title.txt".utf8),
      [0x62, 0x61, 0x64, 0xFF, 0xC0, 0xAF] + Array("_transcript.vtt".utf8),
    ]
    for name in names {
      Self.write(
        rawName: name, in: folder.url,
        name.starts(with: Array("new\nline_title".utf8)) ? Data("A\u{1B}[2J title\n".utf8) : Self.audio)
    }
    let listed = try runProcess(stash, ["ls", folder.path])
    #expect(listed.status == 0, "\(listed.standardError)")
    // Four memos, one summary line: no name broke a line or reached the terminal raw.
    #expect(
      listed.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).count == 6,
      "\(listed.standardOutput)")
    #expect(
      Self.controlCharacters(in: listed.standardOutput).isEmpty, "\(listed.standardOutput.debugDescription)")

    let json = try runProcess(stash, ["ls", "--json", folder.path])
    #expect(json.status == 0)
    let memos = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
    #expect(
      Set(memos.compactMap { $0["base"] as? String }) == [
        "new\nline", "esc\u{1B}]0;pwned\u{7}bell\r!", "tab\there\u{85}c1", long,
      ])

    for format in ["json", "sarif"] {
      let lint = try runProcess(stash, ["lint", "--format", format, folder.path])
      #expect(lint.status != 2 || lint.standardOutput.isEmpty == false, "\(format): \(lint.standardError)")
      let parsed = try? JSONSerialization.jsonObject(with: Data(lint.standardOutput.utf8))
      #expect(parsed != nil, "lint --format \(format) is not JSON: \(lint.standardOutput.prefix(300))")
      // The name that is not UTF-8 is still named, escaped.
      #expect(lint.standardOutput.contains("bad"), "\(format)")
    }
    let human = try runProcess(stash, ["lint", folder.path])
    #expect(
      Self.controlCharacters(in: human.standardOutput + human.standardError).isEmpty,
      "\(human.standardOutput.debugDescription)")
  }

  @Test func whatCannotBeReadIsSaidAndTheRestIsListed() throws {
    // Tests run as root, which reads through permission bits: run stash as `nobody` instead.
    let folder = try ScratchFolder("stash-hostile-perm")
    defer { folder.remove() }
    chmod(folder.path, 0o755)
    try Self.audio.write(to: folder.appendingPathComponent("2026-01-01T10-00-00Z_audio.m4a"))
    try Self.audio.write(to: folder.appendingPathComponent("2026-01-02T10-00-00Z_audio.m4a"))
    try Data("Secret\n".utf8).write(to: folder.appendingPathComponent("2026-01-02T10-00-00Z_title.txt"))
    try Data("WEBVTT\n".utf8).write(
      to: folder.appendingPathComponent("2026-01-02T10-00-00Z_transcription.vtt"))
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      chmod(folder.path + "/" + file, 0o644)
    }
    chmod(folder.path + "/2026-01-01T10-00-00Z_audio.m4a", 0o600)
    chmod(folder.path + "/2026-01-02T10-00-00Z_title.txt", 0o600)
    let probe = try runProcess(
      "setpriv",
      [
        "--reuid=65534", "--regid=65534", "--clear-groups", "test", "-r",
        folder.path + "/2026-01-02T10-00-00Z_title.txt",
      ])
    #expect(probe.status == 1, "running as nobody must drop read permission")

    let (listed, _) = try measured(["ls", "--json", folder.path], asUser: true)
    #expect(listed.status == 0, "\(listed.standardError)")
    let memos = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
    #expect(memos.count == 2)
    #expect(!listed.standardOutput.contains("Secret"))
    let text = try runProcess(
      "setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", stash, "ls", folder.path])
    #expect(text.status == 0)
    #expect(text.standardOutput.contains("2026-01-01") || text.standardOutput.contains("2026-01-02"))

    let (inspect, _) = try measured(
      ["inspect", "--json", folder.path + "/2026-01-01T10-00-00Z_audio.m4a"], asUser: true)
    #expect(inspect.status != 0)
    #expect(
      inspect.standardError.contains("2026-01-01T10-00-00Z_audio.m4a")
        && inspect.standardError.contains("ermission"), "\(inspect.standardError)")

    // A folder nobody may read: a clear error naming it, exit 2.
    chmod(folder.path, 0o700)
    defer { chmod(folder.path, 0o755) }
    let (closed, _) = try measured(["ls", folder.path], asUser: true)
    #expect(closed.status == 2)
    #expect(
      closed.standardError.contains(folder.path) && closed.standardError.contains("ermission"),
      "\(closed.standardError)")
  }

  @Test func hugeAndHostileFilesAreReadInBoundedMemory() throws {
    let folder = try ScratchFolder("stash-hostile-big")
    defer { folder.remove() }
    chmod(folder.path, 0o755)
    // A 4 GB sparse audio file: real audio then holes.
    let big = folder.appendingPathComponent("2026-01-01T10-00-00Z_audio.m4a")
    try Self.audio.write(to: big)
    #expect(truncate(big.path, 4 << 30) == 0)
    let (listed, listMB) = try measured(["ls", "--json", folder.path])
    #expect(listed.status == 0, "\(listed.standardError)")
    #expect(listMB > 0 && listMB < 200, "stash ls of a 4 GB sparse file peaked at \(listMB) MB")
    let (inspected, inspectMB) = try measured(["inspect", "--json", big.path])
    #expect(inspected.status != 124)
    #expect(inspectMB > 0 && inspectMB < 200, "inspect of a 4 GB sparse file peaked at \(inspectMB) MB")

    // A 100 MB transcript on one line.
    let line = folder.appendingPathComponent("2026-01-01T10-00-00Z_transcription.vtt")
    var text = Data("WEBVTT\n\n00:00.000 --> 00:01.000\n".utf8)
    text.append(Data(repeating: UInt8(ascii: "a"), count: 100 << 20))
    try text.write(to: line)
    text = Data()
    let (vtt, vttMB) = try measured(["inspect", "--json", line.path])
    #expect(vtt.status != 124)
    #expect(vttMB > 0 && vttMB < 1024, "inspect of a 100 MB line peaked at \(vttMB) MB")

    // A billion laughs and an external entity in a route.
    let secret = folder.appendingPathComponent("secret.txt")
    try Data("TOPSECRET".utf8).write(to: secret)
    let laughs =
      "<?xml version=\"1.0\"?><!DOCTYPE gpx [<!ENTITY a \"aaaaaaaaaa\">"
      + (1...9).map {
        "<!ENTITY \(Character(UnicodeScalar(97 + $0)!)) \""
          + String(repeating: "&\(Character(UnicodeScalar(96 + $0)!));", count: 10) + "\">"
      }.joined()
      + "]><gpx version=\"1.1\" creator=\"x\" xmlns=\"http://www.topografix.com/GPX/1/1\"><metadata><name>&j;</name></metadata></gpx>"
    let external =
      "<?xml version=\"1.0\"?><!DOCTYPE gpx [<!ENTITY x SYSTEM \"file://\(secret.path)\">]>"
      + "<gpx version=\"1.1\" creator=\"x\" xmlns=\"http://www.topografix.com/GPX/1/1\"><metadata><name>&x;</name></metadata></gpx>"
    for (name, body) in [("laughs", laughs), ("external", external)] {
      let route = folder.appendingPathComponent("2026-01-01T10-00-00Z_track.gpx")
      try Data(body.utf8).write(to: route)
      let (result, mb) = try measured(["inspect", "--json", route.path])
      #expect(result.status != 124, "\(name)")
      #expect(mb > 0 && mb < 200, "\(name) peaked at \(mb) MB")
      #expect(!result.standardOutput.contains("TOPSECRET") && !result.standardError.contains("TOPSECRET"))
      #expect(!result.standardOutput.contains("aaaaaaaaaaaaaaaaaaaa"), "\(name) expanded")
    }
  }
}
