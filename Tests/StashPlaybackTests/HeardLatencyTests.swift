import Foundation
import StashTestSupport
import Testing

@testable import StashPlayback

/// The clock and the sound right after play and right after each seek, on PulseAudio and PipeWire
/// null sinks at 44.1 and 48 kHz reached through ALSA's plugins, with no low-latency client on the
/// server (issue 32): the monitor is recorded by a client asking for two seconds of latency, so the
/// server runs at what the player's own stream asks for.
///
/// The memo is silence with a beep every two seconds, each at its own pitch, so a beep heard
/// names the place in the memo it comes from. Play starts, and twelve seeks 0.7 s apart land,
/// 0.3 s before a beep. Nothing is timed against the wall clock (the recorder's samples come late
/// and in bursts, and a loaded machine delays everything): the checks compare figures from the
/// same run with each other.
/// - Sound: every beep is heard, and each comes as long after its command as the others do
///   (within 100 ms): a seek or a play heard late stands out against the rest.
/// - Clock: when the clock says each beep starts, against when it is heard: the same for every
///   beep (within 50 ms), so the clock is as late as the sound, no more and no less, right after
///   play and right after each seek.
@Suite(.serialized) struct HeardLatencyTests {
  struct Case: Sendable, CustomStringConvertible {
    var kind: AudioServer.Kind
    var rate: Int
    /// Seconds between starting the player and play: a person looks at the list before Space.
    var settle: Double = 0
    var description: String { "\(kind) at \(rate) Hz" + (settle > 0 ? ", play \(settle) s after start" : "") }
  }

  static let cases: [Case] = {
    var all = [AudioServer.Kind.pulseAudio, .pipeWire].flatMap { kind in
      [44_100, 48_000].map { Case(kind: kind, rate: $0) }
    }
    // And a play that comes once the player has sat for a while (`SinkWarmer` has held the sink
    // since the player started).
    all += [44_100, 48_000].map { Case(kind: .pulseAudio, rate: $0, settle: 2.5) }
    precondition(!all.isEmpty)
    return all
  }()

  /// Seconds between beeps, how long each lasts, and the lowest pitch (each next one 100 Hz up).
  static let spacing = 2.0
  static let beepLength = 0.2
  static let lowest = 400.0
  /// Seconds of silence before a beep where play and seeks land.
  static let lead = 0.3

  /// The memo: `count` beeps at `rate`, AAC in MP4.
  static func beeps(rate: Int, count: Int) throws -> String {
    let path = try Fixtures.scratchFolder("stash-heard").appendingPathComponent("beeps-\(rate).m4a").path
    let pitch = "(\(lowest)+100*floor(t/\(spacing)))"
    let expression = "if(lt(mod(t\\,\(spacing))\\,\(beepLength))\\,0.5*sin(2*PI*\(pitch)*t)\\,0)"
    let result = try runProcess(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
        "aevalsrc=\(expression):s=\(rate):d=\(Double(count) * spacing)", "-ac", "1", "-c:a", "aac", "-b:a",
        "96k",
        path,
      ])
    guard result.status == 0 else { throw TestFailure("ffmpeg failed: \(result.standardError)") }
    return path
  }

  /// A beep heard: where it starts in the recording (seconds from its first sample) and which beep
  /// it is, by its pitch.
  struct Heard {
    var at: Double
    var beep: Int
  }

  /// The beeps in `samples` (mono at `AudioServer.recordingRate`): 5 ms blocks, a beep starting
  /// where a loud block follows at least 100 ms of quiet.
  static func heardBeeps(_ samples: [Float]) -> [Heard] {
    let rate = AudioServer.recordingRate
    let block = rate / 200
    var found: [Heard] = []
    var quiet = 0
    var index = 0
    while index + block <= samples.count {
      var peak: Float = 0
      for sample in samples[index..<(index + block)] { peak = max(peak, abs(sample)) }
      if peak > 0.05 {
        if quiet >= 20 {
          let length = min(samples.count - index, Int(0.15 * Double(rate)))
          if let pitch = ListeningAudio.frequency(Array(samples[index..<(index + length)]), rate: rate) {
            found.append(
              Heard(at: Double(index) / Double(rate), beep: Int(((pitch - lowest) / 100).rounded())))
          }
        }
        quiet = 0
      } else if peak < 0.01 {
        quiet += 1
      }
      index += block
    }
    return found
  }

  @Test(arguments: cases) func clockAndSoundAfterPlayAndEachSeek(_ test: Case) throws {
    guard AudioServer.canRun(test.kind) else { return }
    let seeks = 12
    let memo = try Self.beeps(rate: test.rate, count: seeks + 4)
    let server = try AudioServer(test.kind, rate: test.rate)
    defer { server.stop() }
    let recording = try server.record(latencyMilliseconds: 2000)
    let player = try ControlledPlayer(memo: memo, environment: server.environment)
    defer { player.quit() }
    _ = try player.send("status")
    if test.settle > 0 { usleep(UInt32(test.settle * 1e6)) }

    // A play at the player's start lands just before beep 1: a player that lost the start of
    // what it plays then (as a PulseAudio stream connected with the sink's first block did) would
    // miss the beep.
    let playLead = test.settle == 0 ? 0.05 : Self.lead
    // Play before beep 1 (for long enough that beep 2 is heard too); then seeks before beeps 4, 3,
    // 6, 5, ...: back and forth, each beep heard once.
    let beeps = [1] + (0..<seeks).map { 4 + ($0 / 2) * 2 - $0 % 2 }
    var commands: [(sent: Double, beep: Int)] = []
    var answers: [ControlledPlayer.Status] = []
    for (index, beep) in beeps.enumerated() {
      let target = Double(beep) * Self.spacing - (index == 0 ? playLead : Self.lead)
      let answer = try player.send((index == 0 ? "play " : "seek ") + String(format: "%.3f", target))
      commands.append((answer.sent, beep))
      // Long enough after play for a first sound that is late by two seconds to be heard.
      let until = answer.sent + (index == 0 ? 2.5 : 0.7)
      while AudioServer.monotonicSeconds() < until {
        answers.append(try player.send("status"))
        usleep(20_000)
      }
    }
    let status = try player.send("status")
    #expect(status.failures == 0, "\(status)")
    usleep(500_000)
    let samples = recording.finish()
    let heard = Self.heardBeeps(samples)

    // Per command: its beep as heard (the first time), and when the clock said it started (from
    // the last answer before the next command, once the clock had passed the beep's start).
    var late: [Double] = []
    var clockLead: [Double] = []
    var figures: [String] = []
    for (index, command) in commands.enumerated() {
      let next = index + 1 < commands.count ? commands[index + 1].sent : .infinity
      let start = Double(command.beep) * Self.spacing
      let said = answers.last { $0.sent >= command.sent && $0.sent < next && $0.position > start + 0.02 }
      guard let at = heard.first(where: { $0.beep == command.beep })?.at else {
        figures.append("beep \(command.beep): not heard")
        continue
      }
      late.append(at - command.sent - (index == 0 ? playLead : Self.lead))
      if let said { clockLead.append(at - (said.sent - (said.position - start))) }
      figures.append(
        "beep \(command.beep): heard \(String(format: "%.3f", at - command.sent)) s after its command (+ a constant)"
      )
    }
    let report = "\(test): \(figures.joined(separator: "; "))\n\(server.log())"
    #expect(late.count == commands.count, "beeps not heard: \(report)")
    guard late.count == commands.count, clockLead.count == commands.count else {
      Issue.record("the clock never passed a beep: \(report)")
      return
    }
    // The seeks against each other; then play against the seeks.
    let seekLate = Array(late.dropFirst())
    #expect(seekLate.max()! - seekLate.min()! < 0.1, "seeks heard unevenly: \(report)")
    let seekClock = Array(clockLead.dropFirst())
    #expect(
      seekClock.max()! - seekClock.min()! < 0.05, "clock against sound after seeks: \(clockLead) \(report)")
    let median = seekLate.sorted()[seekLate.count / 2]
    let clockMedian = seekClock.sorted()[seekClock.count / 2]
    // Play against the seeks: on PulseAudio the first stream of a session once waited behind
    // the two seconds an idle null sink mixes ahead (`ALSADevice.configureDeep`). At the player's
    // start it waits, on PulseAudio, until the sink has mixed the block it mixes when the player's
    // first stream connects (`ALSADevice.firstBlock`, 0.4 s).
    let startWait = test.kind == .pulseAudio && test.settle == 0 ? Double(ALSADevice.firstBlock) / 1e9 : 0
    #expect(
      late[0] - median < 0.1 + startWait, "play heard \(late[0] - median) s later than seeks: \(report)")
    #expect(abs(clockLead[0] - clockMedian) < 0.05, "clock against sound after play: \(clockLead) \(report)")
  }
}
