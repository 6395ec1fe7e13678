import StashBrowser
import StashFormat
import Testing

/// Speed, volume, loops, continuing and where memos were left off, on the model alone: each key's
/// effects, the status it shows, and the places it asks to remember.
@Suite struct BrowserListeningTests {
  /// `model` after `keys`, and the effects of the last.
  static func press(_ model: inout BrowserModel, _ keys: Key...) -> [BrowserEffect] {
    var effects: [BrowserEffect] = []
    for key in keys { effects = model.update(.key(key)) }
    return effects
  }

  /// The transport line (the last row) of the model's screen.
  static func transport(_ model: BrowserModel) -> String {
    BrowserFixture.lines(BrowserView.render(model)).last ?? ""
  }

  /// Feeds snapshots of the selected memo playing from `from` to `to`, a frame (0.04 s) apart.
  static func play(_ model: inout BrowserModel, from: Double, to: Double) -> [BrowserEffect] {
    var effects: [BrowserEffect] = []
    var t = from
    while t <= to + 0.0001 {
      effects += model.update(.player(BrowserFixture.snapshot(model, at: t)))
      t += 0.04
    }
    return effects
  }

  @Test func speedStepsUpAndDownAndBackToOne() {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 10)
    let up = [Key.char("}")]
    var seen: [Double] = []
    for _ in 0..<10 {
      for effect in model.update(.key(up[0])) { if case .setSpeed(let s) = effect { seen.append(s) } }
    }
    #expect(seen == [1.25, 1.5, 1.75, 2, 2.5, 3])
    #expect(model.message?.text == "Already at the fastest, 3×.")
    #expect(Self.press(&model, .char("\\")) == [.setSpeed(1)])
    #expect(Self.press(&model, .char("{")) == [.setSpeed(0.75)])
    #expect(Self.press(&model, .char("{")) == [.setSpeed(0.5)])
    #expect(Self.press(&model, .char("{")) == [])
    // A rate from elsewhere (a remote control) is clamped, and the keys step on from it.
    #expect(model.setSpeed(7) == [.setSpeed(3)])
    _ = model.setSpeed(1.1)
    #expect(Self.press(&model, .char("}")) == [.setSpeed(1.25)])
  }

  @Test func volumeStepsClampsAndMutes() {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 10)
    #expect(Self.press(&model, .char("+")) == [.setVolume(105)])
    #expect(Self.press(&model, .char("=")) == [.setVolume(110)])
    #expect(Self.press(&model, .char("-"), .char("-"), .char("9")) == [.setVolume(95)])
    for _ in 0..<40 { _ = model.update(.key(.char("0"))) }
    #expect(model.player.volume == 150)
    for _ in 0..<40 { _ = model.update(.key(.char("-"))) }
    #expect(model.player.volume == 0)
    #expect(model.setVolume(80) == [.setVolume(80)])
    #expect(Self.press(&model, .char("m")) == [.setMuted(true)])
    #expect(Self.transport(model).contains("muted"))
    // Louder while muted unmutes.
    #expect(Self.press(&model, .char("+")) == [.setMuted(false), .setVolume(85)])
    #expect(Self.transport(model).contains("vol 85 %"))
  }

  /// `v` goes from off to voice boost, to voice boost + enhance, and back to off.
  @Test func voiceBoostThenEnhanceThenOffAndTheLineSaysSo() {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 10)
    #expect(!Self.transport(model).contains("voice boost"))
    #expect(Self.press(&model, .char("v")) == [.setVoiceBoost(true)])
    #expect(model.message?.text.hasPrefix("Voice boost on") == true)
    #expect(Self.transport(model).contains("voice boost"), "\(Self.transport(model))")
    #expect(!Self.transport(model).contains("enhance"), "\(Self.transport(model))")
    // The player's own report keeps it, as it keeps the speed.
    var snapshot = BrowserFixture.snapshot(model, at: 11)
    snapshot.voiceBoost = true
    _ = model.update(.player(snapshot))
    #expect(Self.transport(model).contains("voice boost"))
    #expect(Self.press(&model, .char("v")) == [.setEnhance(true)])
    #expect(
      model.message?.text.hasPrefix("Voice boost + enhance") == true, "\(String(describing: model.message))")
    #expect(Self.transport(model).contains("voice boost + enhance"), "\(Self.transport(model))")
    snapshot = BrowserFixture.snapshot(model, at: 12)
    snapshot.voiceBoost = true
    snapshot.enhance = true
    _ = model.update(.player(snapshot))
    #expect(Self.transport(model).contains("voice boost + enhance"))
    #expect(Self.press(&model, .char("v")) == [.setVoiceBoost(false), .setEnhance(false)])
    #expect(model.message?.text == "Voice boost and enhance off.")
    #expect(!Self.transport(model).contains("voice boost"), "\(Self.transport(model))")
    #expect(!Self.transport(model).contains("enhance"), "\(Self.transport(model))")
  }

  /// Enhance alone (`--enhance`) shows as such; `v` then adds the boost, and turns both off next.
  @Test func enhanceAloneShowsAndVAddsTheBoost() {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 10)
    var snapshot = BrowserFixture.snapshot(model, at: 11)
    snapshot.enhance = true
    _ = model.update(.player(snapshot))
    #expect(Self.transport(model).contains("enhance"), "\(Self.transport(model))")
    #expect(!Self.transport(model).contains("voice boost"), "\(Self.transport(model))")
    #expect(Self.press(&model, .char("v")) == [.setVoiceBoost(true)])
    #expect(Self.transport(model).contains("voice boost + enhance"), "\(Self.transport(model))")
    #expect(Self.press(&model, .char("v")) == [.setVoiceBoost(false), .setEnhance(false)])
  }

  @Test func skipSilenceStepsThroughItsLevelsAndTheLineSaysWhatItSaved() {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 10)
    #expect(Self.press(&model, .char("s")) == [.setSkipSilence(.mild)])
    #expect(model.message?.text.hasPrefix("Skip silence mild: pauses longer than 0.5 s") == true)
    #expect(Self.press(&model, .char("s")) == [.setSkipSilence(.medium)])
    #expect(Self.transport(model).contains("skip silence medium, 0:00 saved"), "\(Self.transport(model))")
    // The player says how much of this memo it left out; the line shows it.
    var snapshot = BrowserFixture.snapshot(model, at: 30)
    snapshot.skipSilence = .medium
    snapshot.silenceSkipped = 42
    _ = model.update(.player(snapshot))
    #expect(Self.transport(model).contains("skip silence medium, 0:42 saved"), "\(Self.transport(model))")
    #expect(Self.press(&model, .char("s")) == [.setSkipSilence(.strong)])
    #expect(Self.press(&model, .char("s")) == [.setSkipSilence(nil)])
    #expect(model.message?.text == "Skip silence off: pauses play whole.")
    #expect(!Self.transport(model).contains("skip"))
  }

  @Test func atASpeedTheTimesStayInMemoTimeWithTheRealTimeLeftBeside() {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 30)
    #expect(Self.transport(model).hasPrefix(" ▶ 0:30 "))
    #expect(Self.transport(model).contains("-1:30  Walk by the river"))
    _ = model.setSpeed(2)
    _ = model.update(.player(BrowserFixture.snapshot(model, at: 30)))
    // The snapshot of the fixture's player says 1× until the player reports the new speed.
    var snapshot = BrowserFixture.snapshot(model, at: 30)
    snapshot.speed = 2
    _ = model.update(.player(snapshot))
    let line = Self.transport(model)
    #expect(line.hasPrefix(" ▶ 0:30 "), "\(line)")
    #expect(line.contains("-1:30 (0:45 real)  2×"), "\(line)")
    // The scrubber is in memo time: a quarter of the way along at 0:30 of 2:00.
    let bar = try! #require(
      TransportLine.scrubberRange(width: 100, snapshot: model.player, name: "Walk by the river"))
    let head = line.firstIndex(of: "●").map { line.distance(from: line.startIndex, to: $0) } ?? -1
    #expect(abs(Double(head - bar.lowerBound) - Double(bar.count - 1) / 4) <= 1, "\(line)")
  }

  @Test func anABLoopIsSetClearedAndShownOnTheScrubber() {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 12)
    #expect(Self.press(&model, .char("l")) == [])
    #expect(model.loopStart == 12)
    #expect(Self.transport(model).contains("loop from 0:12…"))
    _ = model.update(.player(BrowserFixture.snapshot(model, at: 30)))
    #expect(Self.transport(model).contains("["))
    #expect(Self.press(&model, .char("l")) == [.setLoop(from: 12, to: 30)])
    var looped = BrowserFixture.snapshot(model, at: 20)
    looped.loop = PlayerSnapshot.Loop(start: 12, end: 30)
    _ = model.update(.player(looped))
    let line = Self.transport(model)
    #expect(line.contains("loop 0:12–0:30"), "\(line)")
    let a = line.firstIndex(of: "[")
    let head = line.firstIndex(of: "●")
    let b = line.firstIndex(of: "]")
    #expect(a != nil && head != nil && b != nil && a! < head! && head! < b!, "\(line)")
    #expect(Self.press(&model, .char("l")) == [.clearLoop])
    // With nothing playing, l says so.
    var idle = BrowserFixture.model()
    #expect(Self.press(&idle, .char("l")) == [] && idle.loopStart == nil)
  }

  @Test func repeatingACueLoopsItFromTheTranscript() {
    var model = BrowserFixture.model()
    let base = model.selectedBase!
    // Not playing: the cue under the cursor plays, looped (cue 3 is 9 s to 12 s).
    #expect(Self.press(&model, .enter, .down, .down, .down) == [])
    #expect(Self.press(&model, .char("L")) == [.play(base: base, from: 9), .setLoop(from: 9, to: 12)])
    // Playing elsewhere in the memo: it seeks to the cue and loops it; L again clears it.
    var playing = BrowserFixture.playing(BrowserFixture.model(), at: 31)
    _ = Self.press(&playing, .down, .down)
    #expect(playing.cueCursor == 12)
    #expect(Self.press(&playing, .char("L")) == [.seek(36), .setLoop(from: 36, to: 39)])
    var looped = BrowserFixture.snapshot(playing, at: 37)
    looped.loop = PlayerSnapshot.Loop(start: 36, end: 39)
    _ = playing.update(.player(looped))
    #expect(Self.press(&playing, .char("L")) == [.clearLoop])
  }

  @Test func continuingPlaysTheNextMemoInTheListAtTheEnd() {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 100)
    let second = model.memos[1].base
    #expect(!model.continuing && !Self.transport(model).contains("continue"))
    // Off by default: the end stops.
    var off = model
    let ended = PlayerSnapshot(state: .ended, base: model.selectedBase, position: 120, duration: 120)
    #expect(!off.update(.player(ended)).contains(.resume(base: second)))
    #expect(Self.press(&model, .char("C")) == [])
    #expect(model.continuing && Self.transport(model).contains("continue"))
    let effects = model.update(.player(ended))
    #expect(effects.contains(.resume(base: second)), "\(effects)")
    // The selection was on the memo playing, so it follows to the next one.
    #expect(model.selectedBase == second)
    // At the end of the list it stops and says so.
    var last = BrowserFixture.model()
    _ = Self.press(&last, .end, .char("C"))
    last = BrowserFixture.playing(last, at: 100)
    let lastEnded = PlayerSnapshot(state: .ended, base: last.selectedBase, position: 120, duration: 120)
    #expect(!last.update(.player(lastEnded)).contains { if case .resume = $0 { true } else { false } })
    #expect(last.message?.text == "Played to the end of the list.")
    #expect(Self.press(&last, .char("C")) == [] && !last.continuing)
  }

  @Test func nextAndPreviousMemoPlayInTheListsOrder() {
    var model = BrowserFixture.model()
    let bases = model.memos.map(\.base)
    #expect(Self.press(&model, .char(">")) == [.loadDetail(base: bases[1]), .resume(base: bases[1])])
    _ = model.update(.player(PlayerSnapshot(state: .playing, base: bases[1], position: 0, duration: 60)))
    #expect(Self.press(&model, .char("<")) == [.loadDetail(base: bases[0]), .resume(base: bases[0])])
    _ = model.update(.player(PlayerSnapshot(state: .playing, base: bases[0], position: 0, duration: 60)))
    #expect(Self.press(&model, .char("<")) == [])
    #expect(model.message?.text == "This is the first memo in the list.")
  }

  @Test func aPlaceIsRememberedOnceHeardForAFewSeconds() {
    // Heard 3 s, then paused: too little to remember.
    var short = BrowserFixture.playing(BrowserFixture.model(), at: 40)
    #expect(Self.play(&short, from: 40, to: 43) == [])
    #expect(short.update(.player(BrowserFixture.snapshot(short, .paused, at: 43))) == [])
    // Heard 6 s, then paused: remembered where it paused.
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 40)
    let base = model.selectedBase!
    #expect(Self.play(&model, from: 40, to: 46) == [])
    let paused = model.update(.player(BrowserFixture.snapshot(model, .paused, at: 46)))
    #expect(paused.count == 1)
    if case .rememberPosition(let b, let at) = paused.first {
      #expect(b == base && abs(at - 46) < 0.05)
    } else {
      Issue.record("pausing remembered nothing: \(paused)")
    }
    // A seek is not listening: jumping a minute on does not count as heard.
    var seeking = BrowserFixture.playing(BrowserFixture.model(), at: 0)
    _ = Self.press(&seeking, .char("]"))
    #expect(seeking.listening?.heard == 0)
    // Quitting while playing remembers first, then stops.
    var quitting = BrowserFixture.playing(BrowserFixture.model(), at: 40)
    _ = Self.play(&quitting, from: 40, to: 50)
    let quit = Self.press(&quitting, .char("q"))
    #expect(quit.count == 3 && quit.suffix(2) == [.stop, .quit], "\(quit)")
    // Played to its end: forgotten, so it starts from the beginning next time.
    var ending = BrowserFixture.playing(BrowserFixture.model(), at: 110)
    _ = Self.play(&ending, from: 110, to: 119.9)
    let end = ending.update(.player(PlayerSnapshot(state: .ended, base: base, position: 120, duration: 120)))
    #expect(end == [.forgetPosition(base: base)])
    // A long listen is remembered as it goes, every 30 s heard.
    var long = BrowserFixture.playing(BrowserFixture.model(), at: 0)
    let along = Self.play(&long, from: 0, to: 65)
    #expect(along.count == 2, "\(along)")
  }

  @Test func aMemoLeftOffContinuesThereWithALineAndBStartsOver() {
    var model = BrowserFixture.model()
    let base = model.selectedBase!
    #expect(Self.press(&model, .char(" ")) == [.resume(base: base)])
    _ = model.update(.resumed(base: base, from: 754))
    _ = model.update(.player(PlayerSnapshot(state: .playing, base: base, position: 754, duration: 2400)))
    let status = BrowserFixture.lines(BrowserView.render(model))[model.layout.status.y]
    #expect(status.hasPrefix("Continuing from 12:34, where it was left off: B plays from the beginning."))
    #expect(Self.press(&model, .char("B")) == [.seek(0)])
    // Not playing: B plays from 0, whatever was left off.
    var other = BrowserFixture.model()
    #expect(Self.press(&other, .char("B")) == [.play(base: base, from: 0)])
    // Another memo playing before: the line is about the one that now plays (the runner reports
    // its snapshot first).
    var switching = BrowserFixture.playing(BrowserFixture.model(), at: 20)
    _ = switching.update(.key(.escape))
    _ = switching.update(.key(.down))
    let second = switching.selectedBase!
    #expect(Self.press(&switching, .char(" ")) == [.resume(base: second)])
    _ = switching.update(.player(PlayerSnapshot(state: .playing, base: second, position: 30, duration: 60)))
    _ = switching.update(.resumed(base: second, from: 30))
    #expect(switching.message?.text.hasPrefix("Continuing from 0:30") == true)
    // A damaged file of places is a warning on the status line, nothing more.
    _ = other.update(.warning("Where memos were left off could not be read: set aside."))
    #expect(other.message?.spans.first?.style == .warning)
  }

  @Test func theSettingsShowWithoutPushingOutTheClockAndTheTitle() {
    let name = "Walk by the river"
    for width in [40, 44, 50, 60, 70, 80, 100, 140, 200] {
      var model = BrowserFixture.playing(BrowserFixture.model(width: width, height: 20), at: 31)
      _ = model.setContinuing(true)
      var snapshot = BrowserFixture.snapshot(model, at: 31, duration: 3_599)
      snapshot.speed = 1.5
      snapshot.volume = 80
      snapshot.loop = PlayerSnapshot.Loop(start: 20, end: 40)
      _ = model.update(.player(snapshot))
      let line = Self.transport(model)
      let context = "\(width): \(line)"
      #expect(CharacterWidth.of(line) <= width, "\(context)")
      #expect(line.hasPrefix(" ▶ 0:31 "), "\(context)")
      #expect(line.contains("1.5×"), "\(context)")
      #expect(line.contains("80%") || line.contains("vol 80 %"), "\(context)")
      #expect(line.contains("loop"), "\(context)")
      #expect(line.contains(" C ") || line.contains("continue"), "\(context)")
      #expect(line.contains(String(name.prefix(8))), "\(context)")
      if width >= 140 {
        #expect(line.contains("1.5× · vol 80 % · loop 0:20–0:40 · continue"), "\(context)")
        #expect(line.contains("(39:38 real)"), "\(context)")
        #expect(line.contains(name), "\(context)")
      }
      BrowserFixture.checkInvariants(model, context)
    }
    // Nothing shown when every setting is the default.
    let plain = Self.transport(BrowserFixture.playing(BrowserFixture.model(), at: 31))
    #expect(!plain.contains("×") && !plain.contains("vol") && !plain.contains("loop"))
  }

  @Test func onTheTooSmallScreenQQuitsThroughAnOpenBox() {
    for opener in [Key.char("?"), .char("d"), .char("/"), .char("g")] {
      var model = BrowserFixture.model()
      _ = model.update(.key(opener))
      #expect(model.overlay != nil || model.prompt != nil, "\(opener.label)")
      _ = model.update(.resize(width: 30, height: 8))
      #expect(model.update(.key(.char("q"))) == [.quit], "\(opener.label)")
      let finished = model.finished
      #expect(finished, "\(opener.label)")
    }
  }
}

/// The list marks a memo left off partway with `◐`, in the column where `▶` shows the one playing.
@Suite struct BrowserPartlyHeardTests {
  /// The list row of the memo `base` on the model's screen.
  static func row(_ model: BrowserModel, _ base: String) -> String {
    let index = model.memos.position(ofBase: base)!
    return BrowserFixture.lines(BrowserView.render(model))[1 + index]
  }

  @Test func aMemoLeftOffPartwayIsMarked() {
    var rows = BrowserFixture.rows
    rows[1].partlyHeard = true
    var model = BrowserFixture.model(rows: rows)
    #expect(Self.row(model, rows[1].base).hasPrefix(" ◐"), "\(Self.row(model, rows[1].base))")
    #expect(Self.row(model, rows[0].base).hasPrefix("› "), "\(Self.row(model, rows[0].base))")
    #expect(Self.row(model, rows[2].base).hasPrefix("  "))
    // Heard 6 s and paused: remembered, so marked once it stops playing; played to its end:
    // forgotten, and the mark goes.
    let base = rows[0].base
    model = BrowserFixture.playing(model, at: 40)
    _ = BrowserListeningTests.play(&model, from: 40, to: 46)
    _ = model.update(.player(BrowserFixture.snapshot(model, .paused, at: 46)))
    #expect(Self.row(model, base).hasPrefix("›‖"))
    _ = model.update(.player(.idle))
    #expect(Self.row(model, base).hasPrefix("›◐"), "\(Self.row(model, base))")
    model = BrowserFixture.playing(model, at: 110)
    _ = BrowserListeningTests.play(&model, from: 110, to: 119.9)
    _ = model.update(.player(PlayerSnapshot(state: .ended, base: base, position: 120, duration: 120)))
    #expect(Self.row(model, base).hasPrefix("› "), "\(Self.row(model, base))")
  }

  @Test func theHelpSaysWhatTheMarkMeans() {
    #expect(KeyTable.helpLines().contains { $0.text.contains("◐ partly heard") })
  }

  @Test func aPlaceCountsAsPartlyHeardAsTheBrowserContinuesFromIt() {
    let key = "0123456789abcdef-1000"
    let book = PositionBook(entries: [key: .init(position: 30, updated: 0)])
    #expect(book.isPartlyHeard(key: key, duration: 60))
    #expect(book.isPartlyHeard(key: key, duration: nil))
    #expect(!book.isPartlyHeard(key: key, duration: 31))
    #expect(!book.isPartlyHeard(key: "0123456789abcdef-1001", duration: 60))
    let early = PositionBook(entries: [key: .init(position: 3, updated: 0)])
    #expect(!early.isPartlyHeard(key: key, duration: 60))
    #expect(book.sizes == [1000])
  }
}
