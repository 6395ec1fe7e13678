import Foundation
import Testing

@testable import StashPlayback

/// Waits (up to `seconds`) for `condition` on the player's snapshot; returns the last snapshot.
@discardableResult
func waitFor(
  _ player: Player, seconds: Double = 20, _ condition: (PlaybackSnapshot) -> Bool
) -> PlaybackSnapshot {
  let deadline = Date().addingTimeInterval(seconds)
  var snapshot = player.snapshot
  while !condition(snapshot) && Date() < deadline {
    usleep(2000)
    snapshot = player.snapshot
  }
  return snapshot
}

/// Plays through ALSA's real `file` PCM over `null`, which records exactly what the device is
/// given, and compares it with ffmpeg's own decode of the same file.
@Suite struct PlayerFileSinkTests {
  struct Setup {
    let track: AudioTrack
    /// ffmpeg's decode with its 1024 frames of priming dropped: heard frame i is reference[i].
    let reference: [Float]
    let raw: String
    var device: String { "file:FILE=\(raw),FORMAT=raw" }
  }

  func setup(seconds: Double = 3) throws -> Setup {
    let folder = try TestAudio.folder()
    let path = folder.appendingPathComponent("sweep.aac").path
    try TestAudio.sweep(path, seconds: seconds)
    let track = try ADTSTrack.read(path)
    let reference = Array(try TestAudio.ffmpegDecode(path).dropFirst(1024))
    return Setup(track: track, reference: reference, raw: folder.appendingPathComponent("out.raw").path)
  }

  @Test func playsTheWholeTrackExactly() throws {
    let s = try setup()
    let player = Player(device: s.device)
    try player.load(s.track)
    #expect(player.snapshot.state == .idle)
    #expect(player.snapshot.duration == Double(s.reference.count) / 48_000)
    #expect(player.snapshot.countedDuration == nil, "a length the file states is not a count")
    player.play()
    let end = waitFor(player) { $0.state != .playing && $0.state != .idle }
    #expect(end.state == .ended)
    #expect(end.position == Double(s.reference.count) / 48_000)
    let written = try TestAudio.floats(s.raw)
    let difference = TestAudio.maxDifference(written[...], s.reference[...])
    #expect(written.count == s.reference.count)
    #expect(difference != nil && difference! < 1e-6)
  }

  @Test(arguments: [(0.5, 1.25), (1.0, nil), (0.0213, 0.0214), (2.9, nil)])
  func playsTheRangeAskedFor(from: Double, until: Double?) throws {
    let s = try setup()
    let player = Player(device: s.device)
    try player.load(s.track)
    player.play(from: from, until: until)
    let end = waitFor(player) { $0.state == .ended || $0.state != .playing }
    #expect(end.state == .ended)
    let first = Int((from * 48_000).rounded())
    let last = until.map { Int(($0 * 48_000).rounded()) } ?? s.reference.count
    let written = try TestAudio.floats(s.raw)
    #expect(written.count == last - first)
    let difference = TestAudio.maxDifference(written[...], s.reference[first..<last])
    #expect(difference != nil && difference! < 1e-6)
    #expect(end.position == Double(last) / 48_000)
  }

  /// However the pauses fall, what the device got is the track once, with no gap and no repeat.
  @Test func pauseAndResumeLeaveNoGapAndNoRepeat() throws {
    let s = try setup(seconds: 20)
    let player = Player(device: s.device)
    try player.load(s.track)
    var pausedBeforeEnd = 0
    player.play()
    for _ in 0..<5 {
      player.pause()
      let paused = waitFor(player) { $0.state == .paused || $0.state == .ended }
      if paused.state == .paused && paused.position < paused.duration! { pausedBeforeEnd += 1 }
      player.resume()
    }
    let end = waitFor(player) { $0.state == .ended }
    #expect(end.state == .ended)
    let written = try TestAudio.floats(s.raw)
    #expect(written.count == s.reference.count)
    let difference = TestAudio.maxDifference(written[...], s.reference[...])
    #expect(difference != nil && difference! < 1e-6)
    // The pauses must have happened mid-track for this to show anything.
    #expect(pausedBeforeEnd > 0)
  }

  @Test func noDeviceFailsWithALSAsReasonAndTheName() throws {
    let s = try setup(seconds: 1)
    let player = Player(device: "no_such_device_here")
    try player.load(s.track)
    player.play()
    let end = waitFor(player) {
      if case .failed = $0.state { return true }
      return false
    }
    guard case .failed(let error) = end.state else {
      Issue.record("expected a failure, got \(end.state)")
      return
    }
    #expect(error.code == .noDevice)
    #expect(error.message.contains("'no_such_device_here'"))
    #expect(error.message.contains("No such file or directory"))
    // The player stays usable: seeking still works without a device.
    player.seek(to: 0.5)
    #expect(player.snapshot.state == .paused)
    #expect(player.snapshot.position == 0.5)
  }

  /// A memo whose length the listing cannot read still plays, to its end; its length stays
  /// unknown, so the next play counts up as this one did.
  @Test func anUnknownLengthPlaysToTheEndAndStaysUnknown() throws {
    let s = try setup(seconds: 1)
    var track = s.track
    track.lengthKnown = false
    let player = Player(device: s.device)
    try player.load(track)
    #expect(player.snapshot.duration == nil)
    player.play()
    let end = waitFor(player) { $0.state != .playing }
    #expect(end.state == .ended)
    #expect(end.duration == nil)
    #expect(try TestAudio.floats(s.raw).count == s.reference.count)
  }

  /// Loading another memo while one plays stops the first at once; the second plays from its start.
  @Test func loadingAnotherMemoReplacesTheOneLoaded() throws {
    let long = try setup(seconds: 30)
    let short = try setup(seconds: 1)
    let player = Player(device: "null")
    try player.load(long.track)
    player.play()
    try player.load(short.track)
    let loaded = player.snapshot
    #expect(loaded.state == .idle && loaded.position == 0)
    #expect(loaded.path == short.track.path)
    #expect(loaded.duration == Double(short.reference.count) / 48_000)
    player.play()
    #expect(waitFor(player) { $0.state != .playing }.state == .ended)
  }
}
