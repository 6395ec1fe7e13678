import Foundation
import StashTestSupport
import Testing

/// A fixture folder's `MANIFEST.json` (schema in SyntheticFixtures/README.md). Internal so other
/// suites in this target can read expectations from it rather than restating them.
struct FixtureManifest: Decodable {
  /// One memo: everything that shares a base and has audio.
  struct Memo: Decodable {
    var base: String
    var shows: String
    var files: [String]
    var recordedAt: String?
    var recordedAtLocal: String?
    var dateSource: String
    var title: String?
    var displayName: String?
    var audio: Audio
    var transcript: Transcript?
    var route: Route?
    var needsRecovery: Bool
    var parts: Parts?
    var twin: String?
  }

  /// What the audio file holds, computed by the generator from ffprobe and the boxes.
  struct Audio: Decodable {
    var layout: String
    var state: String
    var cut: String?
    var codec: String
    var sampleRate: Int
    var channels: Int
    var fileBytes: Int
    var timescale: Int?
    var fragmentCount: Int
    var sampleCount: Int
    var primingSamples: Int?
    var durationSamples: Int?
    var durationSeconds: Double?
    var tailBytes: Int?
    var ffprobeReads: Bool
    var ffprobeDurationSeconds: Double?
    var damagedBecause: String?
    var creationTime: String?
  }

  /// What the transcript holds.
  struct Transcript: Decodable {
    var cueCount: Int
    var wordTimed: Bool
    var unconfirmedRuns: Int
    var missingSpeech: [[Double]]
    var firstCueStart: Double?
    var lastCueEnd: Double?
  }

  /// What the route holds.
  struct Route: Decodable {
    var tracks: Int
    var segments: Int
    var points: Int
    var pointsPerSegment: [Int]
    var firstTime: String?
    var lastTime: String?
  }

  /// A memo's `<base>.parts/` folder.
  struct Parts: Decodable {
    var files: [String]
    var needsRecovery: Bool
  }

  /// A name in the folder that is not one of a memo's files.
  struct Other: Decodable {
    var name: String
    var kind: String
    var shows: String
  }

  var folder: String
  var memos: [Memo]
  var others: [Other]
  var emptyDirectories: [String]?

  /// Reads `SyntheticFixtures/<name>/MANIFEST.json`.
  static func load(_ name: String) throws -> FixtureManifest {
    let url = Fixtures.folder(name).appendingPathComponent("MANIFEST.json")
    return try JSONDecoder().decode(FixtureManifest.self, from: Data(contentsOf: url))
  }

  /// Every fixture folder whose MANIFEST.json lists memos in this schema. (`crash/` has a schema
  /// of its own, before and after a sweep, which the recovery tests check.)
  static var folders: [String] {
    let root = Fixtures.repositoryRoot.appendingPathComponent("SyntheticFixtures")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    return names.filter { name in
      let url = root.appendingPathComponent("\(name)/MANIFEST.json")
      guard let data = try? Data(contentsOf: url),
        let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
      else { return false }
      return json["memos"] != nil
    }.sorted()
  }
}

/// Checks every fixture MANIFEST against independent tools (ffprobe, xmllint), never against
/// stash's own readers: those are tested against the MANIFEST by their owners.
@Suite struct FixtureManifestTests {
  /// The folders are also the arguments of the tests below: an empty list would run zero cases.
  @Test func everyFixtureFolderHasAManifest() {
    #expect(FixtureManifest.folders.count >= 3, "\(FixtureManifest.folders)")
    #expect(FixtureManifest.folders.contains("demo"))
    #expect(FixtureManifest.folders.contains("lint"))
    #expect(FixtureManifest.folders.contains("twins"))
    // Every MANIFEST, in this schema or another, is JSON that names its own folder.
    let root = Fixtures.repositoryRoot.appendingPathComponent("SyntheticFixtures")
    for name in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] {
      let url = root.appendingPathComponent("\(name)/MANIFEST.json")
      guard let data = try? Data(contentsOf: url) else { continue }
      let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
      #expect(json?["folder"] as? String == name, "\(name)/MANIFEST.json is not JSON naming its folder")
    }
  }

  @Test(arguments: FixtureManifest.folders)
  func everyNameIsAccountedForOnce(_ folder: String) throws {
    let manifest = try FixtureManifest.load(folder)
    #expect(manifest.folder == folder)
    let root = Fixtures.folder(folder)
    let onDisk = Set(try FileManager.default.contentsOfDirectory(atPath: root.path))
      .subtracting(["MANIFEST.json"])
    let empty = Set(manifest.emptyDirectories ?? [])
    var listed: [String] = manifest.memos.flatMap(\.files) + manifest.others.map(\.name)
    #expect(Set(listed).count == listed.count, "a name is listed twice in \(folder)")
    listed = listed.filter { !empty.contains($0) || onDisk.contains($0) }
    // Git cannot keep an empty directory, so those may be missing from a fresh clone.
    #expect(Set(listed) == onDisk, "names on disk and in the MANIFEST differ in \(folder)")
    for memo in manifest.memos {
      #expect(memo.files.contains(memo.base + "_audio.m4a"), "\(memo.base) has no audio")
      for file in memo.files where !file.hasSuffix(".parts") {
        let suffix = ["_audio.m4a", "_transcription.vtt", "_track.gpx", "_title.txt"].first {
          file == memo.base + $0
        }
        #expect(suffix != nil, "\(file) is not a memo file of \(memo.base)")
      }
      #expect((memo.transcript != nil) == memo.files.contains(memo.base + "_transcription.vtt"))
      #expect((memo.route != nil) == memo.files.contains(memo.base + "_track.gpx"))
      if let parts = memo.parts {
        let url = root.appendingPathComponent(memo.base + ".parts")
        let inside = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        #expect(Set(inside) == Set(parts.files), "\(memo.base).parts holds other files")
      }
    }
    for other in manifest.others where other.name.hasPrefix(".") {
      #expect(other.kind == "hidden", "\(other.name) is hidden but listed as \(other.kind)")
    }
  }

  @Test(arguments: FixtureManifest.folders)
  func audioAgreesWithFFprobe(_ folder: String) throws {
    let manifest = try FixtureManifest.load(folder)
    let scratch = try ScratchFolder("fixture-audio")
    defer { scratch.remove() }
    for memo in manifest.memos {
      let url = Fixtures.folder(folder).appendingPathComponent(memo.base + "_audio.m4a")
      let audio = memo.audio
      let bytes = try Data(contentsOf: url)
      let label = "\(folder)/\(memo.base)"
      #expect(bytes.count == audio.fileBytes, "\(label): size")
      #expect(audio.sampleRate == 48000 && audio.channels == 1 && audio.codec == "mp4a.40.2")

      // What ffprobe makes of the file as it is.
      let probe = try FFprobe.streams(url.path)
      #expect(probe.reads == audio.ffprobeReads, "\(label): ffprobe reads it: \(probe.reads)")
      if probe.reads {
        #expect(probe.codec == "aac" && probe.profile == "LC", "\(label): \(probe.codec) \(probe.profile)")
        #expect(probe.sampleRate == 48000 && probe.channels == 1, "\(label): rate/channels")
      }

      // The layout, from the boxes' four-character codes.
      let layout = BoxScan(bytes)
      if audio.layout == "fragmented" && audio.state != "damaged" {
        #expect(layout.has("mvex") && layout.has("trex") && layout.has("moof"), "\(label): not fragmented")
        #expect(!layout.has("mehd"), "\(label): has a mehd box")
        #expect(layout.firstOffset("moov")! < layout.firstOffset("moof")!, "\(label): moov not first")
        let moofs = layout.count("moof") - (audio.cut == "insideMoof" ? 1 : 0)
        #expect(moofs == audio.fragmentCount, "\(label): \(moofs) whole moof boxes")
      }
      if audio.layout == "finished" {
        #expect(!layout.has("moof") && layout.has("elst"), "\(label): not the finished layout")
        #expect(layout.firstOffset("moov")! < layout.firstOffset("mdat")!, "\(label): not +faststart")
      }

      switch audio.state {
      case "ok":
        #expect(audio.tailBytes == 0, "\(label): an intact file has no tail")
        let packets = try FFprobe.packets(url.path)
        #expect(packets.count == audio.sampleCount, "\(label): \(packets.count) packets")
        let duration = try #require(probe.duration, "\(label): ffprobe gives no duration")
        let expected = try #require(audio.durationSeconds)
        if audio.layout == "finished" {
          // ffprobe honours the edit list, as our priming rule does.
          #expect(abs(duration - expected) < 0.0005, "\(label): \(duration) vs \(expected)")
        } else {
          // No edit list: ffprobe counts the priming, our rule removes 1024 samples of it.
          #expect(audio.primingSamples == 1024)
          #expect(abs(duration - 1024.0 / 48000 - expected) < 0.0005, "\(label): \(duration) vs \(expected)")
          #expect(audio.durationSamples == audio.sampleCount * 1024 - 1024)
        }
      case "cutShort":
        let tail = try #require(audio.tailBytes)
        #expect(tail > 0, "\(label): a cut-short file has a torn tail")
        // The file less its torn tail must be a whole file that ffprobe reads sample for sample.
        let whole = scratch.appendingPathComponent("whole.m4a")
        try bytes.prefix(bytes.count - tail).write(to: whole)
        let packets = try FFprobe.packets(whole.path)
        #expect(packets.count == audio.sampleCount, "\(label): \(packets.count) whole samples")
        #expect(packets.map { $0.pos + $0.size }.max() == bytes.count - tail, "\(label): tail")
        #expect(audio.durationSamples == audio.sampleCount * 1024 - 1024)
        if audio.cut == "insideMoof" {
          // The last whole sample ends where the torn moof begins.
          #expect(layout.lastOffset("moof") == bytes.count - tail, "\(label): tail is not the torn moof")
        }
        if probe.reads {
          // Where ffprobe reads the torn file it finds the same whole samples, then at most the
          // torn one, which it reports cut to the end of the file.
          let torn = try FFprobe.packets(url.path)
          let same = zip(torn, packets).allSatisfy { $0.pos == $1.pos && $0.size == $1.size }
          #expect(same && torn.count >= packets.count, "\(label): ffprobe's whole samples differ")
          #expect(torn.count <= packets.count + 1, "\(label): ffprobe sees \(torn.count) samples")
          if torn.count > packets.count {
            #expect(torn[packets.count].pos == bytes.count - tail, "\(label): the torn sample")
          }
        }
      case "damaged":
        #expect(!probe.reads && audio.sampleCount == 0 && audio.durationSeconds == nil)
        #expect(!layout.has("moov") && !layout.has("moof"), "\(label): it has an index after all")
        #expect(audio.damagedBecause?.isEmpty == false)
      case "lengthUnreadable":
        #expect(audio.timescale == 0 && audio.durationSeconds == nil)
        // Put the timescale back in a copy: every sample is still there and plays.
        var fixed = bytes
        let mdhd = try #require(layout.firstOffset("mdhd"))
        let at = mdhd + 8 + 4 + 8  // box header, version and flags, creation and modification times
        #expect(fixed[at..<at + 4].allSatisfy { $0 == 0 }, "\(label): timescale is not 0")
        fixed.replaceSubrange(at..<at + 4, with: [0, 0, 0xBB, 0x80])
        let copy = scratch.appendingPathComponent("fixed.m4a")
        try fixed.write(to: copy)
        #expect(try FFprobe.packets(copy.path).count == audio.sampleCount, "\(label): samples")
        let decoded = try runProcess("ffmpeg", ["-v", "error", "-i", copy.path, "-f", "null", "-"])
        #expect(decoded.status == 0, "\(label): does not decode: \(decoded.standardError)")
      default:
        Issue.record("\(label): unknown audio state \(audio.state)")
      }

      if memo.dateSource == "audio" {
        #expect(probe.creationTime?.hasPrefix(String(memo.recordedAt?.dropLast() ?? "")) == true)
      }
    }
  }

  @Test(arguments: FixtureManifest.folders)
  func transcriptsAgreeWithFFprobe(_ folder: String) throws {
    let manifest = try FixtureManifest.load(folder)
    for memo in manifest.memos {
      guard let transcript = memo.transcript else { continue }
      let url = Fixtures.folder(folder).appendingPathComponent(memo.base + "_transcription.vtt")
      let label = "\(folder)/\(memo.base)"
      let cues = try FFprobe.packets(url.path)
      #expect(cues.count == transcript.cueCount, "\(label): ffprobe finds \(cues.count) cues")
      if let first = cues.first, let last = cues.last {
        #expect(abs(first.time - (transcript.firstCueStart ?? -1)) < 0.0005, "\(label): first cue")
        #expect(abs(last.time + last.duration - (transcript.lastCueEnd ?? -1)) < 0.0005, "\(label): last cue")
      }
      if let length = memo.audio.durationSeconds, let end = transcript.lastCueEnd {
        #expect(end <= length, "\(label): a cue runs past the audio")
      }
      let text = try String(contentsOf: url, encoding: .utf8)
      #expect(text.hasPrefix("WEBVTT\n"))
      #expect(text.components(separatedBy: "<c.unconfirmed>").count - 1 == transcript.unconfirmedRuns)
      #expect(transcript.wordTimed == text.contains("<00:"), "\(label): word timing")
      let notes = text.split(separator: "\n").filter { $0.hasPrefix("NOTE stash missing-speech ") }
      #expect(notes.count == transcript.missingSpeech.count, "\(label): missing-speech notes")
    }
  }

  /// Cue times match the speech: ffmpeg's decode is loud inside every cue and quiet just before
  /// a cue that follows a pause; a missing-speech range has speech in the audio but no cue.
  @Test(arguments: FixtureManifest.folders)
  func cuesLieOnTheSpeech(_ folder: String) throws {
    let manifest = try FixtureManifest.load(folder)
    let scratch = try ScratchFolder("fixture-speech")
    defer { scratch.remove() }
    let rate = 8000.0
    for memo in manifest.memos where memo.transcript != nil && memo.audio.state == "ok" {
      let label = "\(folder)/\(memo.base)"
      let folderURL = Fixtures.folder(folder)
      let pcm = scratch.appendingPathComponent("decoded.raw")
      let decoded = try runProcess(
        "ffmpeg",
        [
          "-v", "error", "-y", "-i", folderURL.appendingPathComponent(memo.base + "_audio.m4a").path,
          "-f", "s16le", "-ac", "1", "-ar", "8000", pcm.path,
        ])
      #expect(decoded.status == 0, "\(label): \(decoded.standardError)")
      let samples = try Data(contentsOf: pcm).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
      // ffmpeg drops the priming only where an edit list says so; our rule drops it always.
      let shift = memo.audio.layout == "finished" ? 0 : Double(memo.audio.primingSamples ?? 0) / 48000
      func level(_ from: Double, _ to: Double) -> Double {
        let lower = max(0, Int((from + shift) * rate))
        let upper = min(samples.count, Int((to + shift) * rate))
        guard upper > lower else { return 0 }
        let sum = samples[lower..<upper].reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(upper - lower)).squareRoot()
      }
      let cues = try FFprobe.packets(folderURL.appendingPathComponent(memo.base + "_transcription.vtt").path)
      var previousEnd = 0.0
      for cue in cues {
        let loud = level(cue.time, cue.time + cue.duration)
        #expect(loud > 500, "\(label): the cue at \(cue.time) s is quiet (\(loud))")
        if cue.time - previousEnd >= 0.3 {
          let quiet = level(cue.time - 0.25, cue.time - 0.06)
          #expect(quiet < loud / 10, "\(label): sound just before the cue at \(cue.time) s (\(quiet))")
        }
        previousEnd = cue.time + cue.duration
      }
      // Word timestamps mark where each word's sound begins (words sit 0.12 s apart).
      let text = try String(
        contentsOf: folderURL.appendingPathComponent(memo.base + "_transcription.vtt"), encoding: .utf8)
      for match in text.matches(of: #/<(\d\d):(\d\d):(\d\d)\.(\d\d\d)>/#) {
        let (_, h, m, sec, ms) = match.output
        let at = Double(h)! * 3600 + Double(m)! * 60 + Double(sec)! + Double(ms)! / 1000
        let word = level(at, at + 0.12)
        let before = level(at - 0.1, at - 0.04)
        #expect(word > 300 && word > 4 * before, "\(label): the word at \(at) s (\(word) vs \(before))")
      }
      for range in memo.transcript?.missingSpeech ?? [] {
        #expect(level(range[0], range[1]) > 300, "\(label): no speech where speech is missing")
      }
    }
  }

  @Test(arguments: FixtureManifest.folders)
  func routesAgreeWithXmllint(_ folder: String) throws {
    let manifest = try FixtureManifest.load(folder)
    var routes: [(URL, FixtureManifest.Memo?)] = manifest.memos.compactMap { memo in
      memo.route == nil
        ? nil : (Fixtures.folder(folder).appendingPathComponent(memo.base + "_track.gpx"), memo)
    }
    for other in manifest.others where other.name.hasSuffix(".gpx") {
      routes.append((Fixtures.folder(folder).appendingPathComponent(other.name), nil))
    }
    for memo in manifest.memos {
      for part in memo.parts?.files ?? [] where part.hasSuffix(".gpx") {
        routes.append((Fixtures.folder(folder).appendingPathComponent("\(memo.base).parts/\(part)"), nil))
      }
    }
    for (url, memo) in routes {
      let label = "\(folder)/\(url.lastPathComponent)"
      let wellFormed = try runProcess("xmllint", ["--noout", url.path])
      #expect(wellFormed.status == 0, "\(label): \(wellFormed.standardError)")
      let gpx = "namespace-uri()='http://www.topografix.com/GPX/1/1'"
      let point = "//*[local-name()='trkpt' and \(gpx)]"
      let points = try XPath.number("count(\(point))", url)
      let complete = try XPath.number(
        "count(\(point)[*[local-name()='ele'] and *[local-name()='time']]"
          + "[.//*[local-name()='speed' and namespace-uri()="
          + "'http://www.garmin.com/xmlschemas/TrackPointExtension/v2']]"
          + "[.//*[local-name()='course']]"
          + "[*[local-name()='extensions']/*[local-name()='horizontalAccuracy' and namespace-uri()="
          + "'urn:stash:gpx:1']])", url)
      #expect(points > 0 && complete == points, "\(label): \(complete) of \(points) points are complete")
      guard let memo, let route = memo.route else { continue }
      #expect(try XPath.number("count(//*[local-name()='trk'])", url) == Double(route.tracks))
      #expect(try XPath.number("count(//*[local-name()='trkseg'])", url) == Double(route.segments))
      #expect(points == Double(route.points), "\(label): \(points) points")
      for (index, count) in route.pointsPerSegment.enumerated() {
        let inSegment = try XPath.number("count((//*[local-name()='trkseg'])[\(index + 1)]/*)", url)
        #expect(inSegment == Double(count), "\(label): segment \(index + 1)")
      }
      // Every point lies inside the recording, when the recording's instant is fixed.
      if let start = memo.recordedAt.flatMap(Self.instant), let length = memo.audio.durationSeconds {
        let first = try XPath.string("string((\(point))[1]/*[local-name()='time'])", url)
        let last = try XPath.string("string((\(point))[last()]/*[local-name()='time'])", url)
        let from = try #require(Self.instant(first)).timeIntervalSince(start)
        let to = try #require(Self.instant(last)).timeIntervalSince(start)
        #expect(from >= 0 && to <= length, "\(label): points from \(from) s to \(to) s")
      }
    }
  }

  @Test func demoCoversEveryCaseTheIssueNames() throws {
    let memos = try FixtureManifest.load("demo").memos
    let states = Set(memos.map { "\($0.audio.layout)/\($0.audio.state)/\($0.audio.cut ?? "")" })
    for wanted in [
      "fragmented/ok/", "finished/ok/", "fragmented/cutShort/insideMdat", "fragmented/cutShort/insideMoof",
      "fragmented/damaged/", "fragmented/lengthUnreadable/",
    ] {
      #expect(states.contains(wanted), "no \(wanted) memo")
    }
    #expect(memos.count >= 10)
    #expect(
      memos.contains { ($0.audio.durationSeconds ?? 0) >= 1200 && ($0.transcript?.lastCueEnd ?? 0) >= 1200 })
    #expect(memos.contains { $0.transcript?.wordTimed == true })
    #expect(
      memos.contains {
        ($0.transcript?.unconfirmedRuns ?? 0) > 0 && $0.transcript?.missingSpeech.isEmpty == false
      })
    #expect(memos.contains { ($0.route?.segments ?? 0) >= 2 })
    #expect(memos.contains { $0.transcript == nil && $0.route == nil && $0.title == nil })
    #expect(memos.contains { $0.dateSource == "audio" })
    let titles = memos.compactMap(\.title).flatMap(\.unicodeScalars)
    #expect(titles.contains { (0x4E00...0x9FFF).contains($0.value) || (0x3040...0x30FF).contains($0.value) })
    #expect(titles.contains { (0x0590...0x06FF).contains($0.value) }, "no right-to-left title")
    #expect(titles.contains { $0.properties.isEmojiPresentation }, "no emoji title")
    let dates = memos.compactMap { $0.recordedAt ?? $0.recordedAtLocal }.sorted()
    #expect(dates.first?.hasPrefix("2025-12") == true && dates.last?.hasPrefix("2026-11") == true)
  }

  @Test func twinsHoldTheSameSamplesAndLength() throws {
    let manifest = try FixtureManifest.load("twins")
    let byBase = Dictionary(uniqueKeysWithValues: manifest.memos.map { ($0.base, $0) })
    let layouts = Set(manifest.memos.map(\.audio.layout))
    #expect(layouts == ["fragmented", "finished"])
    for memo in manifest.memos {
      let twinBase = try #require(memo.twin)
      let twin = try #require(byBase[twinBase])
      #expect(twin.twin == memo.base && twin.audio.layout != memo.audio.layout)
      #expect(memo.audio.durationSamples == twin.audio.durationSamples)
      #expect(memo.audio.durationSeconds == twin.audio.durationSeconds)
      // The same encoder output in two containers: ffprobe sees the same packet sizes.
      let mine = try FFprobe.packets(
        Fixtures.folder("twins").appendingPathComponent(memo.base + "_audio.m4a").path)
      let theirs = try FFprobe.packets(
        Fixtures.folder("twins").appendingPathComponent(twin.base + "_audio.m4a").path)
      #expect(mine.map(\.size) == theirs.map(\.size))
    }
  }

  /// Regenerates every fixture into a temporary folder and compares byte for byte (~30 s).
  @Test func regenerationIsByteIdentical() throws {
    let script = Fixtures.repositoryRoot.appendingPathComponent("SyntheticFixtures/make-fixtures")
    let result = try runProcess(script.path, ["--check"])
    #expect(result.status == 0, "\(result.standardError)")
  }

  private static func instant(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }
}

/// ffprobe, run and decoded.
enum FFprobe {
  /// What ffprobe says about a file's first stream.
  struct Streams {
    var reads: Bool
    var codec: String?
    var profile: String?
    var sampleRate: Int?
    var channels: Int?
    var duration: Double?
    var creationTime: String?
  }

  /// One packet: byte position and size, presentation time and duration in seconds.
  struct Packet {
    var pos: Int
    var size: Int
    var time: Double
    var duration: Double
  }

  static func streams(_ path: String) throws -> Streams {
    let result = try runProcess(
      "ffprobe",
      [
        "-v", "error", "-show_entries",
        "stream=codec_type,codec_name,profile,sample_rate,channels,duration:format_tags=creation_time",
        "-of", "json", path,
      ])
    let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    let stream = (json?["streams"] as? [[String: Any]])?.first { $0["codec_type"] as? String == "audio" }
    let tags = (json?["format"] as? [String: Any])?["tags"] as? [String: Any]
    return Streams(
      reads: result.status == 0 && result.standardError.isEmpty && stream != nil,
      codec: stream?["codec_name"] as? String, profile: stream?["profile"] as? String,
      sampleRate: (stream?["sample_rate"] as? String).flatMap { Int($0) },
      channels: stream?["channels"] as? Int,
      duration: (stream?["duration"] as? String).flatMap { Double($0) },
      creationTime: tags?["creation_time"] as? String)
  }

  static func packets(_ path: String) throws -> [Packet] {
    let result = try runProcess(
      "ffprobe",
      ["-v", "error", "-show_entries", "packet=pos,size,pts_time,duration_time", "-of", "json", path])
    guard result.status == 0 else {
      throw FixtureTestError("ffprobe cannot read \(path): \(result.standardError)")
    }
    let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    return (json?["packets"] as? [[String: Any]] ?? []).map { packet in
      Packet(
        pos: (packet["pos"] as? String).flatMap { Int($0) } ?? -1,
        size: (packet["size"] as? String).flatMap { Int($0) } ?? -1,
        time: (packet["pts_time"] as? String).flatMap { Double($0) } ?? -1,
        duration: (packet["duration_time"] as? String).flatMap { Double($0) } ?? -1)
    }
  }
}

/// xmllint's XPath, for counting and reading GPX without our own parser.
enum XPath {
  static func string(_ expression: String, _ url: URL) throws -> String {
    let result = try runProcess("xmllint", ["--xpath", expression, url.path])
    guard result.status == 0 else {
      throw FixtureTestError("xmllint --xpath \(expression) \(url.path): \(result.standardError)")
    }
    return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  static func number(_ expression: String, _ url: URL) throws -> Double {
    let text = try string(expression, url)
    guard let value = Double(text) else { throw FixtureTestError("not a number: \(text)") }
    return value
  }
}

/// Where four-character box codes first occur in a file. A crude scan (it can be fooled by
/// media bytes), good enough for layout checks on files whose boxes come before their media.
struct BoxScan {
  let bytes: Data
  init(_ bytes: Data) { self.bytes = bytes }

  /// The offset of the box whose type is `code` (the offset of its size field), if any.
  func firstOffset(_ code: String) -> Int? {
    guard let range = bytes.range(of: Data(code.utf8)) else { return nil }
    return range.lowerBound - bytes.startIndex - 4
  }

  func has(_ code: String) -> Bool { firstOffset(code) != nil }

  /// The offset of the last box whose type is `code`, if any.
  func lastOffset(_ code: String) -> Int? {
    guard let range = bytes.range(of: Data(code.utf8), options: .backwards) else { return nil }
    return range.lowerBound - bytes.startIndex - 4
  }

  /// How many times `code` occurs.
  func count(_ code: String) -> Int {
    var found = 0
    var from = bytes.startIndex
    while let range = bytes.range(of: Data(code.utf8), in: from..<bytes.endIndex) {
      found += 1
      from = range.upperBound
    }
    return found
  }
}

/// A failure in a fixture test's own plumbing.
struct FixtureTestError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
