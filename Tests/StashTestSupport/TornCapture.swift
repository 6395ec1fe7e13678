import Foundation

/// The crash fixture's capture as a kill usually leaves it: its last transcript part cut inside
/// the words of its last cue (`Home befo`), its last route part mid-point, no finished files.
public enum TornCapture {
  /// The capture's base.
  public static let base = "2026-04-03T09-00-00"

  /// The capture in a new scratch folder named after `name`; `agedAnHour` dates every file an
  /// hour ago, so that a sweep does not leave it for being recent.
  public static func make(_ name: String, agedAnHour: Bool = false) throws -> ScratchFolder {
    let root = try ScratchFolder(name)
    let source = Fixtures.folder("crash")
    for name in [base + "_audio.m4a", base + ".parts"] {
      try FileManager.default.copyItem(
        at: source.appendingPathComponent(name), to: root.appendingPathComponent(name))
    }
    let last = root.appendingPathComponent(base + ".parts/transcription.0003.vtt")
    let bytes = try Data(contentsOf: last)
    // The cut goes through the last cue's words: "Home before the rain." keeps "Home befo".
    guard String(decoding: bytes.suffix(13), as: UTF8.self) == "re the rain.\n" else {
      throw CocoaError(.fileReadCorruptFile)
    }
    try bytes.dropLast(13).write(to: last)
    if agedAnHour {
      for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
        try FileManager.default.setAttributes(
          [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: root.path + "/" + path)
      }
    }
    return root
  }
}
