import Foundation
import StashTestSupport
import Testing

/// The browser's MPRIS server for real: a session bus of the test's own (`dbus-daemon`), the
/// browser in tmux playing on a paced ALSA file PCM, driven with `busctl --user` and watched with
/// `dbus-monitor`. Both directions: a bus call changes what plays, a key changes the properties
/// and sends the signals.
@Suite(.serialized) struct MPRISEndToEndTests {
  static let name = "org.mpris.MediaPlayer2.stash"
  static let path = "/org/mpris/MediaPlayer2"
  static let player = "org.mpris.MediaPlayer2.Player"
  /// Only what the browser's object sends.
  static let signals = "type='signal',path='/org/mpris/MediaPlayer2'"

  /// The browser on `folder` with its sound going to a file at the speed it would be heard, on `bus`.
  static func browser(_ folder: URL, bus: SessionBus, arguments: [String] = []) throws -> TmuxSession {
    let raw = folder.deletingLastPathComponent().appendingPathComponent("\(folder.lastPathComponent).raw")
    return try TmuxSession(
      folder: folder,
      environment: EndToEndActionTests.soundToFile(raw).merging(bus.environment) { $1 }, arguments: arguments)
  }

  /// A bus of its own, a folder of three memos and the browser on them, the list read and the
  /// name taken. `close` ends the browser and the bus.
  static func started() throws -> (SessionBus, URL, TmuxSession) {
    let bus = try SessionBus()
    let folder = try TUIHarness.memoFolder()
    let tmux = try browser(folder, bus: bus)
    #expect(tmux.waitUntilRead(for: "3 memos") != nil, "\(tmux.capture())")
    #expect(eventually { bus.names().contains(name) }, "names: \(bus.names())")
    return (bus, folder, tmux)
  }

  static func close(_ bus: SessionBus, _ tmux: TmuxSession) {
    tmux.close()
    bus.stop()
  }

  /// `busctl --user call` on the player; the output when it failed.
  @discardableResult
  static func call(_ bus: SessionBus, _ method: String, _ arguments: String...) -> String? {
    let r = try? bus.busctl(["call", name, path, player, method] + arguments)
    return r?.status == 0 ? nil : (r?.output ?? "busctl did not run")
  }

  /// A Player property as busctl prints it (`s "Playing"`, `x 1500000`).
  static func property(_ bus: SessionBus, _ property: String) -> String {
    let r = try? bus.busctl(["get-property", name, path, player, property])
    return (r?.output ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The metadata's `xesam:title`, read as JSON (busctl's plain output escapes what is not ASCII).
  static func title(_ bus: SessionBus) -> String? {
    let r = try? bus.busctl(["--json=short", "get-property", name, path, player, "Metadata"])
    guard let r, r.status == 0,
      let object = try? JSONSerialization.jsonObject(with: Data(r.output.utf8)) as? [String: Any],
      let data = object["data"] as? [String: Any], let title = data["xesam:title"] as? [String: Any]
    else { return nil }
    return title["data"] as? String
  }

  /// The Position property in seconds.
  static func position(_ bus: SessionBus) -> Double? {
    let words = property(bus, "Position").split(separator: " ")
    guard words.count == 2, words[0] == "x", let us = Double(words[1]) else { return nil }
    return us / 1e6
  }

  /// Polls until `predicate` holds for what `read` gives; true if it did within `timeout`.
  static func eventually(timeout: Double = 10, _ predicate: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
      if predicate() { return true }
      Thread.sleep(forTimeInterval: 0.05)
    } while Date() < deadline
    return false
  }

  /// The seconds the transport's clock shows (`▶ 0:12 ━━…`), or nil.
  static func clock(_ screen: String) -> Int? {
    let words = TUIHarness.transport(screen).split(separator: " ")
    guard words.count > 1 else { return nil }
    let parts = words[1].split(separator: ":").compactMap { Int($0) }
    return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
  }

  @Test func busCallsChangeWhatPlays() throws {
    let (bus, folder, tmux) = try Self.started()
    defer { Self.close(bus, tmux) }
    #expect(Self.property(bus, "PlaybackStatus") == #"s "Stopped""#)
    #expect(Self.property(bus, "CanSeek") == "b false")

    // PlayPause plays the selected memo (the newest, first in the list).
    #expect(Self.call(bus, "PlayPause") == nil)
    #expect(tmux.wait { TUIHarness.transport($0).hasPrefix("▶") } != nil, "\(tmux.capture())")
    #expect(Self.eventually { Self.property(bus, "PlaybackStatus") == #"s "Playing""# })
    #expect(Self.property(bus, "CanSeek") == "b true")

    // Seek moves on by its offset: the clock jumps past 0:10.
    #expect(Self.call(bus, "Seek", "x", "10000000") == nil)
    #expect(tmux.wait { (Self.clock($0) ?? 0) >= 10 } != nil, "\(tmux.capture())")
    #expect((Self.position(bus) ?? 0) >= 10)

    // SetPosition with another memo's track id is ignored; with this one's it moves there.
    let metadata = Self.property(bus, "Metadata")
    let id = try #require(
      metadata.firstMatch(of: /"mpris:trackid" o "([^"]+)"/).map { String($0.1) }, "\(metadata)")
    #expect(Self.call(bus, "SetPosition", "ox", "/org/stash/memo/another", "2000000") == nil)
    Thread.sleep(forTimeInterval: 0.5)
    #expect((Self.position(bus) ?? 0) >= 10, "a call for another track moved it")
    #expect(Self.call(bus, "SetPosition", "ox", id, "3000000") == nil)
    #expect(tmux.wait { [3, 4, 5].contains(Self.clock($0) ?? -1) } != nil, "\(tmux.capture())")
    let position = try #require(Self.position(bus))
    #expect(position >= 3 && position < 6)

    // Next plays the next memo in the list, and the list shows it.
    #expect(Self.call(bus, "Next") == nil)
    #expect(
      tmux.wait {
        TUIHarness.selectedRow($0)?.contains("会議のメモ") == true && TUIHarness.transport($0).hasPrefix("▶ 0:0")
      } != nil, "\(tmux.capture())")
    #expect(Self.eventually { Self.title(bus) == "会議のメモ 🎉" }, "\(Self.property(bus, "Metadata"))")
    #expect(Self.property(bus, "CanGoPrevious") == "b true")

    // The device is given sound while it plays; Pause stops that.
    let raw = folder.deletingLastPathComponent().appendingPathComponent("\(folder.lastPathComponent).raw")
    let size = { (try? FileManager.default.attributesOfItem(atPath: raw.path)[.size] as? Int) ?? 0 }
    let playing = size()
    Thread.sleep(forTimeInterval: 1)
    #expect(size() - playing > 48000 * 4 / 2, "the device was given \(size() - playing) bytes in a second")
    #expect(Self.call(bus, "Pause") == nil)
    #expect(tmux.wait { TUIHarness.transport($0).hasPrefix("‖") } != nil, "\(tmux.capture())")
    #expect(Self.eventually { Self.property(bus, "PlaybackStatus") == #"s "Paused""# })
    let paused = size()
    Thread.sleep(forTimeInterval: 0.5)
    #expect(size() == paused, "the device was given sound while paused")

    // Quit leaves as q does.
    let quit = try bus.busctl(["call", Self.name, Self.path, "org.mpris.MediaPlayer2", "Quit"])
    #expect(quit.status == 0, "\(quit.output)")
    #expect(tmux.wait(for: "EXITED:0") != nil, "\(tmux.capture())")
    #expect(Self.eventually { !bus.names().contains(Self.name) })
  }

  @Test func keysChangeThePropertiesAndSendTheSignals() throws {
    let (bus, _, tmux) = try Self.started()
    defer { Self.close(bus, tmux) }
    let monitor = try bus.monitor(Self.signals)

    // Space plays: PropertiesChanged says Playing.
    tmux.send("Space")
    let playing = monitor.wait {
      $0.contains("member=PropertiesChanged") && $0.contains(#"string "Playing""#)
    }
    #expect(playing != nil, "\(monitor.text())")
    #expect(Self.property(bus, "PlaybackStatus") == #"s "Playing""#)

    // Right seeks 5 s on: Seeked, with the new position.
    #expect(tmux.wait { (Self.clock($0) ?? -1) >= 1 } != nil)
    tmux.send("Right")
    let seeked = monitor.wait { $0.contains("member=Seeked") }
    #expect(seeked != nil, "\(monitor.text())")
    if let seeked, let after = seeked.components(separatedBy: "member=Seeked").last {
      let us = after.firstMatch(of: /int64 (\d+)/).flatMap { Int($0.1) } ?? 0
      #expect(us >= 5_000_000 && us < 9_000_000, "Seeked says \(us) µs")
    }

    // Space pauses: PropertiesChanged says Paused.
    tmux.send("Space")
    #expect(monitor.wait { $0.contains(#"string "Paused""#) } != nil, "\(monitor.text())")

    // Down, then space, plays the next memo: Metadata changes to it.
    tmux.send("Down", "Space")
    let next = monitor.wait { text in
      text.components(separatedBy: "member=PropertiesChanged").last?.contains("会議のメモ") == true
    }
    #expect(next != nil, "\(monitor.text())")
    #expect(Self.title(bus) == "会議のメモ 🎉")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func rateAndVolumeGoBothWays() throws {
    let (bus, _, tmux) = try Self.started()
    defer { Self.close(bus, tmux) }
    let monitor = try bus.monitor(Self.signals)
    #expect(Self.call(bus, "Play") == nil)
    #expect(tmux.wait { (Self.clock($0) ?? -1) >= 1 } != nil, "\(tmux.capture())")

    // Rate 2 over the bus: the status line says 2×, and memo time runs at twice the wall clock.
    let set = try bus.busctl(["set-property", Self.name, Self.path, Self.player, "Rate", "d", "2"])
    #expect(set.status == 0, "\(set.output)")
    #expect(tmux.wait(for: "2×") != nil, "\(tmux.capture())")
    #expect(Self.eventually { Self.property(bus, "Rate") == "d 2" })
    let start = try #require(Self.position(bus))
    let began = Date()
    Thread.sleep(forTimeInterval: 2)
    let end = try #require(Self.position(bus))
    let ratio = (end - start) / Date().timeIntervalSince(began)
    #expect(ratio > 1.7 && ratio < 2.3, "memo time ran at \(ratio)× the wall clock")

    // Volume 0.5 over the bus: the status line shows it.
    let volume = try bus.busctl(["set-property", Self.name, Self.path, Self.player, "Volume", "d", "0.5"])
    #expect(volume.status == 0, "\(volume.output)")
    #expect(tmux.wait(for: "50 %") != nil, "\(tmux.capture())")
    #expect(Self.property(bus, "Volume") == "d 0.5")

    // Keys: the backslash (back to 1×) and m (mute) are announced.
    tmux.type("\\")
    #expect(Self.lastChange(monitor, "Rate", "double 1"), "\(monitor.text())")
    tmux.send("m")
    #expect(Self.lastChange(monitor, "Volume", "double 0"), "\(monitor.text())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  /// Whether, within 10 s, the last PropertiesChanged the monitor saw names `property` with `value`.
  static func lastChange(_ monitor: BusMonitor, _ property: String, _ value: String) -> Bool {
    monitor.wait { text in
      guard let last = text.components(separatedBy: "member=PropertiesChanged").dropFirst().last else {
        return false
      }
      return last.contains("string \"\(property)\"") && last.contains(value)
    } != nil
  }

  /// `playerctl ARGS` on the browser, on `bus`: its status and output.
  static func playerctl(_ bus: SessionBus, _ arguments: String...) -> (status: Int32, output: String) {
    let environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LC_ALL": "C.UTF-8",
    ]
    let r = try? AudioServerProcess.run(
      "playerctl", ["--player=stash"] + arguments, environment: environment.merging(bus.environment) { $1 })
    return (r?.status ?? -1, (r?.output ?? "").trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test func playerctlSeesAndDrivesTheBrowser() throws {
    let (bus, _, tmux) = try Self.started()
    defer { Self.close(bus, tmux) }
    #expect(Self.eventually { Self.playerctl(bus, "status").output == "Stopped" })
    #expect(Self.playerctl(bus, "metadata", "--format", "{{title}}").output == "שלום עולם")
    #expect(Self.playerctl(bus, "play").status == 0)
    #expect(tmux.wait { TUIHarness.transport($0).hasPrefix("▶") } != nil, "\(tmux.capture())")
    #expect(Self.eventually { Self.playerctl(bus, "status").output == "Playing" })
    #expect(Self.playerctl(bus, "position", "12").status == 0)
    #expect(tmux.wait { (12...14).contains(Self.clock($0) ?? -1) } != nil, "\(tmux.capture())")
    let position = Double(Self.playerctl(bus, "position").output) ?? 0
    #expect(position >= 12 && position < 15, "playerctl says \(position)")
    #expect(Self.playerctl(bus, "next").status == 0)
    #expect(Self.eventually { Self.playerctl(bus, "metadata", "--format", "{{title}}").output == "会議のメモ 🎉" })
    #expect(Self.playerctl(bus, "pause").status == 0)
    #expect(tmux.wait { TUIHarness.transport($0).hasPrefix("‖") } != nil, "\(tmux.capture())")
    #expect(Self.playerctl(bus, "stop").status == 0)
    #expect(tmux.wait { TUIHarness.transport($0).hasPrefix("■") } != nil, "\(tmux.capture())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func openUriPlaysAMemoOfTheFolderAndRefusesOthers() throws {
    let (bus, folder, tmux) = try Self.started()
    defer { Self.close(bus, tmux) }
    let audio = folder.appendingPathComponent("2026-03-14T09-30-00Z_audio.m4a").resolvingSymlinksInPath()
    #expect(Self.call(bus, "OpenUri", "s", audio.absoluteString) == nil)
    #expect(
      tmux.wait {
        TUIHarness.selectedRow($0)?.contains("2026-03-14") == true && TUIHarness.transport($0).hasPrefix("▶")
      } != nil, "\(tmux.capture())")
    #expect(Self.eventually { Self.property(bus, "Metadata").contains("2026-03-14T09-30-00Z_audio.m4a") })
    let refused = Self.call(bus, "OpenUri", "s", "file:///etc/passwd")
    #expect(refused?.contains("opens only the audio of a memo") == true, "\(refused ?? "accepted")")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func aSecondBrowserTakesAnInstanceName() throws {
    let (bus, folder, first) = try Self.started()
    defer { Self.close(bus, first) }
    let second = try Self.browser(folder, bus: bus)
    defer { second.close() }
    #expect(second.waitUntilRead(for: "3 memos") != nil)
    let pid = try #require(second.browserProcess())
    #expect(Self.eventually { bus.names().contains("\(Self.name).instance\(pid)") }, "names: \(bus.names())")
    first.send("q")
    second.send("q")
    #expect(first.wait(for: "EXITED:0") != nil)
    #expect(second.wait(for: "EXITED:0") != nil)
  }

  @Test func withNoMprisItStaysOffTheBusAndPlays() throws {
    let bus = try SessionBus()
    defer { bus.stop() }
    let folder = try TUIHarness.memoFolder()
    let tmux = try Self.browser(folder, bus: bus, arguments: ["--no-mpris"])
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("Space")
    #expect(tmux.wait { (Self.clock($0) ?? -1) >= 1 } != nil, "\(tmux.capture())")
    #expect(!bus.names().contains { $0.hasPrefix(Self.name) }, "names: \(bus.names())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func withNoSessionBusItPlaysAsBeforeAndSaysNothing() throws {
    let folder = try TUIHarness.memoFolder()
    let raw = folder.deletingLastPathComponent().appendingPathComponent("\(folder.lastPathComponent).raw")
    let missing = folder.deletingLastPathComponent().appendingPathComponent("no-bus-here")
    var environment = EndToEndActionTests.soundToFile(raw)
    environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(missing.path)"
    environment["XDG_RUNTIME_DIR"] = missing.path
    let tmux = try TmuxSession(folder: folder, environment: environment)
    defer { tmux.close() }
    let screen = try #require(tmux.waitUntilRead(for: "3 memos"), "\(tmux.capture())")
    #expect(!screen.lowercased().contains("bus"), "\(screen)")
    tmux.send("Space")
    #expect(tmux.wait { (Self.clock($0) ?? -1) >= 1 } != nil, "\(tmux.capture())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func whenTheBusGoesAwayTheBrowserCarriesOn() throws {
    let (bus, _, tmux) = try Self.started()
    defer { Self.close(bus, tmux) }
    bus.stop()
    tmux.send("Space")
    #expect(tmux.wait { (Self.clock($0) ?? -1) >= 1 } != nil, "\(tmux.capture())")
    tmux.send("Space")
    #expect(tmux.wait { TUIHarness.transport($0).hasPrefix("‖") } != nil, "\(tmux.capture())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil, "\(tmux.capture())")
  }

  @Test func onlyTheBrowserLinksSdBus() throws {
    let cli = try runProcess("ldd", [Fixtures.product("stash").path])
    let browser = try runProcess("ldd", [Fixtures.product("stash-tui").path])
    #expect(cli.status == 0 && browser.status == 0)
    #expect(!cli.standardOutput.contains("libsystemd"), "\(cli.standardOutput)")
    #expect(browser.standardOutput.contains("libsystemd"), "\(browser.standardOutput)")
  }
}
