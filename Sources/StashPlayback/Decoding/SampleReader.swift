import StashFormat

/// Reads a track's samples from its file, many at a time: samples that lie back to back (as they do
/// inside an mdat) are fetched with one `pread` of up to `windowBytes`, so decoding costs a handful
/// of reads per second of audio rather than one per sample.
final class SampleReader {
  private let file: ReadOnlyFile
  private let samples: [AudioTrack.Sample]
  private let windowBytes: Int
  private var window: [UInt8] = []
  private var windowOffset = 0

  init(track: AudioTrack, windowBytes: Int = 256 * 1024) throws(PlaybackError) {
    do {
      file = try ReadOnlyFile(path: track.path)
    } catch {
      throw PlaybackError(reading: error)
    }
    samples = track.samples
    self.windowBytes = windowBytes
  }

  /// Calls `body` with the bytes of sample `index`; throws when the file no longer holds them
  /// (it shrank, or a read failed).
  func withSample<R>(_ index: Int, time: Double, _ body: (UnsafeRawBufferPointer) throws(PlaybackError) -> R)
    throws(PlaybackError) -> R
  {
    let sample = samples[index]
    let inWindow =
      sample.offset >= windowOffset && sample.offset + sample.size <= windowOffset + window.count
    if !inWindow { try fill(from: index, time: time) }
    let start = sample.offset - windowOffset
    // Array.withUnsafeBytes rethrows untyped errors; carry the typed one out through a Result.
    let result: Result<R, PlaybackError> = window.withUnsafeBytes { raw in
      do throws(PlaybackError) {
        return .success(try body(UnsafeRawBufferPointer(rebasing: raw[start..<start + sample.size])))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Reads sample `index` and the contiguous run after it, up to the window size.
  private func fill(from index: Int, time: Double) throws(PlaybackError) {
    let first = samples[index]
    var end = first.offset + first.size
    var next = index + 1
    while next < samples.count, samples[next].offset == end,
      end + samples[next].size - first.offset <= windowBytes
    {
      end += samples[next].size
      next += 1
    }
    do {
      window = try file.read(at: first.offset, count: end - first.offset)
    } catch {
      var failure = PlaybackError(reading: error)
      failure.time = time
      throw failure
    }
    windowOffset = first.offset
    guard window.count >= first.size else {
      throw PlaybackError(
        code: .damagedAudio,
        message:
          "the audio file ends before the sample at byte \(first.offset): it was cut short after it was indexed",
        path: file.path, time: time)
    }
  }
}
