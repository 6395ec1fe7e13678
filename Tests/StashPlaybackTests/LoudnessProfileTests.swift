import Foundation
import StashFormat
import StashTestSupport
import Testing

@testable import StashPlayback

/// The waveform's measure against memos of known loudness: 2 s of silence, then tone bursts at -40,
/// -20 and -6 dBFS (peak; a sine's AES17 level is its peak level) of 2 s each with 2 s of silence
/// between and after, made by ffmpeg as AAC in MP4.
@Suite struct LoudnessProfileTests {
  static let seconds = 14.0
  /// Burst starts and levels: each lasts 2 s.
  static let bursts: [(start: Double, dbfs: Double)] = [(2, -40), (6, -20), (10, -6)]
  /// Cells of a quarter second each.
  static let cells = 56

  /// The steps memo, written to `path` with ffmpeg's `extra` flags.
  static func steps(_ path: String, extra: [String] = []) throws {
    let amplitude = bursts.map { "between(t\\,\($0.start)\\,\($0.start + 2))*\(pow(10, $0.dbfs / 20))" }
      .joined(separator: "+")
    let result = try runProcess(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
        "aevalsrc=(\(amplitude))*sin(2*PI*440*t):s=48000:d=\(seconds)", "-ac", "1", "-c:a", "aac", "-b:a",
        "64k", "-aac_pns", "0",
      ] + extra + [path])
    guard result.status == 0 else { throw TestFailure("ffmpeg failed: \(result.standardError)") }
  }

  /// The level a cell from `start` to `end` seconds should read, when it lies wholly inside a burst
  /// or a silence at least 0.1 s from any edge (an edge smears over an AAC frame or two); nil for a
  /// cell near an edge.
  static func expected(start: Double, end: Double) -> Double? {
    let edges = bursts.flatMap { [$0.start, $0.start + 2] }
    guard edges.allSatisfy({ $0 <= start - 0.1 || $0 >= end + 0.1 }) else { return nil }
    return bursts.first { start >= $0.start && end <= $0.start + 2 }?.dbfs ?? LoudnessProfile.floor
  }

  func memo(_ name: String, extra: [String] = []) throws -> String {
    let path = try TestAudio.folder().appendingPathComponent("\(name)_audio.m4a").path
    try Self.steps(path, extra: extra)
    return path
  }

  /// Every cell away from an edge lands within 2 dB of its burst's level, or at the floor in silence;
  /// and there are cells of each kind to check.
  @Test func eachCellLandsInItsBand() throws {
    let profile = try LoudnessProfile(path: try memo("steps"), cells: Self.cells)
    #expect(abs(profile.duration - Self.seconds) < 0.05)
    #expect(profile.fill(0..<Self.cells))
    let width = profile.duration / Double(Self.cells)
    var checked: [Double: Int] = [:]
    for cell in 0..<Self.cells {
      guard let expected = Self.expected(start: Double(cell) * width, end: Double(cell + 1) * width) else {
        continue
      }
      let level = try #require(profile.levels[cell], "cell \(cell) unknown")
      if expected == LoudnessProfile.floor {
        #expect(level == LoudnessProfile.floor, "cell \(cell): \(level) dBFS in silence")
      } else {
        #expect(abs(level - expected) <= 2, "cell \(cell): \(level) dBFS, expected \(expected)")
      }
      checked[expected, default: 0] += 1
    }
    #expect(checked.count == 4 && checked.values.allSatisfy { $0 >= 4 }, "\(checked)")
  }

  /// `outwardOrder` starts at the cell asked for, alternates after and before it, and names every
  /// cell once, whichever end it starts from.
  @Test(arguments: [(0, 1), (0, 7), (6, 7), (3, 7), (2, 9), (-5, 4), (99, 4)])
  func outwardOrderCoversEveryCellOnceFromTheStart(start: Int, count: Int) {
    let order = LoudnessProfile.outwardOrder(from: start, count: count)
    #expect(order.first == min(max(0, start), count - 1))
    #expect(order.sorted() == Array(0..<count))
    // Each cell is at least as close to the start as the one before it.
    let center = order[0]
    for (a, b) in zip(order, order.dropFirst()) { #expect(abs(a - center) <= abs(b - center)) }
    #expect(LoudnessProfile.outwardOrder(from: 3, count: 7) == [3, 4, 2, 5, 1, 6, 0])
  }

  /// Filling outward reports the cells in the promised order, and each level equals the one filling
  /// from the start gives (decoding from a seek and decoding on agree); a stop leaves the rest
  /// unmeasured, and a later fill measures only those.
  @Test func outwardFillKeepsItsOrderAndItsLevels() throws {
    let path = try memo("order")
    let straight = try LoudnessProfile(path: path, cells: Self.cells)
    straight.fill(0..<Self.cells)

    let outward = try LoudnessProfile(path: path, cells: Self.cells)
    var seen: [Int] = []
    let stopped = outward.fill(outwardFrom: 30, shouldStop: { seen.count >= 5 }) { cell, _ in
      seen.append(cell)
    }
    #expect(!stopped)
    #expect(seen == [30, 31, 29, 32, 28])
    #expect(outward.measured.filter { $0 }.count == 5)
    #expect(outward.fill(outwardFrom: 30, onCell: { cell, _ in seen.append(cell) }))
    #expect(seen == LoudnessProfile.outwardOrder(from: 30, count: Self.cells))
    for cell in 0..<Self.cells {
      let (a, b) = (try #require(straight.levels[cell]), try #require(outward.levels[cell]))
      #expect(abs(a - b) < 0.01, "cell \(cell): \(a) from the start, \(b) outward")
    }
  }

  /// A stop asked for inside a long cell (checked every 256 samples) leaves that cell unmeasured, and
  /// a later fill measures it in full; `cell(atSeconds:)` maps a position to its cell.
  @Test func aStopInsideACellLeavesItUnmeasured() throws {
    let path = try memo("stop")
    let profile = try LoudnessProfile(path: path, cells: 1)
    var asked = 0
    // The first question comes before the cell, the second after 256 samples of it (5.5 s).
    #expect(
      !profile.fill(
        [0],
        shouldStop: {
          asked += 1; return asked > 1
        }))
    #expect(asked == 2)
    #expect(profile.measured == [false] && profile.levels == [nil])
    #expect(profile.fill([0]))
    let level = try #require(profile.levels[0])
    #expect(level > -26 && level < -6)

    let cells = try LoudnessProfile(path: path, cells: Self.cells)
    #expect(cells.cell(atSeconds: -1) == 0 && cells.cell(atSeconds: 0) == 0)
    #expect(cells.cell(atSeconds: 7.3) == 29)
    #expect(cells.cell(atSeconds: 1e9) == Self.cells - 1 && cells.cell(atSeconds: .nan) == 0)
  }

  /// A file torn after its index was read (the browser reads the index when it lists the memo; a
  /// copy still being written, a disk that lost its end): the cells up to the tear read as before,
  /// the cells past it are unknown, never guessed.
  @Test func aFileTornAfterItsIndexIsUnknownPastTheTear() throws {
    let path = try memo("torn")
    let reference = try LoudnessProfile(path: path, cells: Self.cells)
    reference.fill(0..<Self.cells)
    let track = try AudioTrack.read(path: path)
    // Tear the file inside the sample at 8 s, in the -20 dBFS burst.
    let cut = try #require(track.samples.first { Double($0.decodeTime) / 48_000 >= 8 })
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.truncate(atOffset: UInt64(cut.offset + cut.size / 2))
    try handle.close()
    let tear = Double(cut.decodeTime - track.primingSamples) / 48_000

    let profile = try LoudnessProfile(track: track, cells: Self.cells)
    #expect(profile.fill(outwardFrom: Self.cells - 1))
    let width = profile.duration / Double(Self.cells)
    var known = 0
    var unknown = 0
    for cell in 0..<Self.cells {
      if Double(cell + 1) * width <= tear {
        let level = try #require(profile.levels[cell], "cell \(cell) before the tear at \(tear) s")
        #expect(abs(level - reference.levels[cell]!) < 0.01, "cell \(cell)")
        known += 1
      } else if Double(cell) * width >= tear - 0.1 {
        #expect(profile.levels[cell] == nil, "cell \(cell) past the tear at \(tear) s")
        unknown += 1
      }
    }
    #expect(known >= 30 && unknown >= 20, "\(known) known, \(unknown) unknown")
  }

  /// Garbage in one sample midway (the bytes the player's own test uses, which libavcodec refuses):
  /// the cell it falls in is unknown, and the cells away from it are measured as usual, the decoder
  /// starting afresh after it.
  @Test func aDamagedStretchIsUnknownAndTheRestIsMeasured() throws {
    let path = try memo("damaged")
    let index = try MP4Audio.read(path: path)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let hit = try #require(index.samples.first { Double($0.decodeTime) / 48_000 >= 7 })
    for i in hit.offset..<hit.offset + hit.size { bytes[i] = UInt8(truncatingIfNeeded: i &* 37) }
    try bytes.write(to: URL(fileURLWithPath: path))
    let hitTime = Double(hit.decodeTime - Int64(index.primingSamples)) / 48_000

    let profile = try LoudnessProfile(path: path, cells: Self.cells)
    #expect(profile.fill(0..<Self.cells))
    let width = profile.duration / Double(Self.cells)
    let unknown = (0..<Self.cells).filter { profile.levels[$0] == nil }
    // The sample with garbage, or (if the decoder took it for audio) one just after it.
    #expect(!unknown.isEmpty)
    for cell in unknown {
      #expect(Double(cell + 1) * width > hitTime && Double(cell) * width < hitTime + 0.2, "cell \(cell)")
    }
    for cell in 0..<Self.cells where abs((Double(cell) + 0.5) * width - hitTime) > 0.5 {
      guard let expected = Self.expected(start: Double(cell) * width, end: Double(cell + 1) * width) else {
        continue
      }
      let level = try #require(profile.levels[cell], "cell \(cell) away from the damage")
      #expect(abs(level - expected) <= 2, "cell \(cell): \(level) dBFS, expected \(expected)")
    }
  }

  /// A recording killed mid-write and read afresh: its index lists its whole samples only, so its
  /// length (FORMAT.md §2) and its cells span those, every cell is known, and each cell away from
  /// an edge lands in its band as in the whole file.
  @Test func aTornRecordingSpansItsWholeSamples() throws {
    let whole = try memo("whole", extra: MemoPlaybackTests.fragmented)
    let torn = try TestAudio.folder().appendingPathComponent("torn_audio.m4a").path
    let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
    try bytes.prefix(bytes.count * 6 / 10).write(to: URL(fileURLWithPath: torn))
    let index = try MP4Audio.read(path: torn)
    #expect(index.cutShort)
    let length = try #require(index.durationSeconds)
    #expect(length > 4 && length < 12)

    let count = Int(length * 4)
    let profile = try LoudnessProfile(path: torn, cells: count)
    #expect(abs(profile.duration - length) < 0.001)
    #expect(profile.fill(0..<count))
    let width = profile.duration / Double(count)
    var checked = 0
    for cell in 0..<count {
      let level = try #require(profile.levels[cell], "cell \(cell) of the torn file")
      guard let expected = Self.expected(start: Double(cell) * width, end: Double(cell + 1) * width) else {
        continue
      }
      if expected == LoudnessProfile.floor {
        #expect(level == expected, "cell \(cell): \(level) dBFS in silence")
      } else {
        #expect(abs(level - expected) <= 2, "cell \(cell): \(level) dBFS, expected \(expected)")
      }
      checked += 1
    }
    #expect(checked >= count / 2)
  }

  /// `stash-tui --waveform` prints the profile as JSON through the binary: the fields, the points
  /// asked for, and the same levels as the library gives (rounded to hundredths).
  @Test func theWaveformOptionPrintsTheProfileAsJSON() throws {
    let path = try memo("cli")
    let result = try runProcess(
      Fixtures.product("stash-tui").path, ["--waveform", path, "--points", "\(Self.cells)"])
    #expect(result.status == 0, "\(result.standardError)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(json["file"] as? String == path)
    #expect(json["points"] as? Int == Self.cells)
    #expect(json["floor"] as? Double == LoudnessProfile.floor)
    #expect(abs((json["durationSeconds"] as? Double ?? 0) - Self.seconds) < 0.05)
    let dbfs = try #require(json["dbfs"] as? [Any])
    #expect(dbfs.count == Self.cells)
    let profile = try LoudnessProfile(path: path, cells: Self.cells)
    profile.fill(0..<Self.cells)
    for (cell, value) in dbfs.enumerated() {
      let level = try #require(profile.levels[cell])
      #expect(abs((value as? Double ?? .nan) - level) <= 0.005, "cell \(cell)")
    }

    let usage = try runProcess(Fixtures.product("stash-tui").path, ["--waveform", path, "--points", "0"])
    #expect(usage.status == 2 && usage.standardError.contains("--points takes a count"))
    let missing = try runProcess(Fixtures.product("stash-tui").path, ["--waveform", path + ".nobody"])
    #expect(missing.status == 1 && missing.standardError.contains("no such memo"))
  }
}
