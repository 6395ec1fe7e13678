import Foundation
import StashTestSupport
import Testing

/// The browser's `R` (the plan first, then asks) and `I` (import from `--import-from DIR`), through
/// the real binary's render-once hook: the real update step and effects, the folder written for real.
@Suite struct ImportBrowserTests {
  func render(_ folder: URL, keys: String, importFrom: URL? = nil) throws -> String {
    var arguments = ["--render-once", "100x30", "--keys", keys]
    if let importFrom { arguments += ["--import-from", importFrom.path] }
    let result = try runProcess(
      TUIHarness.binary, arguments + [folder.path], environment: TUIHarness.environment)
    #expect(result.status == 0, "\(result.standardError)")
    return result.standardOutput
  }

  /// The browser's folder with a killed recording's two transcript parts, a day old.
  func folderWithParts() throws -> (URL, String) {
    let folder = try TUIHarness.memoFolder()
    let base = "2026-07-20T07-45-10Z"
    let parts = folder.appendingPathComponent(base + ".parts")
    try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
    try "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nFirst part of the walk.\n".write(
      to: parts.appendingPathComponent("transcription.0001.vtt"), atomically: false, encoding: .utf8)
    _ = try runProcess(
      "touch", ["-d", "2026-07-20 08:00:00 UTC", parts.appendingPathComponent("transcription.0001.vtt").path])
    return (folder, base)
  }

  @Test func recoverShowsThePlanAndWritesOnlyAfterYes() throws {
    let (folder, base) = try folderWithParts()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transcript = folder.appendingPathComponent(base + "_transcription.vtt").path
    let plan = try render(folder, keys: "R")
    #expect(plan.contains("Recovery plan"), "\(plan)")
    #expect(plan.contains("would be published: \(base)_transcription.vtt"), "\(plan)")
    #expect(plan.contains("y recovers"))
    #expect(!FileManager.default.fileExists(atPath: transcript))
    let declined = try render(folder, keys: "Rn")
    #expect(declined.contains("Nothing recovered."), "\(declined)")
    #expect(!FileManager.default.fileExists(atPath: transcript))
    let done = try render(folder, keys: "Ry")
    #expect(done.contains("─ Recovery "), "\(done)")
    #expect(!done.contains("Recovering…"), "the line goes once the report shows: \(done)")
    #expect(FileManager.default.fileExists(atPath: transcript))
  }

  @Test func importShowsWhereFromThePlanAndTheReport() throws {
    let folder = try TUIHarness.memoFolder()
    let phone = try TUIHarness.memoFolder()
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: phone)
    }
    // A memo only the phone has, a day old.
    let base = "2026-08-01T10-00-00Z"
    try FileManager.default.copyItem(
      at: TUIHarness.toneAudio, to: phone.appendingPathComponent(base + "_audio.m4a"))
    try "Walk on the pier\n".write(
      to: phone.appendingPathComponent(base + "_title.txt"), atomically: false, encoding: .utf8)
    for name in [base + "_audio.m4a", base + "_title.txt"] {
      _ = try runProcess("touch", ["-d", "2026-08-01 10:05:00 UTC", phone.appendingPathComponent(name).path])
    }
    let first = try render(folder, keys: "", importFrom: phone)
    #expect(first.contains("I imports from"), "the header says where from: \(first)")
    let plan = try render(folder, keys: "I", importFrom: phone)
    #expect(plan.contains("Import plan"), "\(plan)")
    #expect(plan.contains("would copy: \(base)"), "\(plan)")
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/" + base + "_audio.m4a"))
    let done = try render(folder, keys: "Iy", importFrom: phone)
    #expect(done.contains("copied: \(base)"), "\(done)")
    #expect(done.contains("Walk on the pier") || done.contains("3 already here"), "\(done)")
    #expect(FileManager.default.fileExists(atPath: folder.path + "/" + base + "_audio.m4a"))
    #expect(FileManager.default.fileExists(atPath: folder.path + "/" + base + "_title.txt"))
    let none = try render(folder, keys: "I")
    #expect(none.contains("No folder to import from"), "\(none)")
  }
}
