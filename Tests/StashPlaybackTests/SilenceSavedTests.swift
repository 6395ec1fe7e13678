import Foundation
import StashTestSupport
import Testing

@testable import StashPlayback

/// The time skip silence has saved, as the transport line shows it, counts what the listener has
/// been spared so far: a cut is made up to a pause ahead of what is heard, and counted only once
/// the frames after it are heard. On the simulated device (its clock is the frames the test lets
/// it play), at 1×, the memo time heard less the time played is exactly what was left out.
@Suite struct SilenceSavedTests {
  @Test(arguments: [SkipSilenceLevel.mild, .strong])
  func theTimeSavedIsWhatWasHeardLeftOut(level: SkipSilenceLevel) throws {
    let memo = SkipSilenceAudio(rate: 48_000, bed: .noise(dbfs: -45))
    let (track, reference) = try memo.track("saved-\(level)")
    let rig = ListeningTests.Rig()
    rig.player.setSkipSilence(level)
    try rig.player.load(track)
    rig.player.play()
    rig.refilled()
    var worst = 0.0
    var steps = 0
    var ahead = 0
    let deadline = Date().addingTimeInterval(60)
    while rig.player.snapshot.state == .playing && Date() < deadline {
      rig.play(1200)
      let snapshot = rig.player.snapshot
      guard snapshot.state == .playing else { break }
      let spared = snapshot.position - Double(rig.device.heard.count) / 48_000
      worst = max(worst, abs(snapshot.silenceSkipped - spared))
      if snapshot.silenceSkipped > spared + 0.01 { ahead += 1 }
      steps += 1
    }
    let end = rig.player.snapshot
    #expect(end.state == .ended)
    #expect(steps > 100, "\(steps) steps")
    #expect(ahead == 0, "saved counted ahead of what was heard at \(ahead) of \(steps) steps")
    #expect(worst <= 0.01, "off by up to \(worst) s")
    rig.device.consume(.max)
    let left = Double(reference.count - rig.device.heard.count) / 48_000
    #expect(abs(end.silenceSkipped - left) < 0.001, "\(end.silenceSkipped) s saved, \(left) s left out")
    #expect(end.silenceSkipped > 5, "\(end.silenceSkipped) s")
  }
}
