import Foundation
import StashTestSupport

/// A scratch memo folder for folder tests, with real AAC audio made by ffmpeg once per test run.
struct FolderScratch {
  let scratch: ScratchFolder
  var url: URL { scratch.url }
  var path: String { url.path }

  init(_ label: String = "stash-folder") throws {
    scratch = try ScratchFolder(label)
  }

  /// Three seconds of a sine tone, AAC-LC mono 48 kHz in a fragmented MP4, as the phone writes it.
  static let audio: Data = try! TestTone.mp4(seconds: 3, frequency: 440)

  /// Writes `name` with `contents` (text), or real audio when `contents` is nil.
  @discardableResult
  func write(_ name: String, _ contents: String? = nil) throws -> URL {
    let file = url.appendingPathComponent(name)
    try (contents.map { Data($0.utf8) } ?? Self.audio).write(to: file)
    return file
  }

  /// Writes raw bytes under a name given as raw bytes (names need not be UTF-8).
  func write(rawName: [UInt8], _ contents: [UInt8]) {
    let path = Array(url.path.utf8) + [UInt8(ascii: "/")] + rawName + [0]
    let fd = path.withUnsafeBufferPointer {
      open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o644)
    }
    precondition(fd >= 0)
    _ = contents.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
    close(fd)
  }

  /// Makes a folder (and its parents) inside the scratch folder.
  @discardableResult
  func folder(_ name: String) throws -> URL {
    let sub = url.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
    return sub
  }

  /// Sets a file's modification time.
  func touch(_ name: String, modified: Date) throws {
    try FileManager.default.setAttributes(
      [.modificationDate: modified], ofItemAtPath: url.appendingPathComponent(name).path)
  }

  func remove() { scratch.remove() }
}
