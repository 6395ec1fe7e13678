import Foundation
import StashFormat
import StashTestSupport
import Testing

@testable import StashPlayback

/// Memos as MP4 files made by ffmpeg, read by StashFormat's MP4 reader, played by the `stash-tui
/// --play` binary into ALSA's `file` PCM, and compared with ffmpeg's own decode.
@Suite struct MemoPlaybackTests {
  static let rate = 48_000
  static let seconds = 5.0

  /// A memo folder holding `name_audio.m4a`, a sweep made by ffmpeg with `extra` flags.
  func memo(_ name: String, _ extra: [String]) throws -> (folder: URL, audio: String) {
    let folder = try TestAudio.folder()
    let audio = folder.appendingPathComponent("\(name)_audio.m4a").path
    try TestAudio.sweep(audio, seconds: Self.seconds, extra: extra)
    return (folder, audio)
  }

  static let fragmented = ["-movflags", "+frag_keyframe+empty_moov+default_base_moof"]

  func play(_ arguments: [String], raw: String) throws -> ProcessResult {
    try runProcess(
      Fixtures.product("stash-tui").path,
      ["--play"] + arguments + ["--device", "file:FILE=\(raw),FORMAT=raw"])
  }

  /// ffmpeg writes no edit list when fragmenting and then decodes the priming too: our 1024-frame
  /// rule puts heard frame 0 at ffmpeg's frame 1024.
  @Test func fragmentedMemoWithoutEditListDropsTheAssumedPriming() throws {
    let (folder, audio) = try memo("2026-05-01 walk", Self.fragmented)
    let raw = folder.appendingPathComponent("out.raw").path
    let result = try play([audio], raw: raw)
    #expect(result.status == 0, "\(result.standardError)")
    let written = try TestAudio.floats(raw)
    let reference = try TestAudio.ffmpegDecode(audio)
    #expect(written.count == Int(Self.seconds) * Self.rate)
    let difference = TestAudio.maxDifference(written[...], reference[1024..<1024 + written.count])
    #expect(difference != nil && difference! < 1e-6)
    // The length heard is the length the listing reads.
    let length = try MP4Audio.read(path: audio).durationSeconds
    #expect(length == Double(written.count) / Double(Self.rate))
  }

  /// With an edit list ffmpeg drops the priming itself (but not the end trim): the two line up at
  /// frame 0, and we stop where the edit list says.
  @Test func plainMemoFollowsItsEditList() throws {
    let (folder, audio) = try memo("plain", [])
    let raw = folder.appendingPathComponent("out.raw").path
    let result = try play([audio], raw: raw)
    #expect(result.status == 0, "\(result.standardError)")
    let written = try TestAudio.floats(raw)
    let reference = try TestAudio.ffmpegDecode(audio)
    #expect(written.count == Int(Self.seconds) * Self.rate)
    #expect(reference.count > written.count)
    let difference = TestAudio.maxDifference(written[...], reference[0..<written.count])
    #expect(difference != nil && difference! < 1e-6)
  }

  /// `--from`/`--to` with the memo named by its base path (or by its transcript's name): exactly
  /// the frames of that range reach the device. (A `--from` past the end is refused with exit 2:
  /// TUICommandLineTests.playFromPastTheEndIsRefusedWithTheLength.)
  @Test(arguments: [("0:01.5", "3", ""), ("2", "", "_transcription.vtt"), ("4.25", "4.5", "")])
  func playsTheRangeOfAMemoNamedAnyWay(from: String, to: String, suffix: String) throws {
    let (folder, audio) = try memo("2026-05-02 talk", Self.fragmented)
    let raw = folder.appendingPathComponent("out.raw").path
    let base = folder.appendingPathComponent("2026-05-02 talk").path
    var arguments = [base + suffix, "--from", from]
    if !to.isEmpty { arguments += ["--to", to] }
    let result = try play(arguments, raw: raw)
    #expect(result.status == 0, "\(result.standardError)")
    let total = Int(Self.seconds) * Self.rate
    let first = min(total, Int((TimeText.seconds(from)! * Double(Self.rate)).rounded()))
    let last = to.isEmpty ? total : Int((TimeText.seconds(to)! * Double(Self.rate)).rounded())
    let written = (try? TestAudio.floats(raw)) ?? []
    #expect(written.count == last - first)
    let reference = try TestAudio.ffmpegDecode(audio)
    let difference = TestAudio.maxDifference(written[...], reference[(1024 + first)..<(1024 + last)])
    #expect(difference != nil && difference! < 1e-6)
  }

  /// A recording killed mid-write (its last fragment torn) plays up to its last whole sample and
  /// ends cleanly; ffmpeg cannot read it, so the reference is the untorn file's decode.
  @Test func tornRecordingEndsAtItsLastWholeSample() throws {
    let (folder, whole) = try memo("whole", Self.fragmented)
    let torn = folder.appendingPathComponent("torn_audio.m4a").path
    let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
    try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: torn))
    let index = try MP4Audio.read(path: torn)
    #expect(index.cutShort)
    let raw = folder.appendingPathComponent("out.raw").path
    let result = try play([torn], raw: raw)
    #expect(result.status == 0, "\(result.standardError)")
    let written = try TestAudio.floats(raw)
    #expect(written.count == index.samples.count * 1024 - 1024)
    #expect(written.count < Int(Self.seconds) * Self.rate)
    let reference = try TestAudio.ffmpegDecode(whole)
    let difference = TestAudio.maxDifference(written[...], reference[1024..<1024 + written.count])
    #expect(difference != nil && difference! < 1e-6)
  }

  /// A file with no index fails with the reader's reason, exits non-zero, and the device gets
  /// nothing (it is never even opened).
  @Test func damagedAudioFailsWithItsReasonAndWritesNothing() throws {
    let (folder, whole) = try memo("whole", Self.fragmented)
    let damaged = folder.appendingPathComponent("damaged_audio.m4a").path
    try Data(contentsOf: URL(fileURLWithPath: whole)).prefix(300).write(to: URL(fileURLWithPath: damaged))
    let reason = try #require(try MP4Audio.read(path: damaged).damaged)
    let raw = folder.appendingPathComponent("out.raw").path
    let result = try play([damaged], raw: raw)
    #expect(result.status == 1)
    #expect(result.standardError.contains(reason))
    #expect(!FileManager.default.fileExists(atPath: raw))
    // The player says the same when loading, and its state keeps the reason.
    let player = Player(device: "file:FILE=\(raw),FORMAT=raw")
    #expect(throws: PlaybackError.self) { try player.load(path: damaged) }
    guard case .failed(let error) = player.snapshot.state else {
      Issue.record("expected failed, got \(player.snapshot.state)")
      return
    }
    #expect(error.code == .damagedAudio && error.message == reason)
    player.play()
    #expect(player.snapshot.state == .failed(error))
  }

  @Test func aMissingMemoIsNamedAsGiven() throws {
    let folder = try TestAudio.folder().path
    do {
      _ = try AudioTrack.audioPath(forMemo: folder + "/nonexist.m4a")
      Issue.record("a missing memo was found")
    } catch {
      #expect(error.path == folder + "/nonexist.m4a")
      #expect(
        error.message == "no such memo: neither this path nor \(folder)/nonexist.m4a_audio.m4a exists")
    }
  }

  @Test func headlessFailuresGoToStandardErrorWithAStatus() throws {
    let folder = try TestAudio.folder()
    let raw = folder.appendingPathComponent("out.raw").path
    let missing = try play([folder.appendingPathComponent("nobody").path], raw: raw)
    #expect(missing.status == 1)
    #expect(missing.standardError.contains("no such memo"))
    let (_, audio) = try memo("x", Self.fragmented)
    let noDevice = try runProcess(
      Fixtures.product("stash-tui").path, ["--play", audio, "--device", "nope_nope"])
    #expect(noDevice.status == 1)
    #expect(noDevice.standardError.contains("cannot open the sound device 'nope_nope'"))
    let usage = try play([audio, "--from", "soon"], raw: raw)
    #expect(usage.status == 2)
    #expect(usage.standardError.contains("--from takes a time"))
  }
}

@Suite struct DecoderFailureTests {
  /// Garbage inside the audio: what comes before it is played, the failure names the time of the
  /// sample that would not decode and libavcodec's reason, and a seek past it plays on to the end.
  @Test func aDecoderErrorIsStatedWithItsTimeAndASeekPlaysOn() throws {
    let folder = try TestAudio.folder()
    let audio = folder.appendingPathComponent("bad_audio.m4a").path
    try TestAudio.sweep(audio, seconds: 5, extra: MemoPlaybackTests.fragmented)
    let index = try MP4Audio.read(path: audio)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: audio))
    let hit = index.samples[index.samples.count / 2]
    for i in hit.offset..<hit.offset + hit.size { bytes[i] = UInt8(truncatingIfNeeded: i &* 37) }
    try bytes.write(to: URL(fileURLWithPath: audio))
    let hitTime = Double(hit.decodeTime - Int64(index.primingSamples)) / 48_000

    let raw = folder.appendingPathComponent("out.raw").path
    let player = Player(device: "file:FILE=\(raw),FORMAT=raw")
    try player.load(path: audio)
    player.play()
    let failed = waitFor(player) { $0.state != .playing }
    guard case .failed(let error) = failed.state else {
      Issue.record("expected a decoder failure, got \(failed.state)")
      return
    }
    #expect(error.code == .decoder)
    #expect(error.message.contains("Invalid data found when processing input"))
    let time = try #require(error.time)
    // The sample with garbage, or (if the decoder took it for audio) one just after it.
    #expect(time >= hitTime && time < hitTime + 0.1)
    #expect(failed.position == time)
    let written = try TestAudio.floats(raw)
    #expect(written.count == Int((time * 48_000).rounded()))
    let reference = try TestAudio.ffmpegDecode(audio)
    let difference = TestAudio.maxDifference(written[...], reference[1024..<1024 + written.count])
    #expect(difference != nil && difference! < 1e-6)

    player.seek(to: time + 0.5)
    player.resume()
    #expect(waitFor(player) { $0.state != .playing && $0.state != .paused }.state == .ended)
  }
}

@Suite struct ChannelAndRateTests {
  /// A stereo memo at 44.1 kHz reaches the device interleaved, left then right, at its own rate.
  @Test func stereoAt44100IsInterleavedAsRecorded() throws {
    let folder = try TestAudio.folder()
    let audio = folder.appendingPathComponent("stereo_audio.m4a").path
    try TestAudio.sweep(audio, seconds: 2, rate: 44_100, channels: 2, extra: MemoPlaybackTests.fragmented)
    let raw = folder.appendingPathComponent("out.raw").path
    let player = Player(device: "file:FILE=\(raw),FORMAT=raw")
    try player.load(path: audio)
    player.play()
    let end = waitFor(player) { $0.state != .playing }
    #expect(end.state == .ended)
    #expect(end.duration == 2)
    let written = try TestAudio.floats(raw)
    #expect(written.count == 2 * 88_200)
    let reference = try TestAudio.ffmpegDecode(audio, channels: 2, rate: 44_100)
    let difference = TestAudio.maxDifference(written[...], reference[2048..<2048 + written.count])
    #expect(difference != nil && difference! < 1e-6)
  }
}

@Suite struct UnreadableLengthTests {
  /// A file whose track clock (mdhd timescale) is 0: the reader cannot give a length, yet every
  /// whole sample plays (1024 frames each, less the priming), the clock counts up, and the length
  /// stays unknown after the end. Fragmented (the priming assumed) and plain, whose edit list
  /// gives the priming but whose length cannot be put in media time: nothing is trimmed from its
  /// end (it once trimmed everything and played nothing).
  @Test(arguments: [true, false]) func aMemoWithoutAClockStillPlaysToItsEnd(fragmented: Bool) throws {
    let folder = try TestAudio.folder()
    let audio = folder.appendingPathComponent("noclock_audio.m4a").path
    try TestAudio.sweep(audio, seconds: 2, extra: fragmented ? MemoPlaybackTests.fragmented : [])
    // ffmpeg trims the plain file's priming by its edit list, and not the fragmented one's.
    let reference = Array(try TestAudio.ffmpegDecode(audio).dropFirst(fragmented ? 1024 : 0))
    try MP4Patch.zeroTrackTimescale(audio)
    let index = try MP4Audio.read(path: audio)
    #expect(index.durationSeconds == nil && index.lengthUnreadableReason != nil && index.damaged == nil)

    let raw = folder.appendingPathComponent("out.raw").path
    let player = Player(device: "file:FILE=\(raw),FORMAT=raw")
    try player.load(path: audio)
    #expect(player.snapshot.duration == nil)
    // What the index counts is given apart from a length: a scale the browser draws against.
    let counted = try #require(player.snapshot.countedDuration)
    player.play()
    let end = waitFor(player) { $0.state != .playing }
    #expect(end.state == .ended)
    let frames = index.samples.count * 1024 - 1024
    #expect(abs(counted - end.position) < 1e-9, "counted \(counted) s, played to \(end.position) s")
    #expect(abs(counted * 48_000 - Double(frames)) < 1e-6)
    // Still unknown after the end, so the next play counts up as this one did (issue 15).
    #expect(end.duration == nil)
    let written = try TestAudio.floats(raw)
    #expect(written.count == frames)
    // The plain file's last 1024-frame block runs past the edit's end, where ffmpeg stops.
    let compared = min(frames, reference.count)
    #expect(frames - compared < 1024)
    let difference = TestAudio.maxDifference(written[..<compared], reference[..<compared])
    #expect(difference != nil && difference! < 1e-6)
  }
}
