import Foundation

extension Harness {
  /// Playing on real sound servers, as heard at their null sink's monitor (issue 15):
  /// `Benchmarks/real-server-playback.py` starts PulseAudio and then PipeWire, each with a null
  /// sink and ALSA's default routed to it, and drives `stash-tui --play --control` there. One
  /// section per server: seek latency as heard, the clock against the heard onsets, CPU, failures.
  mutating func realServer(_ kind: String, label: String) throws {
    let memo = repo + "/SyntheticFixtures/demo/2026-07-19T16-45-10+0200_audio.m4a"
    let seeks = quick ? 15 : 50
    let child = try ChildRun.checked(
      [
        "python3", repo + "/Benchmarks/real-server-playback.py", tui, memo, kind, "\(seeks)",
        repo + "/.build/audio-plugins/pipewire-alsa",
      ])
    guard let line = child.stdout.split(separator: "\n").last,
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let heard = object["heard"] as? Int, let failures = object["failures"] as? Int,
      let cpu = object["cpu_percent"] as? Double, let recorded = object["cpu_recorded_percent"] as? Double,
      let aplay = object["aplay_recorded_percent"] as? Double
    else { throw HarnessError("real-server-playback.py printed no result") }
    let ms = { (key: String) in (object[key] as? Double).map { String(format: "%.0f ms", $0) } ?? "—" }
    // The null sink renders a block ahead of real time, so the monitor hears everything up to one
    // block early: both figures below carry that same lead.
    let lead = "the null sink renders up to a block (~20–25 ms) ahead of real time, so heard times lead"
    let median = object["latency_median_ms"] as? Double
    figures.append(
      Figure(
        issue: "#15", name: "Seek latency as heard, \(label)",
        result:
          "\(ms("latency_median_ms")) median, \(ms("latency_p90_ms")) p90 (\(heard) of \(seeks) seeks heard)",
        target: "≤ 100 ms", verdict: median.map { .verdict($0 <= 100 && heard == seeks) } ?? .fail,
        note: "seek call to the new speech at the sink's monitor; \(lead)"))
    let clock = object["clock_abs_p90_ms"] as? Double
    figures.append(
      Figure(
        issue: "#15", name: "Clock against heard audio, \(label)",
        result: "\(ms("clock_median_ms")) median, |error| \(ms("clock_abs_p90_ms")) p90",
        target: "≤ 50 ms", verdict: clock.map { .verdict($0 <= 50) } ?? .fail,
        note:
          "displayed clock when each speech onset reached the monitor, against the onset's place in the memo")
    )
    figures.append(
      Figure(
        issue: "#15", name: "CPU while playing, \(label)", result: String(format: "%.2f %% of a core", cpu),
        target: "< 2 %", verdict: .verdict(cpu < 2),
        note:
          "10 s of playing, start-up excluded, with nothing else on the server, before the monitor is recorded: "
          + "the server runs at the pace the player's own stream asks for, as on a desktop where no program asks "
          + "for less"))
    figures.append(
      Figure(
        issue: "#15", name: "CPU while playing beside a 5 ms recorder, \(label)",
        result: String(format: "%.2f %% of a core; aplay %.2f %%", recorded, aplay), target: "report",
        verdict: .info,
        note:
          "the same 10 s while the monitor is recorded for the figures above, with a 5 ms latency; on PipeWire "
          + "that holds the whole graph at a 128-frame quantum, so every client in it wakes 375 times a second; "
          + "aplay, playing the same audio already decoded, on the same device beside the same recorder, is "
          + "what the way to the server costs alone"))
    figures.append(
      Figure(
        issue: "#15", name: "Playback failures over \(seeks) seeks, \(label)", result: "\(failures)",
        target: "0",
        verdict: .verdict(failures == 0)))
  }
}

extension Harness {
  /// The sound and the clock right after play and right after each seek, with no low-latency client
  /// on the server (issue 32): `Benchmarks/heard-latency.py` records the monitor with a client
  /// asking for two seconds, so the server runs at the latency the player's own stream asks for.
  mutating func heardLatency(_ kind: String, label: String, rate: Int) throws {
    let memo = repo + "/SyntheticFixtures/demo/2026-07-19T16-45-10+0200_audio.m4a"
    let seeks = 12
    let child = try ChildRun.checked(
      [
        "python3", repo + "/Benchmarks/heard-latency.py", tui, memo, kind, "\(rate)", "\(seeks)",
        repo + "/.build/audio-plugins/pipewire-alsa",
      ])
    guard let line = child.stdout.split(separator: "\n").last,
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let heard = object["seeks_heard"] as? Int
    else { throw HarnessError("heard-latency.py printed no result") }
    let ms = { (key: String) in (object[key] as? Double).map { String(format: "%.0f ms", $0) } ?? "—" }
    let name = "\(label), \(String(format: "%g", Double(rate) / 1000)) kHz sink, no low-latency client"
    let lead =
      "heard times lead by what the null sink mixes ahead of the monitor's earliest sample (about 60 ms "
      + "with the player's two-second streams), so sound figures read low by it and clock figures by minus it"
    let play = object["play_sound_ms"] as? Double
    let seekMax = object["seek_sound_max_ms"] as? Double
    figures.append(
      Figure(
        issue: "#32", name: "Sound after play and seeks, \(name)",
        result: "play \(ms("play_sound_ms")); seeks \(ms("seek_sound_median_ms")) median, "
          + "\(ms("seek_sound_max_ms")) max (\(heard) of \(seeks) heard)",
        target: "≤ 100 ms",
        verdict: .verdict((play ?? .infinity) <= 100 && (seekMax ?? .infinity) <= 100 && heard == seeks),
        note:
          "Space or a seek 0.3 s before a speech onset, to the onset at the sink's monitor (less the 0.3 s); "
          + "seeks 0.7 s apart; \(lead)"))
    let playAgainstSeeks = object["play_clock_against_seeks_ms"] as? Double
    let seekSpread = object["seek_clock_spread_ms"] as? Double
    figures.append(
      Figure(
        issue: "#32", name: "Clock against the sound after play and seeks, \(name)",
        result: "play \(ms("play_clock_ms")), seeks |error| \(ms("seek_clock_abs_max_ms")) max; play against "
          + "the seeks \(ms("play_clock_against_seeks_ms")), seeks spread \(ms("seek_clock_spread_ms")); it "
          + "moves on \(ms("play_clock_start_ms")) after Space, ≤ \(ms("seek_clock_start_max_ms")) after a seek",
        target: "≤ 50 ms",
        verdict: .verdict(abs(playAgainstSeeks ?? .infinity) <= 50 && (seekSpread ?? .infinity) <= 50),
        note:
          "the clock 50, 150 and 300 ms into what is heard after each command, against the memo time heard; "
          + lead + "; the verdict takes the figures against each other, which the lead does not touch"))
  }
}
