import Foundation
import StashFormat
import Testing

/// The reader against real files made by ffmpeg, checked against ffprobe wherever ffprobe reads them.
@Suite struct MP4AudioTests {
  let files: MP4TestFiles

  init() throws { files = try MP4TestFiles.shared.get() }

  /// Sample count, every sample's position, size and decode time, and the length agree with ffprobe.
  @Test(arguments: [
    "fragmented.m4a", "finished.m4a", "faststart.m4a", "speech-fragmented.m4a", "speech-finished.m4a",
    "with-video.mp4", "with-video-finished.mp4",
  ])
  func agreesWithFFprobe(name: String) throws {
    let path = files.path(name)
    let audio = try MP4Audio.read(path: path)
    let probe = try #require(try FFprobeAudio.read(path))
    #expect(audio.damaged == nil)
    #expect(audio.codec == "mp4a.40.2")
    #expect(audio.sampleRate == 48000)
    #expect(audio.channels == 1)
    #expect(audio.timescale == 48000)
    #expect(audio.tailBytes == 0)
    #expect(!audio.cutShort)
    // ffprobe leaves out samples that the edit list trims away entirely; every other one matches.
    #expect(audio.sampleCount >= probe.packets.count)
    #expect(audio.sampleCount > 100)
    // ffprobe shifts decode times by the edit list's media time; without one it does not.
    let shift = audio.fragmented ? 0 : Int64(audio.primingSamples)
    let ours = audio.samples.map {
      FFprobeAudio.Packet(position: $0.offset, size: $0.size, decodeTime: $0.decodeTime - shift)
    }
    let firstDifference = zip(ours, probe.packets).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    #expect(firstDifference == nil, "sample \(firstDifference ?? 0) differs from ffprobe's packet")
    let trimmedAway = audio.samples.dropFirst(probe.packets.count).reduce(0) { $0 + Int($1.duration) }
    #expect(trimmedAway <= audio.endTrimSamples)
    #expect(audio.primingSamples == 1024)
    let seconds = try #require(audio.durationSeconds)
    let units = try #require(probe.durationUnits)
    if audio.fragmented {
      // ffprobe counts the priming in; FORMAT.md's rule removes 1024 samples of it.
      #expect(abs(seconds - Double(units - 1024) / 48000) < 1e-9)
      #expect(audio.endTrimSamples == 0)
    } else {
      // ffprobe applies the edit list as we do.
      #expect(abs(seconds - Double(units) / 48000) < 1e-9)
    }
    // The listing's quick summary gives the same length and layout.
    let summary = AudioSummary.read(path: path)
    #expect(summary.state == .ok)
    #expect(summary.fragmented == audio.fragmented)
    #expect(summary.durationSeconds == audio.durationSeconds)
  }

  /// A fragmented file and its finished twin differ by less than one AAC frame under the priming rule.
  @Test(arguments: [("fragmented.m4a", "finished.m4a"), ("speech-fragmented.m4a", "speech-finished.m4a")])
  func twinsAgreeWithinOneFrame(pair: (String, String)) throws {
    let fragmented = try MP4Audio.read(path: files.path(pair.0))
    let finished = try MP4Audio.read(path: files.path(pair.1))
    #expect(fragmented.fragmented && !finished.fragmented)
    let a = try #require(fragmented.durationSeconds)
    let b = try #require(finished.durationSeconds)
    #expect(abs(a - b) < 1024.0 / 48000)
    #expect(fragmented.sampleCount == finished.sampleCount)
    #expect(fragmented.audioSpecificConfig == finished.audioSpecificConfig)
  }

  /// The sine files are 11 s long: the length is that, not the priming-inflated 11.02 s.
  @Test func lengthIsTheSourceLength() throws {
    for name in ["fragmented.m4a", "finished.m4a", "faststart.m4a"] {
      let seconds = try #require(try MP4Audio.read(path: files.path(name)).durationSeconds)
      #expect(abs(seconds - 11) < 1024.0 / 48000, "\(name): \(seconds)")
    }
  }

  /// Speech made by espeak-ng: decode times run without a gap and durations sum to the length.
  @Test func samplesAreContiguousInTime() throws {
    let audio = try MP4Audio.read(path: files.path("speech-fragmented.m4a"))
    var expected: Int64 = 0
    for sample in audio.samples {
      #expect(sample.decodeTime == expected)
      expected += Int64(sample.duration)
    }
    let seconds = try #require(audio.durationSeconds)
    #expect(abs(seconds - Double(expected - 1024) / 48000) < 1e-9)
  }

  /// A file that is not a regular file, or is missing, throws with the path.
  @Test func unreadableFilesThrow() throws {
    #expect(throws: FormatError.self) { try MP4Audio.read(path: files.path("no-such-file.m4a")) }
    #expect(throws: FormatError.self) { try MP4Audio.read(path: files.folder.path) }
    if case .damaged = AudioSummary.read(path: files.path("no-such-file.m4a")).state {
    } else {
      Issue.record("a missing file must read as damaged in the listing")
    }
  }
}
