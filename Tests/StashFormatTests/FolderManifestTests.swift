import Foundation
import StashFormat
import StashTestSupport
import Testing

/// Every value of the fixtures' MANIFEST.json that the folder reader owns, checked against
/// `MemoFolder.read`: files, dates and their source, titles, display names, audio state and length,
/// recovery, and the classification of every other name.
@Suite struct FolderManifestTests {
  /// The fixture folders whose MANIFEST lists memos (recovery fixtures may use another schema).
  static let folders: [String] = {
    let root = Fixtures.repositoryRoot.appendingPathComponent("SyntheticFixtures")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    return names.sorted().filter { name in
      guard
        let data = try? Data(
          contentsOf: root.appendingPathComponent(name).appendingPathComponent("MANIFEST.json")),
        let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
      else { return false }
      return manifest["memos"] is [[String: Any]]
    }
  }()

  static func manifest(_ name: String) throws -> [String: Any] {
    let data = try Data(contentsOf: Fixtures.folder(name).appendingPathComponent("MANIFEST.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  /// The folders are also the arguments of the tests below: an empty list would run zero cases.
  @Test func thereIsADemoManifest() {
    #expect(Self.folders.count >= 3, "\(Self.folders)")
    #expect(Self.folders.contains("demo"))
  }

  /// A scratch copy of the fixture folder (times kept) with the empty folders git cannot hold:
  /// `copy`, in `scratch`, which the caller removes.
  static func copy(_ name: String, manifest: [String: Any]) throws -> (scratch: ScratchFolder, copy: URL) {
    let scratch = try ScratchFolder("stash-manifest")
    let target = scratch.appendingPathComponent(name)
    let copied = try runProcess(
      "cp", ["-R", "--preserve=timestamps", Fixtures.folder(name).path, target.path])
    #expect(copied.status == 0, "\(copied.standardError)")
    for empty in (manifest["emptyDirectories"] as? [String]) ?? [] {
      try FileManager.default.createDirectory(
        at: target.appendingPathComponent(empty), withIntermediateDirectories: true)
    }
    return (scratch, target)
  }

  @Test(arguments: folders) func memosMatchTheManifest(_ name: String) throws {
    let manifest = try Self.manifest(name)
    let expected = try #require(manifest["memos"] as? [[String: Any]])
    let (scratch, copy) = try Self.copy(name, manifest: manifest)
    defer { scratch.remove() }
    let folder = try MemoFolder.read(path: copy.path)
    let withAudio = folder.memos.filter(\.hasAudio)
    #expect(Set(withAudio.map(\.base)) == Set(expected.compactMap { $0["base"] as? String }))
    for entry in expected {
      let base = try #require(entry["base"] as? String)
      guard let memo = folder.memos.first(where: { $0.base.utf8.elementsEqual(base.utf8) }) else {
        Issue.record("\(name): \(base) is not listed")
        continue
      }
      let files = try #require(entry["files"] as? [String])
      #expect(Set(memo.files.values) == Set(files), "\(base)")
      if let utc = entry["recordedAt"] as? String {
        #expect(RecordingDate.isoUTC(memo.recordedAt) == utc, "\(base)")
      } else if let local = entry["recordedAtLocal"] as? String {
        // The wall clock in local time, whatever this machine's zone is.
        #expect(String(RecordingDate.isoLocal(memo.recordedAt).prefix(19)) == local, "\(base)")
      } else if entry["dateSource"] as? String == "mtime", let audio = memo.files[.audio] {
        let attributes = try FileManager.default.attributesOfItem(
          atPath: copy.appendingPathComponent(audio).path)
        let modified = try #require(attributes[.modificationDate] as? Date)
        #expect(abs(memo.recordedAt - modified.timeIntervalSince1970) < 1e-3, "\(base)")
      } else {
        Issue.record("\(base): the manifest gives no date")
      }
      #expect(memo.dateSource.rawValue == entry["dateSource"] as? String, "\(base)")
      #expect(memo.titleText == entry["title"] as? String, "\(base)")
      if let display = entry["displayName"] as? String {
        #expect(memo.displayName == display, "\(base)")
      } else {
        // FORMAT.md §1.4: the words a person put in the base, else the recording date.
        let words = RecordingDate.words(inBase: base)
        #expect(memo.displayName == words ?? RecordingDate.localMinute(memo.recordedAt), "\(base)")
      }
      #expect(memo.needsRecovery == (entry["needsRecovery"] as? Bool), "\(base)")
      if let parts = entry["parts"] as? [String: Any] {
        let partFiles = try #require(parts["files"] as? [String])
        let listed =
          (memo.parts?.transcriptParts.map { String(format: "transcription.%04d.vtt", $0) } ?? [])
          + (memo.parts?.routeParts.map { String(format: "track.%04d.gpx", $0) } ?? [])
          + (memo.parts?.strangers ?? [])
        #expect(Set(listed) == Set(partFiles), "\(base)")
        #expect(memo.partsToAssemble.isEmpty != (parts["needsRecovery"] as? Bool ?? false), "\(base)")
      }
      if let codes = entry["codes"] as? [String] {
        // The memo's own problems, and a collision when its base is one of a colliding group.
        var found = Set(memo.problems.map(\.code))
        if folder.collisions.contains(where: { $0.bases.contains(PathText.escaped(base)) }) {
          found.insert(.folderNameCollision)
        }
        #expect(found.map(\.rawValue).sorted() == Set(codes).sorted(), "\(base)")
      }
      guard let audio = entry["audio"] as? [String: Any] else { continue }
      let state = try #require(audio["state"] as? String)
      switch (state, memo.audio?.state) {
      case ("ok", .ok?), ("damaged", .damaged?), ("lengthUnreadable", .lengthUnreadable?): break
      case ("cutShort", .cutShort(let tail)?):
        #expect(tail == audio["tailBytes"] as? Int, "\(base)")
      default:
        Issue.record("\(base): audio state \(String(describing: memo.audio?.state)), manifest says \(state)")
      }
      let seconds = audio["durationSeconds"] as? Double
      #expect((memo.durationSeconds == nil) == (seconds == nil), "\(base)")
      if let seconds, let length = memo.durationSeconds { #expect(abs(length - seconds) < 1e-6, "\(base)") }
      // A memo whose audio is not fine carries a problem, and one that is fine carries no audio problem.
      // It carries the audio's own lint code, the one lint gives it.
      let audioProblems = memo.problems.filter {
        $0.file == memo.files[.audio] && AudioSummary.codes.contains($0.code)
      }
      #expect(!audioProblems.isEmpty == (state != "ok"), "\(base)")
      #expect(audioProblems.allSatisfy { $0.code == memo.audio?.code }, "\(base)")
    }
  }

  @Test(arguments: folders) func otherNamesMatchTheManifest(_ name: String) throws {
    let manifest = try Self.manifest(name)
    let others = (manifest["others"] as? [[String: Any]]) ?? []
    let (scratch, copy) = try Self.copy(name, manifest: manifest)
    defer { scratch.remove() }
    let folder = try MemoFolder.read(path: copy.path)
    var expected: [String: String] = [:]
    for other in others {
      guard let file = other["name"] as? String, let kind = other["kind"] as? String else {
        Issue.record("\(name): an entry of others without name or kind")
        continue
      }
      expected[file] = kind
      if let codes = other["codes"] as? [String] {
        let entry = folder.others.first { $0.name == PathText.escaped(file) }
        #expect((entry?.diagnostic).map { [$0.code.rawValue] } ?? [] == codes, "\(file)")
      }
      let role = folder.others.first { $0.name == file }?.role
      switch kind {
      case "orphan":
        let of = ["transcript": MemoFileKind.transcript, "track": .route, "title": .title][
          other["of"] as? String ?? ""]
        #expect(role == .orphan(base: other["base"] as? String ?? "", kind: of ?? .audio), "\(file)")
      case "nearMiss":
        guard case .nearMiss(let intended, _, _)? = role else {
          Issue.record("\(file) is not a near miss")
          continue
        }
        let base = (other["nearBase"] as? String) ?? (other["base"] as? String) ?? ""
        #expect(intended == base + (other["resembles"] as? String ?? ""), "\(file)")
      default: break
      }
    }
    var found: [String: String] = [:]
    for entry in folder.others where entry.name != "MANIFEST.json" { found[entry.name] = entry.role.key }
    for memo in folder.memos where !memo.hasAudio { found[memo.files[.parts]!] = "capture" }
    #expect(found == expected)
  }
}
