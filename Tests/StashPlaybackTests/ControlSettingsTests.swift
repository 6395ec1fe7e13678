import Foundation
import StashTestSupport
import Testing

/// `stash-tui --play --control` turns the voice boost and skip silence on and off while playing on
/// ALSA's null PCM paced to real time: each answer carries the setting asked, each change is
/// reported once its first frame reached the device, and skip silence's seconds left out show in
/// the answers while the position stays memo time.
@Suite struct ControlSettingsTests {
  static var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["STASH_ALSA_DEVICE"] = "null"
    environment["STASH_ALSA_PACE"] = "1"
    return environment
  }

  @Test func boostAndSkipAreTurnedOnAndOffWhilePlaying() throws {
    let memo = try SkipSilenceAudio(rate: 48_000, bed: .noise(dbfs: -45)).memoFile("control-settings")
    let player = try ControlledPlayer(memo: memo, environment: Self.environment)
    defer { player.quit() }
    let started = try player.send("play 0")
    #expect(!started.voiceBoost && started.skipSilence == nil && started.silenceSkipped == 0)
    let boosted = try player.send("boost on")
    // No latency yet, or this change's own (it may reach the device before the answer is written).
    #expect(boosted.voiceBoost, "\(boosted)")
    let boostHeard = try player.wait(seconds: 3) { $0.boostLatency != nil }
    let boostLatency = try #require(
      boostHeard.boostLatency, "boost on never reached the device: \(boostHeard)")
    #expect(boostLatency < 1, "boost on took \(boostLatency) s to reach the device")
    let skipping = try player.send("skip strong")
    #expect(skipping.skipSilence == "strong" && skipping.voiceBoost, "\(skipping)")
    let skipHeard = try player.wait(seconds: 3) { $0.skipLatency != nil }
    let skipLatency = try #require(
      skipHeard.skipLatency, "skip strong never reached the device: \(skipHeard)")
    #expect(skipLatency < 1, "skip strong took \(skipLatency) s to reach the device")
    // In the burst after the pauses of 2.07 s and 5.01 s, each cut to 0.15 s: more than 4 s left
    // out (the skipper works a little ahead of what is heard, but not past the next pause).
    let cut = try player.wait(seconds: 15) { $0.position >= 10.2 || $0.state != "playing" }
    #expect(cut.state == "playing" && cut.failures == 0, "\(cut)\n\(player.standardError)")
    #expect(cut.silenceSkipped > 4, "only \(cut.silenceSkipped) s left out")
    // Memo time: ahead of the time played by what was left out (less the start-up, with the
    // device's 0.1 s buffer).
    let played = cut.sent - started.sent
    #expect(
      abs(cut.position - played - cut.silenceSkipped) < 0.4,
      "at \(cut.position) s after \(played) s played with \(cut.silenceSkipped) s left out")
    let plain = try player.send("skip off")
    #expect(plain.skipSilence == nil && plain.silenceSkipped >= cut.silenceSkipped, "\(plain)")
    let plainHeard = try player.wait(seconds: 3) { $0.skipLatency != nil }
    #expect(plainHeard.skipLatency != nil, "skip off never reached the device: \(plainHeard)")
    #expect(plainHeard.silenceSkipped >= cut.silenceSkipped, "\(plainHeard)")
    // Played again from the start (B), the time saved counts again from nothing; it once went on.
    let again = try player.send("seek 0")
    #expect(again.silenceSkipped < 1, "\(again)")
    let unboosted = try player.send("boost off")
    // The answer no longer carries boost on's latency (a loaded machine may already carry boost
    // off's: the change reaches the device within milliseconds of being asked).
    #expect(!unboosted.voiceBoost && unboosted.boostLatency != boostLatency, "\(unboosted)")
    let unboostHeard = try player.wait(seconds: 3) { $0.boostLatency != nil }
    #expect(unboostHeard.boostLatency != nil, "boost off never reached the device: \(unboostHeard)")
    #expect(unboostHeard.state == "playing" && unboostHeard.failures == 0, "\(unboostHeard)")
  }

  /// `enhance on|off` turns the noise reduction on and off while playing, with the boost on and
  /// without, each change reported once it reached the device; `--enhance` starts with it on.
  @Test func enhanceIsTurnedOnAndOffWhilePlaying() throws {
    let memo = try SkipSilenceAudio(rate: 48_000, bed: .noise(dbfs: -30)).memoFile("control-enhance")
    let player = try ControlledPlayer(memo: memo, environment: Self.environment)
    defer { player.quit() }
    let started = try player.send("play 0")
    #expect(!started.enhance && started.enhanceLatency == nil, "\(started)")
    var previous: Double? = nil
    for (command, boost) in [
      ("enhance on", false), ("enhance off", false), ("boost on", true), ("enhance on", true),
    ] {
      let answer = try player.send(command)
      guard command.hasPrefix("enhance") else { continue }
      #expect(answer.enhance == (command == "enhance on") && answer.voiceBoost == boost, "\(answer)")
      // The answer no longer carries the last change's latency (a loaded machine may already
      // carry this one's: a change reaches the device within milliseconds of being asked).
      #expect(answer.enhanceLatency == nil || answer.enhanceLatency != previous, "\(answer)")
      let heard = try player.wait(seconds: 3) { $0.enhanceLatency != nil }
      let latency = try #require(heard.enhanceLatency, "\(command) never reached the device: \(heard)")
      previous = latency
      #expect(latency < 0.1, "\(command) took \(latency) s to reach the device")
      #expect(heard.state == "playing" && heard.failures == 0, "\(heard)\n\(player.standardError)")
    }
    let flagged = try ControlledPlayer(
      memo: memo, environment: Self.environment, extraArguments: ["--enhance"])
    defer { flagged.quit() }
    let on = try flagged.send("play 0")
    #expect(on.enhance && !on.voiceBoost, "\(on)")
    let playing = try flagged.wait(seconds: 3) { $0.position >= 1 }
    #expect(playing.state == "playing" && playing.failures == 0, "\(playing)\n\(flagged.standardError)")
  }

  /// A level or a word the commands do not know ends the protocol with status 2 and says which.
  @Test(arguments: ["skip loud", "boost yes", "skip", "enhance", "enhance yes"]) func aWrongSettingIsRefused(
    _ command: String
  ) throws {
    let memo = try SkipSilenceAudio(rate: 48_000).memoFile("control-refused")
    let run = try runProcess(
      Fixtures.product("stash-tui").path, ["--play", memo, "--control"], environment: Self.environment,
      input: Data("status\n\(command)\nstatus\n".utf8))
    #expect(run.status == 2, "\(command): \(run.standardError)")
    #expect(run.standardError.contains("--control does not know '\(command)'"))
    #expect(run.standardOutput.split(separator: "\n").count == 1)
  }
}
