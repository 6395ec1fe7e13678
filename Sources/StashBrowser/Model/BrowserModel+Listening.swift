import StashFormat

/// Speed, volume, loops, continuing into the next memo, and remembering where a memo was left off.
/// Each setting is one method returning one effect, so a remote control (MPRIS) calls the same
/// ones the keys do.
extension BrowserModel {
  /// What is known of the memo playing, to decide when its place is worth remembering.
  package struct Listening: Equatable, Sendable {
    /// The memo.
    package var base: String
    /// Where it was at the last snapshot (or the last seek asked for).
    package var position: Double
    /// Seconds of memo time heard so far, seeks left out.
    package var heard: Double = 0
    /// `heard` when its place was last remembered.
    package var heardWhenSaved: Double = 0
  }

  /// Seconds a memo must be heard before its place is remembered.
  package static let rememberAfter = 5.0
  /// While playing, its place is remembered again after this many more seconds heard (so a
  /// killed browser loses little).
  package static let rememberEvery = 30.0
  /// A place closer than this to the end counts as the end: the memo starts afresh next time.
  package static let endMargin = 2.0
  /// The volume keys' step, in percent.
  package static let volumeStep = 5

  /// What the transport line shows beside the player's snapshot.
  package var transportExtras: TransportLine.Extras {
    // The cues are the detail's only when the memo shown is the one selected (the detail's).
    let opened = preview != nil
    let cues = playerHoldsSelection || opened ? (detail?.cues.map(\.start) ?? []) : []
    let shown = shownTransport.base
    let hits = spokenSearch?.hits.compactMap { $0.base == shown ? $0.start : nil } ?? []
    var extras = TransportLine.Extras(
      loopStart: loopStart, continuing: continuing, cueStarts: cues, hits: hits, preview: opened)
    if playerHoldsSelection || opened { extras.bookmarks = bookmarks.map(\.at) }
    return extras
  }

  // MARK: Speed, volume, mute

  /// Plays at `speed` (clamped to 0.5...3), from now on and for every memo.
  package mutating func setSpeed(_ speed: Double) -> [BrowserEffect] {
    let s = PlayerSnapshot.clamped(speed: speed)
    player.speed = s
    message = StyledLine(
      "Speed \(BrowserModel.speedText(s))" + (s == 1 ? "" : ", pitch kept: \\ goes back to 1×."), .dim)
    return [.setSpeed(s)]
  }

  /// One step faster (`by` 1) or slower (-1) through `PlayerSnapshot.speeds`.
  package mutating func stepSpeed(by direction: Int) -> [BrowserEffect] {
    let now = player.speed
    let next =
      direction > 0
      ? PlayerSnapshot.speeds.first { $0 > now + 0.001 } : PlayerSnapshot.speeds.last { $0 < now - 0.001 }
    guard let next else {
      message = StyledLine(
        direction > 0 ? "Already at the fastest, 3×." : "Already at the slowest, 0.5×.", .dim)
      return []
    }
    return setSpeed(next)
  }

  /// Sets the gain to `percent` (clamped to 0...150) and unmutes.
  package mutating func setVolume(_ percent: Int) -> [BrowserEffect] {
    let v = PlayerSnapshot.clamped(volume: percent)
    let unmute = player.muted
    player.volume = v
    player.muted = false
    message = StyledLine("Volume \(v) %", .dim)
    return (unmute ? [.setMuted(false)] : []) + [.setVolume(v)]
  }

  /// Mutes or unmutes.
  package mutating func setMuted(_ muted: Bool) -> [BrowserEffect] {
    player.muted = muted
    message = StyledLine(muted ? "Muted: m unmutes." : "Volume \(player.volume) %", .dim)
    return [.setMuted(muted)]
  }

  /// Turns voice boost on or off, from now on and for every memo.
  package mutating func setVoiceBoost(_ on: Bool) -> [BrowserEffect] {
    player.voiceBoost = on
    message = StyledLine(
      on
        ? "Voice boost on: a quiet voice is brought up to a steady loudness; v adds enhance (noise down)."
        : "Voice boost off.",
      .dim)
    return [.setVoiceBoost(on)]
  }

  /// Turns the noise reduction (enhance) on or off, from now on and for every memo.
  package mutating func setEnhance(_ on: Bool) -> [BrowserEffect] {
    player.enhance = on
    message = StyledLine(
      on
        ? "Enhance on: a steady background (wind, hum, hiss) is brought down under the voice."
        : "Enhance off.", .dim)
    return [.setEnhance(on)]
  }

  /// `v`: off, voice boost, voice boost + enhance (the noise reduction), off again. Enhance
  /// alone (from `--enhance`) goes to both.
  package mutating func cycleVoice() -> [BrowserEffect] {
    switch (player.voiceBoost, player.enhance) {
    case (false, false): return setVoiceBoost(true)
    case (true, false):
      let effects = setEnhance(true)
      message = StyledLine(
        "Voice boost + enhance: the voice brought up, a steady background (wind, hum, hiss) down; v turns "
          + "both off.", .dim)
      return effects
    case (false, true):
      let effects = setVoiceBoost(true)
      message = StyledLine(
        "Voice boost + enhance: the voice brought up, a steady background (wind, hum, hiss) down; v turns "
          + "both off.", .dim)
      return effects
    case (true, true):
      let effects = setVoiceBoost(false) + setEnhance(false)
      message = StyledLine("Voice boost and enhance off.", .dim)
      return effects
    }
  }

  /// Shortens long pauses at `level` (nil: plays them whole), from now on and for every memo.
  package mutating func setSkipSilence(_ level: PlayerSnapshot.SilenceSkip?) -> [BrowserEffect] {
    player.skipSilence = level
    if let level {
      let kept = level.keptSeconds
      message = StyledLine(
        "Skip silence \(level.rawValue): pauses longer than \(kept) s are cut to \(kept) s; the clock keeps "
          + "the memo's time. s: \(PlayerSnapshot.SilenceSkip.after(level)?.rawValue ?? "off").", .dim)
    } else {
      message = StyledLine("Skip silence off: pauses play whole.", .dim)
    }
    return [.setSkipSilence(level)]
  }

  /// `speed` as the status line shows it: `1.5×`, `0.75×`, `2×`.
  package static func speedText(_ speed: Double) -> String {
    let h = Int((speed * 100).rounded())
    let fraction = h % 100
    if fraction == 0 { return "\(h / 100)×" }
    if fraction % 10 == 0 { return "\(h / 100).\(fraction / 10)×" }
    return "\(h / 100)." + Text.zeroPadded(fraction, width: 2) + "×"
  }

  // MARK: Loops

  /// `l`: sets A, then B (the loop plays between them), then clears the loop.
  package mutating func cycleLoop() -> [BrowserEffect] {
    guard player.isActive, player.base != nil else {
      message = StyledLine(
        "Nothing is playing: space plays the open memo, then l sets the loop's start.", .dim)
      return []
    }
    if player.loop != nil { return clearLoop() }
    guard let a = loopStart else {
      loopStart = player.position
      message = StyledLine("Loop from \(TimeText.clock(player.position)): l again sets its end.", .dim)
      return []
    }
    let b = player.position
    guard abs(b - a) >= 0.5 else {
      message = StyledLine("The loop's end must be apart from its start: play on a little, then l.", .dim)
      return []
    }
    return setLoop(from: min(a, b), to: max(a, b))
  }

  /// Plays from `start` to `end` over and over.
  package mutating func setLoop(from start: Double, to end: Double) -> [BrowserEffect] {
    loopStart = nil
    player.loop = PlayerSnapshot.Loop(start: start, end: end)
    message = StyledLine(
      "Repeating \(TimeText.clock(start))–\(TimeText.clock(end)): l clears the loop.", .dim)
    return [.setLoop(from: start, to: end)]
  }

  /// Ends the loop (and a loop half set); playing goes on.
  package mutating func clearLoop() -> [BrowserEffect] {
    loopStart = nil
    guard player.loop != nil else { return [] }
    player.loop = nil
    message = StyledLine("Loop cleared.", .dim)
    return [.clearLoop]
  }

  /// `L`: repeats a cue: the one under the cursor in the transcript, else the one being spoken; a
  /// second `L` on the same cue clears the loop.
  package mutating func loopCue() -> [BrowserEffect] {
    guard let row = selectedRow, let cues = detail?.cues, !cues.isEmpty else {
      message = StyledLine("This memo has no cues to repeat.", .dim)
      return []
    }
    if let refusal = playRefusal(row) {
      sayCannotPlay(refusal)
      return []
    }
    let index = focus == .transcript ? cueCursor : (spokenCue ?? cueCursor)
    let cue = cues[min(index, cues.count - 1)]
    let end = cue.end > cue.start ? cue.end : cue.start + 1
    let loop = PlayerSnapshot.Loop(start: cue.start, end: end)
    if playerHoldsSelection && player.loop == loop { return clearLoop() }
    following = true
    cueCursor = min(index, cues.count - 1)
    var effects: [BrowserEffect]
    if playerHoldsSelection {
      effects = player.position >= cue.start && player.position < end ? [] : [.seek(cue.start)]
      if !effects.isEmpty { jump(to: cue.start) }
      if player.state == .paused { effects.append(.togglePause) }
    } else {
      effects = [.play(base: row.base, from: cue.start)]
    }
    return effects + setLoop(from: loop.start, to: loop.end)
  }

  // MARK: Continuing, next and previous

  /// `C`: whether the next memo plays when one ends.
  package mutating func setContinuing(_ on: Bool) -> [BrowserEffect] {
    continuing = on
    message = StyledLine(
      on
        ? "Continuing: when a memo ends, the next in the list plays. C turns it off."
        : "Not continuing: playing stops at the end of a memo.", .dim)
    return []
  }

  /// Plays the memo `by` rows after (1) or before (-1) the one playing (else the selected one) in
  /// the list as shown, skipping those that cannot play; the selection follows when it was on the
  /// memo playing.
  package mutating func playAdjacent(by direction: Int, fromEnd: Bool = false) -> [BrowserEffect] {
    let current = player.base ?? selectedBase
    guard let at = current.flatMap({ visiblePosition(ofBase: $0) }) else {
      if fromEnd { message = StyledLine("Played to the end; the memo is no longer in the list.", .dim) }
      return []
    }
    var i = at + direction
    while i >= 0 && i < visible.count, playRefusal(memos[visible[i]]) != nil {
      i += direction
    }
    guard i >= 0 && i < visible.count else {
      message = StyledLine(
        fromEnd
          ? "Played to the end of the list."
          : direction > 0 ? "This is the last memo in the list." : "This is the first memo in the list.", .dim
      )
      return []
    }
    let base = memos.base(at: visible[i])
    var effects: [BrowserEffect] = []
    if selectedBase == current || selectedBase == nil {
      selection = i
      effects = selectionChanged()
    }
    following = true
    loopStart = nil
    return effects + [.resume(base: base)]
  }

  /// `B`: plays the selected memo from its very start (after it continued where it was left off).
  package mutating func playFromStart() -> [BrowserEffect] {
    guard let row = selectedRow else { return [] }
    if let refusal = playRefusal(row) {
      sayCannotPlay(refusal)
      return []
    }
    following = true
    message = nil
    if playerHoldsSelection {
      jump(to: 0)
      return [.seek(0)] + (player.state == .paused ? [.togglePause] : [])
    }
    return [.play(base: row.base, from: 0)]
  }

  // MARK: Where it was left off

  /// Notes a seek asked for, so it does not count as heard.
  package mutating func jump(to position: Double) {
    player.position = position
    if following, let cue = spokenCue { cueCursor = cue }
    if listening?.base == player.base { listening?.position = position }
  }

  /// Takes in a snapshot for remembering places: counts what was heard, and says what to remember
  /// (or forget) when the memo is paused, left, stopped or played to its end, and every
  /// `rememberEvery` seconds heard.
  package mutating func noteListening(_ before: PlayerSnapshot, _ now: PlayerSnapshot) -> [BrowserEffect] {
    var effects: [BrowserEffect] = []
    if let l = listening, now.base != l.base || !now.isActive {
      listening = nil
      if now.state == .ended && now.base == l.base {
        effects.append(.forgetPosition(base: l.base))
      } else {
        effects += remember(l)
      }
    }
    guard now.isActive, let base = now.base else { return effects }
    var l = listening ?? Listening(base: base, position: now.position)
    if before.state == .playing && now.state == .playing && before.base == base {
      let delta = now.position - l.position
      // A frame moves the clock by a fraction of a second; more is a seek or a loop's wrap.
      if delta > 0 && delta <= 3 { l.heard += delta }
    }
    l.position = now.position
    let paused = before.state == .playing && now.state == .paused
    if (paused || l.heard - l.heardWhenSaved >= BrowserModel.rememberEvery)
      && l.heard >= BrowserModel.rememberAfter
    {
      effects += remember(l)
      l.heardWhenSaved = l.heard
    }
    listening = l
    return effects
  }

  /// What to do with the place of a memo being left: remember it once heard long enough, unless
  /// it is at the very start or the very end.
  private func remember(_ l: Listening) -> [BrowserEffect] {
    guard l.heard >= BrowserModel.rememberAfter else { return [] }
    let duration = memos.row(ofBase: l.base)?.durationSeconds ?? player.duration
    if let duration, l.position >= duration - BrowserModel.endMargin {
      return [.forgetPosition(base: l.base)]
    }
    if l.position < BrowserModel.rememberAfter { return [.forgetPosition(base: l.base)] }
    return [.rememberPosition(base: l.base, at: l.position)]
  }

  /// Before quitting: the place of the memo playing.
  package mutating func rememberBeforeQuitting() -> [BrowserEffect] {
    guard let l = listening else { return [] }
    listening = nil
    return remember(l)
  }
}
