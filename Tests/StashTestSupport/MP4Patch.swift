import Foundation

/// Changes made by hand to an MP4 file, for tests of files other software wrote.
package enum MP4Patch {
  /// Sets the audio track's clock rate (the version 0 `mdhd` timescale) to 0 in the file at
  /// `path`, so that the file states no length though every sample is still there.
  package static func zeroTrackTimescale(_ path: String) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    guard
      let mdhd = (0..<max(0, bytes.count - 4)).first(where: { bytes[$0..<$0 + 4].elementsEqual("mdhd".utf8) }
      ),
      bytes[mdhd + 4] == 0
    else { throw CocoaError(.fileReadCorruptFile) }
    // After the version and flags: creation and modification times (4 bytes each), the timescale.
    let timescale = mdhd + 4 + 4 + 8
    for i in timescale..<timescale + 4 { bytes[i] = 0 }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }
}
