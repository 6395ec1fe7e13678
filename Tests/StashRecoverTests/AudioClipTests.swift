import Foundation
import StashFormat
import StashRecover
import StashTestSupport
import Testing

/// Clips cut from real AAC (ffmpeg's, with clicks at known samples): the frames chosen, the edit
/// list, and what ffmpeg makes of the file written.
@Suite struct AudioClipTests {
  /// A memo folder and a folder to write clips in, with a 20-second tone broken by clicks every
  /// 0.37 s (so no stretch repeats the next), in the phone's fragmented layout or finished.
  struct Setup {
    let root: ScratchFolder
    var memoFolder: String { root.path + "/memos" }
    var outFolder: String { root.path + "/out" }
    var source: String { memoFolder + "/2026-03-14T08-05-12_audio.m4a" }

    init(fragmented: Bool) throws {
      root = try ScratchFolder("stash-clip")
      for folder in [memoFolder, outFolder] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
      var arguments = [
        "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
        "aevalsrc=0.2*sin(2*PI*330*t)+if(eq(mod(n\\,17760)\\,0)\\,0.9\\,0):s=48000:d=20",
        "-ac", "1", "-ar", "48000", "-c:a", "aac", "-b:a", "64k",
        // No perceptual noise substitution: its noise is random at each decode, and the clip's
        // samples are compared with the source's.
        "-aac_pns", "0",
      ]
      if fragmented {
        arguments += [
          "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "1000000",
        ]
      }
      let made = try runProcess("ffmpeg", arguments + [source])
      try #require(made.status == 0, "ffmpeg: \(made.standardError)")
    }

    /// Decodes `path` to 32-bit floats; with `raw`, the edit list is ignored (every frame from 0).
    func decode(_ path: String, raw: Bool = false) throws -> [Float] {
      let out = root.path + "/decoded-\(UUID().uuidString).f32"
      let made = try runProcess(
        "ffmpeg",
        ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + (raw ? ["-ignore_editlist", "1"] : [])
          + ["-i", path, "-f", "f32le", "-ac", "1", out])
      try #require(made.status == 0, "ffmpeg: \(made.standardError)")
      let data = try Data(contentsOf: URL(fileURLWithPath: out))
      return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The packets of `path`'s audio, concatenated, as ffmpeg's demuxer gives them.
    func packets(_ path: String, raw: Bool = false) throws -> [UInt8] {
      let out = root.path + "/packets-\(UUID().uuidString).bin"
      let made = try runProcess(
        "ffmpeg",
        ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + (raw ? ["-ignore_editlist", "1"] : [])
          + ["-i", path, "-map", "0:a", "-c", "copy", "-f", "data", out])
      try #require(made.status == 0, "ffmpeg: \(made.standardError)")
      return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    @discardableResult func write(from: Double, to: Double, name: String = "clip.m4a", replace: Bool = false)
      throws -> AudioClip
    {
      try AudioClip.write(
        source: source, memoFolder: memoFolder, from: from, to: to, title: "Walk to the river",
        recordedAt: 1_773_475_512, output: outFolder + "/" + name, replace: replace,
        fileSystem: SystemFileSystem())
    }
  }

  static let spans: [(fragmented: Bool, from: Double, to: Double)] = [
    (true, 3.2, 7.45), (false, 3.2, 7.45), (true, 0, 2.5), (true, 12.01, 20), (false, 0.01, 19.99),
  ]

  @Test func spansAreGiven() { #expect(!Self.spans.isEmpty) }

  @Test(arguments: spans)
  func decodedClipIsTheSpanToTheSample(_ span: (fragmented: Bool, from: Double, to: Double)) throws {
    let setup = try Setup(fragmented: span.fragmented)
    defer { setup.root.remove() }
    let clip = try setup.write(from: span.from, to: span.to)
    let audio = try MP4Audio.read(path: setup.source)
    // Every frame of the source, decoded from its start, priming included.
    let whole = try setup.decode(setup.source, raw: true)
    let decoded = try setup.decode(setup.outFolder + "/clip.m4a")
    let start = audio.primingSamples + Int((span.from * 48000).rounded())
    let count = Int(((span.to - span.from) * 48000).rounded())
    // ffmpeg (5.1) decodes to the end of the last frame, its own files' edit lists as ours: the
    // end of the span is the edit list's, which ffprobe reads below. The rest of that frame is all.
    #expect(
      decoded.count >= count && decoded.count < count + 1024, "decoded \(decoded.count), the span is \(count)"
    )
    // The clip's samples are the source's at FROM: no shift fits better than none.
    func distance(_ shift: Int) -> Float {
      var total: Float = 0
      for i in 0..<min(decoded.count, count) - 16 where start + shift + i >= 0 {
        total += abs(decoded[i] - whole[start + shift + i])
      }
      return total
    }
    let best = (-8...8).min { distance($0) < distance($1) }
    #expect(best == 0, "the clip matches the source \(best ?? 99) samples off FROM")
    #expect(distance(0) / Float(count) < 1e-6, "the clip's samples differ from the source's")
    // The edit list starts at FROM in the clip's media; the frame before the one covering FROM is kept.
    #expect(clip.mediaStart == Int64(start) - clip.frames[0].decodeTime)
    #expect(clip.firstFrame == 0 || clip.mediaStart >= 1024 && clip.mediaStart < 2048)
    // The packets are the source's, byte for byte.
    let sourcePackets = try setup.packets(setup.source, raw: true)
    let before = audio.samples[..<clip.firstFrame].reduce(0) { $0 + $1.size }
    let clipPackets = try setup.packets(setup.outFolder + "/clip.m4a", raw: true)
    #expect(clipPackets.count == clip.frames.reduce(0) { $0 + $1.size })
    #expect(Array(sourcePackets[before..<(before + clipPackets.count)]) == clipPackets)
    // ffprobe's length is the span's to within one AAC frame.
    let probed = try runProcess(
      "ffprobe",
      [
        "-v", "error", "-show_entries", "stream=duration_ts:format=duration:format_tags=title", "-of", "json",
        setup.outFolder + "/clip.m4a",
      ])
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(probed.standardOutput.utf8)) as? [String: Any])
    let format = try #require(json["format"] as? [String: Any])
    let duration = try #require((format["duration"] as? String).flatMap(Double.init))
    #expect(abs(duration - (span.to - span.from)) <= 1024 / 48000, "ffprobe says \(duration) s")
    let stream = try #require((json["streams"] as? [[String: Any]])?.first)
    let shown = try #require(stream["duration_ts"] as? Int)
    #expect(abs(shown - count) <= 1, "the edit list presents \(shown) samples, the span is \(count)")
    let title = (format["tags"] as? [String: Any])?["title"] as? String
    #expect(title == AudioClip.title(memo: "Walk to the river", from: span.from, to: span.to))
  }

  @Test func titleNamesTheSpan() {
    #expect(
      AudioClip.title(memo: "Walk to the river", from: 83, to: 185.5) == "Walk to the river (1:23–3:05)")
  }

  @Test func spanPastTheEndStatesTheLength() throws {
    let setup = try Setup(fragmented: true)
    defer { setup.root.remove() }
    #expect {
      try setup.write(from: 5, to: 25)
    } throws: { error in
      guard let error = error as? RecoverError else { return false }
      return error.code == .outOfRange && error.message.contains("which is 0:20.0")
        && error.path == setup.source
    }
    #expect(throws: RecoverError.self) { try setup.write(from: 7, to: 3) }
    #expect(!FileManager.default.fileExists(atPath: setup.outFolder + "/clip.m4a"))
  }

  @Test func tornMemoClipsWhatDecodes() throws {
    let setup = try Setup(fragmented: true)
    defer { setup.root.remove() }
    let bytes = try Data(contentsOf: URL(fileURLWithPath: setup.source))
    try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: setup.source))
    let audio = try MP4Audio.read(path: setup.source)
    #expect(audio.cutShort)
    let clip = try setup.write(from: 1, to: 4)
    #expect(clip.frames.count > 0)
    #expect(throws: RecoverError.self) { try setup.write(from: 1, to: 19, name: "late.m4a") }
  }

  @Test func refusesToReplaceOrWriteIntoTheMemoFolder() throws {
    let setup = try Setup(fragmented: true)
    defer { setup.root.remove() }
    try Data("mine".utf8).write(to: URL(fileURLWithPath: setup.outFolder + "/clip.m4a"))
    #expect { try setup.write(from: 1, to: 2) } throws: { ($0 as? RecoverError)?.code == .exists }
    #expect(try Data(contentsOf: URL(fileURLWithPath: setup.outFolder + "/clip.m4a")) == Data("mine".utf8))
    try setup.write(from: 1, to: 2, replace: true)
    #expect {
      try AudioClip.write(
        source: setup.source, memoFolder: setup.memoFolder, from: 1, to: 2, title: "t", recordedAt: 0,
        output: setup.memoFolder + "/clip.m4a", replace: true, fileSystem: SystemFileSystem())
    } throws: { ($0 as? RecoverError)?.code == .overlap }
    #expect(!FileManager.default.fileExists(atPath: setup.memoFolder + "/clip.m4a"))
  }
}
