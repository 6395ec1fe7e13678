import Foundation
import StashTestSupport

/// Everything in a folder, recursively: each path with its bytes, `<dir>` or `-> target` for a link,
/// so two folders can be compared exactly.
struct FolderTree: Equatable, CustomStringConvertible {
  var entries: [String: String]

  init(_ root: URL) throws {
    entries = [:]
    let manager = FileManager.default
    func walk(_ url: URL, _ prefix: String) throws {
      for name in try manager.contentsOfDirectory(atPath: url.path) {
        let child = url.appendingPathComponent(name)
        let path = prefix + name
        let attributes = try manager.attributesOfItem(atPath: child.path)
        switch attributes[.type] as? FileAttributeType {
        case .typeDirectory?:
          entries[path] = "<dir>"
          try walk(child, path + "/")
        case .typeSymbolicLink?:
          entries[path] = "-> " + (try manager.destinationOfSymbolicLink(atPath: child.path))
        case .typeRegular?:
          let data = try Data(contentsOf: child)
          // Text stays readable in a failure message; other bytes are compared exactly.
          entries[path] = String(data: data, encoding: .utf8) ?? "base64:" + data.base64EncodedString()
        default:
          // FIFOs, sockets, devices: never opened, only noted.
          entries[path] = "<special>"
        }
      }
    }
    try walk(root, "")
  }

  init(_ root: ScratchFolder) throws { try self.init(root.url) }

  /// The paths, sorted.
  var paths: [String] { entries.keys.sorted() }

  var description: String { paths.map { "\($0): \(entries[$0]!.prefix(60))" }.joined(separator: "\n") }
}

/// Writes `text` to `path` relative to `root`, making folders on the way.
func put(_ text: String, _ path: String, in root: URL) throws {
  let url = root.appendingPathComponent(path)
  try FileManager.default.createDirectory(
    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
  try Data(text.utf8).write(to: url)
}

/// Writes `text` to `path` in a scratch folder, making folders on the way.
func put(_ text: String, _ path: String, in root: ScratchFolder) throws { try put(text, path, in: root.url) }

/// Sets the modification time of `path` to `seconds` since 1970.
func setModificationTime(_ path: String, _ seconds: Double) throws {
  try FileManager.default.setAttributes(
    [.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: path)
}
