import Testing

@testable import StashPlayback

/// The loudness record a change made again on a pulse device picks its moment from.
@Suite struct HandedPeaksTests {
  /// Stereo frames handed over in uneven writes: 100 loud, 300 quiet, 200 loud (blocks of 5 ms
  /// at 8 kHz: 40 frames).
  func record() -> HandedPeaks {
    var peaks = HandedPeaks()
    peaks.reset(rate: 8000)
    let frames: [Float] =
      Array(repeating: 0.8, count: 200) + Array(repeating: 0.01, count: 600)
      + Array(repeating: -0.9, count: 400)
    var at = 0
    for count in [7, 33, 61, 99, 100, 300] {
      frames.withUnsafeBufferPointer { all in
        peaks.add(
          UnsafeBufferPointer(rebasing: all[(at * 2)..<((at + count) * 2)]), frames: count, channels: 2)
      }
      at += count
    }
    return peaks
  }

  @Test func theQuietestStretchIsFoundOnWholeBlocks() throws {
    let peaks = record()
    #expect(peaks.block == 40)
    #expect(peaks.peaks.count == 15)
    // The quiet frames are 100 to 400: the whole blocks in them start at 120.
    let best = try #require(peaks.quietest(from: 0, to: 600, length: 200))
    #expect(best.start == 120 && best.peak == 0.01)
    // A stretch longer than the pause takes in a loud block, the quieter side first.
    #expect(peaks.quietest(from: 0, to: 600, length: 320)?.peak == 0.8)
    // Only starts between the bounds count, and only stretches wholly handed over.
    #expect(peaks.quietest(from: 0, to: 40, length: 80)?.peak == 0.8)
    #expect(peaks.quietest(from: 401, to: 600, length: 40)?.start == 440)
    #expect(peaks.quietest(from: 580, to: 600, length: 40) == nil)
  }

  @Test func whatWasHeardIsForgottenAndFramesKeepTheirPlace() throws {
    var peaks = HandedPeaks()
    peaks.reset(rate: 48_000)
    let loud = [Float](repeating: 0.5, count: 240 * 600)
    loud.withUnsafeBufferPointer { peaks.add($0, frames: 240 * 600, channels: 1) }
    let quiet = [Float](repeating: 0, count: 240 * 10)
    quiet.withUnsafeBufferPointer { peaks.add($0, frames: 240 * 10, channels: 1) }
    peaks.forget(before: 240 * 550)
    #expect(peaks.first == 240 * 550)
    #expect(peaks.quietest(from: 0, to: 240 * 700, length: 480)?.start == 240 * 600)
    peaks.reset(rate: 48_000)
    #expect(peaks.first == 0 && peaks.peaks.isEmpty)
  }
}
