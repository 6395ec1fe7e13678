import Foundation

/// A stash command started while the test holds the memo folder's lock: its standard error is
/// read until it says it is waiting for the lock (or 30 s pass), so the test can look at the
/// folder while it waits, then let go of the lock and `finish`.
struct WaitingWriter {
  let process = Process()
  private let errors = Pipe()
  private var said = Data()

  /// Starts `executable` with `arguments` and reads what it says until it is waiting.
  init(_ executable: String, _ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(30)
    while !text.contains("waiting for it") && Date() < deadline {
      let more = errors.fileHandleForReading.availableData
      if more.isEmpty && !process.isRunning { break }
      said += more
    }
  }

  /// What it has said on standard error so far.
  var text: String { String(decoding: said, as: UTF8.self) }

  /// Waits for it to end, keeping the rest of what it says.
  mutating func finish() {
    said += errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
  }
}
