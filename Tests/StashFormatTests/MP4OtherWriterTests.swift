import Foundation
import StashFormat
import Testing

/// What other writers put in their files, built byte by byte: iTunes gapless metadata, Apple's
/// Voice Memos (no edit list, a movie header shorter than its samples), HE-AAC signalled after
/// the core's config, an index whose media data is absent, and encrypted AAC.
@Suite struct MP4OtherWriterTests {
  typealias B = MP4BoxBuilder
  let files: MP4TestFiles

  init() throws { files = try MP4TestFiles.shared.get() }

  /// A finished file, moov first: `frames` samples of 1024 at `timescale`, 8 bytes each, whose
  /// media data is written unless `withMedia` is false.
  struct Finished {
    var entry = B.mp4a(children: B.esds(config: B.lcConfig))
    var timescale: UInt32 = 48000
    var frames = 48
    var movieTimescale: UInt32 = 1000
    var movieDuration: UInt32 = 0
    var edits: [(UInt64, Int64)]? = nil
    var udta: [UInt8] = []
    var withMedia = true

    func bytes() -> [UInt8] {
      func moov(_ offset: UInt64) -> [UInt8] {
        let stbl = B.stbl(
          entry: entry, durations: [UInt32](repeating: 1024, count: frames),
          sizes: [UInt32](repeating: 8, count: frames), chunkOffset: offset)
        return B.moov(
          tracks: [B.trak(id: 1, timescale: timescale, edits: edits, stbl: stbl)], timescale: movieTimescale,
          duration: movieDuration, extra: udta)
      }
      let start = B.ftyp().count + moov(0).count + 8
      let media = withMedia ? B.box("mdat", [UInt8](repeating: 0x21, count: 8 * frames)) : []
      return B.ftyp() + moov(UInt64(start)) + media
    }
  }

  func read(_ file: Finished, _ name: String) throws -> MP4Audio {
    try MP4Audio.read(path: files.write(file.bytes(), as: name))
  }

  @Test func iTunesGaplessMetadataGivesPrimingAndPadding() throws {
    // 182 frames at 44.1 kHz with the numbers of the iTunes file the issue names.
    var file = Finished()
    // AAC-LC at 44.1 kHz, stereo, as the iTunes file has it.
    file.entry = B.mp4a(channels: 2, rate: 44100, children: B.esds(config: [0x12, 0x10]))
    file.timescale = 44100
    file.frames = 182
    file.udta = B.iTunesGapless(delay: 0xE26, padding: 0x1F5, valid: 182_245)
    let audio = try read(file, "gapless.m4a")
    #expect(audio.primingSamples == 0xE26)
    #expect(audio.endTrimSamples == 0x1F5)
    #expect(audio.durationSeconds == 182_245.0 / 44100)
    #expect(audio.diagnostics.contains { $0.code == .mp4GaplessMetadata })

    // Cut short (fewer samples than the item claims): the delay still goes, nothing is trimmed twice.
    file.frames = 100
    let short = try read(file, "gapless-short.m4a")
    #expect(short.primingSamples == 0xE26)
    #expect(short.endTrimSamples == 0)
    #expect(short.durationSeconds == Double(100 * 1024 - 0xE26) / 44100)

    // An edit list wins over the item.
    file.frames = 182
    file.edits = [(4132, 2112)]
    let edited = try read(file, "gapless-edited.m4a")
    #expect(edited.primingSamples == 2112)
  }

  @Test func voiceMemosMovieHeaderCapsTheLength() throws {
    // Apple's Voice Memos: 48 frames (49,152 samples), no edit list, a movie header of 1.000 s.
    var file = Finished()
    file.movieTimescale = 48000
    file.movieDuration = 48000
    let audio = try read(file, "voice-memos.m4a")
    #expect(audio.primingSamples == 1024)
    #expect(audio.endTrimSamples == 128)
    #expect(audio.durationSeconds == 1.0)

    // A header longer than the samples (a file cut short) extends nothing.
    file.frames = 20
    let short = try read(file, "voice-memos-short.m4a")
    #expect(short.endTrimSamples == 0)
    #expect(short.durationSeconds == Double(20 * 1024 - 1024) / 48000)
  }

  @Test func sbrSignalledAfterTheCoreConfigDoublesTheOutputRate() throws {
    var file = Finished()
    file.entry = B.mp4a(rate: 22050, children: B.esds(config: [0x13, 0x88, 0x56, 0xE5, 0xA5, 0x48, 0x00]))
    file.timescale = 22050
    file.frames = 24
    let audio = try read(file, "he-aac-sync-extension.m4a")
    #expect(audio.sbr)
    #expect(audio.sampleRate == 44100)
    #expect(audio.coreSampleRate == 22050)
    // 2048 output samples of priming are 1024 units of a 22,050 Hz media clock.
    #expect(audio.primingSamples == 1024)
    #expect(audio.durationSeconds == Double(23 * 1024) / 22050)
    let json = try Inspection.json(forFileAt: files.path("he-aac-sync-extension.m4a"))
    #expect(json["sampleRate"] == .int(44100) && json["coreSampleRate"] == .int(22050))
    #expect(json["sbr"] == .bool(true))

    // Plain AAC-LC at 22,050 Hz (the same config without the extension) is not HE-AAC.
    file.entry = B.mp4a(rate: 22050, children: B.esds(config: [0x13, 0x88]))
    let plain = try read(file, "lc-22050.m4a")
    #expect(!plain.sbr && plain.sampleRate == 22050 && plain.coreSampleRate == 22050)
  }

  /// SBR the config does not signal (implicit) cannot be seen without decoding: the reader gives
  /// the config's rate and says, as an info, that it may be twice that; a config that says either
  /// way, or a core above HE-AAC's 24 kHz, gets no such note.
  @Test func unsignalledSBRIsNotGuessedButSaid() throws {
    var file = Finished()
    file.timescale = 22050
    file.frames = 24
    func note(_ config: [UInt8], rate: UInt32, _ name: String) throws -> (MP4Audio, String?) {
      file.entry = B.mp4a(rate: rate, children: B.esds(config: config))
      let audio = try read(file, name)
      return (audio, audio.diagnostics.first { $0.code == .mp4SbrNotSignalled }?.message)
    }
    // Plain AAC-LC at 22,050 Hz, nothing more: SBR may be there.
    let (plain, said) = try note([0x13, 0x88], rate: 22050, "lc-22050-unsignalled.m4a")
    #expect(!plain.sbr && plain.sampleRate == 22050)
    #expect(said?.contains("at 22050 Hz a stream may carry SBR") == true, "\(said ?? "none")")
    #expect(said?.contains("decodes at 44100 Hz") == true)
    #expect(plain.durationSeconds == Double(23 * 1024) / 22050, "the length holds either way")
    // A sync extension saying "no SBR" (ffmpeg's encoder writes 138856e500) settles it.
    let (absent, none) = try note([0x13, 0x88, 0x56, 0xE5, 0x00], rate: 22050, "lc-22050-no-sbr.m4a")
    #expect(!absent.sbr && absent.sampleRate == 22050 && none == nil)
    // SBR signalled: the output rate is known.
    let (signalled, known) = try note([0x13, 0x88, 0x56, 0xE5, 0xA0], rate: 22050, "he-aac-a0.m4a")
    #expect(signalled.sbr && signalled.sampleRate == 44100 && known == nil)
    // The phone's 48 kHz AAC-LC: above the rates HE-AAC runs its core at, no note.
    file.timescale = 48000
    let (phone, quiet) = try note(B.lcConfig, rate: 48000, "lc-48000.m4a")
    #expect(!phone.sbr && quiet == nil)
  }

  @Test func anIndexWithoutItsMediaDataSaysSo() throws {
    var file = Finished()
    file.withMedia = false
    let audio = try read(file, "index-only.m4a")
    #expect(audio.damageCode == .mp4AudioOutsideFile)
    #expect(audio.damaged?.contains("48 samples") == true)

    // The same index cut inside its last box (a udta after the track): still read, still true.
    file.udta = B.iTunesGapless(delay: 2112, padding: 0, valid: 40000)
    let torn = Array(file.bytes().dropLast(16))
    let tornAudio = try MP4Audio.read(path: files.write(torn, as: "index-only-torn.m4a"))
    #expect(tornAudio.damageCode == .mp4AudioOutsideFile)
    #expect(tornAudio.diagnostics.contains { $0.code == .mp4TornTail })

    // Cut inside the track itself: the index is cut off, which is what the bytes show.
    let cut = Array(file.bytes().prefix(B.ftyp().count + 200))
    let cutAudio = try MP4Audio.read(path: files.write(cut, as: "index-cut.m4a"))
    #expect(cutAudio.damageCode == .mp4IndexCutOff)
    // One finding for the one cut: no torn tail beside the index cut off.
    #expect(!cutAudio.diagnostics.contains { $0.code == .mp4TornTail })
    // Without any moov the old reason stands.
    let none = try MP4Audio.read(path: files.write(B.ftyp(), as: "no-moov.m4a"))
    #expect(none.damageCode == .mp4NoIndex)
  }

  @Test func encryptedAudioIsNamedSo() throws {
    var file = Finished()
    file.entry = B.enca(scheme: "cbcs")
    let audio = try read(file, "encrypted.m4a")
    #expect(audio.damageCode == .mp4Encrypted)
    #expect(audio.damaged?.contains("encrypted (scheme 'cbcs')") == true)
  }
}
