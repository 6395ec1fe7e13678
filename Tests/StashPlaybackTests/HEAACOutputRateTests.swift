import Foundation
import StashFormat
import StashTestSupport
import Testing

@testable import StashPlayback

/// HE-AAC decodes at twice the rate its container declares: the sample entry and the media clock
/// say the core's 22,050 Hz, the decoder outputs 44,100 Hz. Debian's ffmpeg cannot encode HE-AAC,
/// so the file is made by hand: ffmpeg's AAC-LC at 22,050 Hz, whose AudioSpecificConfig already
/// ends in a sync extension (0x2b7, object type 5) saying "no SBR", is patched to say "SBR, at
/// 44,100 Hz". libavcodec then runs its SBR tool over the plain core (with no SBR data in the
/// frames it only upsamples) and outputs 2048 frames per access unit at 44,100 Hz, which is what a
/// real HE-AAC file does. The file goes through the player onto ALSA's `file` PCM as a WAV.
@Suite struct HEAACOutputRateTests {
  static let coreRate = 22_050
  static let outputRate = 44_100
  static let seconds = 2.0

  struct WAV {
    let rate: Int
    let channels: Int
    let frames: Int
  }

  /// An MP4 of `seconds` of AAC-LC at the core rate whose config signals SBR at twice the rate.
  func heAACFile() throws -> (folder: URL, path: String) {
    let folder = try TestAudio.folder()
    let path = folder.appendingPathComponent("he-aac_audio.m4a").path
    try TestAudio.sweep(path, seconds: Self.seconds, rate: Self.coreRate)
    try Self.signalSBR(path)
    return (folder, path)
  }

  /// Patches the AAC-LC config ffmpeg writes for 22,050 Hz mono in the MP4 at `path` to signal
  /// SBR at 44,100 Hz (explicit, backward compatible): an HE-AAC file.
  static func signalSBR(_ path: String) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    // AAC-LC, 22,050 Hz, mono (0x1388), then sync extension 0x2b7, object type 5, sbrPresentFlag 0.
    let noSBR: [UInt8] = [0x13, 0x88, 0x56, 0xE5, 0x00]
    let at = try #require(
      (0...(bytes.count - noSBR.count)).first { Array(bytes[$0..<$0 + noSBR.count]) == noSBR },
      "ffmpeg's AAC-LC config at 22,050 Hz was expected to be 138856e500")
    // sbrPresentFlag 1, then extensionSamplingFrequencyIndex 4 (44,100 Hz): 1 0100 000.
    bytes[at + 4] = 0xA0
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// The rate, channels and frames of a WAV ALSA's `file` PCM wrote (its header says integer PCM
  /// of 32 bits for the float samples; only the layout matters here).
  func readWAV(_ path: String) throws -> WAV {
    let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    try #require(data.count >= 44 && data[0..<4] == [0x52, 0x49, 0x46, 0x46], "not a WAV: \(path)")
    func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(data[at + $1]) << (8 * $1) } }
    func u16(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 }
    let channels = u16(22)
    let bytesPerFrame = channels * u16(34) / 8
    try #require(bytesPerFrame > 0)
    return WAV(rate: u32(24), channels: channels, frames: (data.count - 44) / bytesPerFrame)
  }

  /// Plays `track` to its end onto a WAV file; returns what the device was opened at and given.
  func play(_ track: AudioTrack, into wav: String) throws -> WAV {
    let player = Player(device: "file:FILE=\(wav),FORMAT=wav")
    try player.load(track)
    player.play()
    let end = waitFor(player) { $0.state != .playing && $0.state != .idle }
    #expect(end.state == .ended)
    return try readWAV(wav)
  }

  @Test func playsAtTheDecodersRateNotTheContainers() throws {
    let (folder, path) = try heAACFile()
    let audio = try MP4Audio.read(path: path)
    // The container's own rates are the core's; the config's SBR signal doubles the output.
    #expect(audio.timescale == UInt32(Self.coreRate))
    #expect(audio.coreSampleRate == Self.coreRate && audio.sampleRate == Self.outputRate && audio.sbr)
    let length = try #require(audio.durationSeconds)
    #expect(abs(length - Self.seconds) < 1e-9)

    // ffmpeg, the reference, decodes it at 44,100 Hz too.
    let probe = try runProcess(
      "ffprobe", ["-v", "error", "-show_entries", "stream=sample_rate", "-of", "csv=p=0", path])
    #expect(probe.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "\(Self.outputRate)")

    let track = try AudioTrack.read(path: path)
    let wav = try play(track, into: folder.appendingPathComponent("listed.wav").path)
    #expect(wav.rate == Self.outputRate)
    // Every heard frame, at the output rate: the length the listing shows is the length played.
    #expect(wav.frames == Int((length * Double(Self.outputRate)).rounded()))
  }

  /// A reader that cannot see the SBR (implicit signalling: nothing in the config, SBR data in the
  /// frames only) hands the player the core rate: the device is still opened at the rate the
  /// decoder outputs, and the length in media-clock units still holds.
  @Test func aTrackDeclaringTheCoreRateStillPlaysAtTheOutputRate() throws {
    let (folder, path) = try heAACFile()
    var track = try AudioTrack.read(path: path)
    track.sampleRate = Self.coreRate
    let wav = try play(track, into: folder.appendingPathComponent("core.wav").path)
    #expect(wav.rate == Self.outputRate)
    #expect(wav.frames == Int(Self.seconds) * Self.outputRate)
  }
}
