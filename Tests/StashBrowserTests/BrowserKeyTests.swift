import StashBrowser
import Testing

/// `update` for every key in every state the browser can be in: nothing goes out of range, the
/// screen stays whole, and in the common states each key does what its help line says.
@Suite struct BrowserKeyTests {
  /// Every key the table binds, the prompt's editing keys, and keys bound to nothing.
  static let keys: [Key] = {
    var keys: [Key] = []
    for group in KeyTable.groups {
      for binding in group.bindings { keys += binding.keys }
    }
    keys += [
      .ctrl("a"), .ctrl("e"), .ctrl("u"), .ctrl("k"), .char("y"), .char("z"), .char("é"), .function(9),
    ]
    return keys
  }()

  /// The states, by name.
  static let states: [(name: String, model: BrowserModel)] = {
    let base = BrowserFixture.model()
    var states: [(String, BrowserModel)] = [("list", base)]
    states.append(("empty folder", BrowserFixture.model(rows: [], detail: nil)))
    var unread = BrowserModel(folderPath: "/memos", width: 100, height: 30)
    _ = unread.update(.listed([], error: "the folder cannot be read: permission denied"))
    states.append(("unreadable folder", unread))
    states.append(("detail not loaded", BrowserFixture.model(detail: nil)))
    var transcript = base
    _ = transcript.update(.key(.enter))
    states.append(("transcript", transcript))
    let playing = BrowserFixture.playing(base, at: 31)
    states.append(("playing", playing))
    var paused = playing
    _ = paused.update(.player(BrowserFixture.snapshot(paused, .paused, at: 31)))
    states.append(("paused", paused))
    var unfollowed = playing
    _ = unfollowed.update(.key(.down))
    states.append(("playing, not following", unfollowed))
    var otherPlaying = playing
    _ = otherPlaying.update(.key(.escape))
    _ = otherPlaying.update(.key(.down))
    states.append(("another memo playing", otherPlaying))
    for (name, key) in [
      ("rename prompt", Key.char("r")), ("filter prompt", .char("/")), ("go-to prompt", .char("g")),
    ] {
      var m = base
      _ = m.update(.key(key))
      states.append((name, m))
    }
    var filtered = base
    for key in [Key.char("/"), .char("会"), .enter] { _ = filtered.update(.key(key)) }
    states.append(("filtered", filtered))
    var help = base
    _ = help.update(.key(.char("?")))
    states.append(("help", help))
    var report = base
    _ = report.update(.actionFinished(.report(title: "Recovery", lines: (1...80).map { "line \($0)" })))
    states.append(("report", report))
    var confirm = base
    _ = confirm.update(.key(.char("d")))
    states.append(("confirm delete", confirm))
    var forGood = base
    _ = forGood.update(.actionFinished(.trashUnavailable(base: base.selectedBase!, reason: "no Trash")))
    states.append(("confirm delete for good", forGood))
    var recovering = base
    _ = recovering.update(.key(.char("R")))
    states.append(("recovering", recovering))
    var damaged = BrowserFixture.model(rows: [
      BrowserFixture.row("2026-03-14T09-30-00Z", at: BrowserFixture.march14, audio: .damaged("no index"))
    ])
    states.append(("damaged audio", damaged))
    _ = damaged.update(.key(.enter))
    states.append(("damaged audio, transcript", damaged))
    states.append(("narrow", BrowserFixture.model(width: 60, height: 20)))
    var narrowTranscript = BrowserFixture.playing(BrowserFixture.model(width: 60, height: 20), at: 10)
    _ = narrowTranscript.update(.key(.pageDown))
    states.append(("narrow, playing", narrowTranscript))
    states.append(("smallest", BrowserFixture.model(width: 40, height: 10)))
    states.append(("too small", BrowserFixture.model(width: 30, height: 8)))
    return states
  }()

  @Test func everyKeyInEveryStateKeepsTheModelWhole() {
    #expect(Self.keys.count > 40)
    #expect(Self.states.count > 20)
    for (name, state) in Self.states {
      BrowserFixture.checkInvariants(state, name)
      for key in Self.keys {
        var model = state
        let effects = model.update(.key(key))
        BrowserFixture.checkInvariants(model, "\(name), \(key.label)")
        // Quitting is the only way out, and it stops the player first.
        if model.finished {
          #expect(effects.last == .quit, "\(name), \(key.label)")
          #expect(!state.player.isActive || effects.contains(.stop), "\(name), \(key.label)")
        }
        // A second key on top of the first: the common pairs (open then move, type then Esc).
        for second in [Key.down, .escape, .enter] {
          var twice = model
          _ = twice.update(.key(second))
          BrowserFixture.checkInvariants(twice, "\(name), \(key.label), \(second.label)")
        }
      }
    }
  }

  @Test func keysInTheListDoWhatTheHelpSays() throws {
    let model = BrowserFixture.model()
    let first = try #require(model.selectedBase)
    let second = model.memos[1].base
    func after(_ key: Key) -> (BrowserModel, [BrowserEffect]) {
      var m = model
      let effects = m.update(.key(key))
      return (m, effects)
    }
    #expect(after(.down).1 == [.loadDetail(base: second)])
    #expect(after(.char("j")).0.selectedBase == second)
    #expect(after(.up).1 == [])
    #expect(after(.end).0.selection == 2)
    #expect(after(.enter).0.focus == .transcript)
    #expect(after(.tab).0.focus == .transcript)
    #expect(after(.char(" ")).1 == [.resume(base: first)])
    #expect(after(.left).1 == [])
    #expect(after(.left).0.message?.text == "Nothing is playing: space plays the open memo.")
    #expect(after(.char("r")).0.prompt?.purpose == .rename(base: first))
    #expect(after(.char("r")).0.prompt?.text == "Walk by the river")
    #expect(after(.char("g")).0.prompt?.purpose == .goToTime)
    #expect(after(.char("/")).0.prompt?.purpose == .filter)
    let (recovering, recover) = after(.char("R"))
    // R first asks for the plan (the sweep runs once the user confirms it).
    #expect(recover == [.planRecovery] && recovering.recovering)
    #expect(after(.char("?")).0.overlay == .help)
    if case .confirmDelete(let base, let files, let permanently, _) = after(.char("d")).0.overlay {
      #expect(base == first && !permanently && files == model.memos[0].files)
    } else {
      Issue.record("d did not ask before deleting")
    }
    #expect(after(.ctrl("l")).1 == [.list, .loadDetail(base: first)])
    #expect(after(.function(5)).1 == after(.ctrl("l")).1)
    #expect(after(.char("n")).0.message?.text == "No search: / sets one.")
    #expect(after(.char("f")).0.message?.text == "Following is on; it shows once this memo plays.")
    #expect(after(.char("q")).1 == [.quit] && after(.char("q")).0.finished)
    #expect(after(.ctrl("c")).1 == [.quit])
    #expect(after(.char("z")).0.message?.text == "z does nothing here: ? lists the keys.")
  }

  @Test func keysWhilePlayingMoveThePlayer() throws {
    let model = BrowserFixture.playing(BrowserFixture.model(), at: 31)
    let base = try #require(model.selectedBase)
    #expect(model.cueCursor == 10 && model.following)
    func after(_ key: Key) -> (BrowserModel, [BrowserEffect]) {
      var m = model
      let effects = m.update(.key(key))
      return (m, effects)
    }
    #expect(after(.char(" ")).1 == [.togglePause])
    #expect(after(.right).1 == [.seek(36)])
    #expect(after(.left).1 == [.seek(26)])
    #expect(after(.char("]")).1 == [.seek(91)])
    #expect(after(.char("[")).1 == [.seek(0)])
    // Cue steps go to the first word of the cue; back from the middle of one goes to its start.
    #expect(after(.ctrlRight).1 == [.seek(33)])
    #expect(after(.char(".")).0.cueCursor == 11)
    #expect(after(.ctrlLeft).1 == [.seek(27)])
    #expect(after(.enter).1 == [.seek(30)])
    #expect(after(.escape).0.focus == .list)
    #expect(after(.char("q")).1 == [.stop, .quit])
    let (moved, none) = after(.down)
    #expect(none == [] && moved.cueCursor == 11 && !moved.following)
    // A seek past the end stops at the end.
    var late = model
    _ = late.update(.player(BrowserFixture.snapshot(late, at: 100)))
    #expect(late.update(.key(.char("]"))) == [.seek(120)])
    // Another memo selected: space plays that one rather than pausing this one.
    var other = model
    _ = other.update(.key(.escape))
    _ = other.update(.key(.down))
    #expect(other.update(.key(.char(" "))) == [.resume(base: other.selectedBase!)])
    #expect(other.selectedBase != base)
  }

  @Test func damagedAudioRefusesToPlayAndSaysWhy() {
    var model = BrowserFixture.model(rows: [
      BrowserFixture.row("2026-03-14T09-30-00Z", at: BrowserFixture.march14, audio: .damaged("no index"))
    ])
    for key in [Key.char(" "), .char("g"), .ctrlRight] {
      var m = model
      #expect(m.update(.key(key)) == [], "\(key.label)")
      #expect(m.message?.text == "Cannot play: no index", "\(key.label)")
    }
    _ = model.update(.key(.enter))
    #expect(model.update(.key(.enter)) == [])
    #expect(model.message?.text == "Cannot play: no index")
  }

  /// The player's failure is said once, and goes when playing works again; a line said since
  /// about something else stays.
  @Test func aFailureToPlayGoesOnceItPlaysAgain() {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 3)
    let failed = BrowserFixture.snapshot(model, .failed("the sound device went away"), at: 3)
    _ = model.update(.player(failed))
    #expect(model.message?.text == "Cannot play: the sound device went away")
    var other = model
    _ = model.update(.player(BrowserFixture.snapshot(model, at: 3)))
    #expect(model.message == nil)
    _ = other.update(.warning("The places could not be written."))
    _ = other.update(.player(BrowserFixture.snapshot(other, at: 3)))
    #expect(other.message?.text == "The places could not be written.")
  }

  /// On closing, the status line says the loop waits for a running sweep, and nothing otherwise.
  @Test func closingSaysWhatItWaitsFor() {
    var model = BrowserFixture.model()
    _ = model.update(.key(.char("R")))
    #expect(model.update(.closing).isEmpty)
    #expect(model.message == StyledLine("Finishing the recovery sweep before quitting…", .dim))
    var idle = BrowserFixture.model()
    _ = idle.update(.closing)
    #expect(idle.message == nil)
  }

  @Test func tooSmallShowsWhatItNeedsAndQuits() {
    var model = BrowserFixture.model(width: 30, height: 8)
    let lines = BrowserFixture.lines(BrowserView.render(model))
    #expect(lines.prefix(3) == ["Terminal too small", "30x8; needs 40x10", "q quits"])
    #expect(lines.dropFirst(3).allSatisfy { $0.isEmpty })
    #expect(model.update(.key(.char("q"))) == [.quit])
  }
}
