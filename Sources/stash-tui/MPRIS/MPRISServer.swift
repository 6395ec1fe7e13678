import CDBus
import StashBrowser
import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// The browser on the session bus as an MPRIS media player (`org.mpris.MediaPlayer2.stash`), so
/// media keys, a desktop's player widget and `playerctl` control it.
///
/// It is serviced on the loop's thread, through its descriptor in the loop's poll set: sd-bus is
/// not thread-safe, and the properties it answers with are the model's, which lives on that
/// thread. A call becomes a `BrowserEvent.remote` in the inbox, so the model decides what it means
/// as for a key; after each turn of the loop `publish` compares what the model shows with what was
/// last announced and sends PropertiesChanged for what differs, and Seeked when the memo jumped.
final class MPRISServer {
  /// The well-known name; a second browser takes `<name>.instance<PID>`, as the specification
  /// suggests.
  static let name = "org.mpris.MediaPlayer2.stash"
  static let path = "/org/mpris/MediaPlayer2"
  static let rootInterface = "org.mpris.MediaPlayer2"
  static let playerInterface = "org.mpris.MediaPlayer2.Player"
  /// The audio the player takes: the memos' AAC in MP4.
  static let mimeTypes = ["audio/mp4", "audio/x-m4a", "audio/aac"]
  /// A position further than this from where time passing would put it is a jump (Seeked).
  static let jumpSeconds = 1.0

  private var bus: OpaquePointer?
  private var slots: [OpaquePointer?] = [nil, nil]
  private let handlers: UnsafeMutablePointer<stash_bus_handlers>
  private let inbox: EventInbox
  /// The player's position now, in seconds (Position is read live, never announced).
  private let position: () -> Double
  /// The path of a memo's audio (relative to wherever the browser started).
  private let audioPath: (String) -> String
  /// The folder, resolved, for OpenUri.
  private let folder: String?
  /// What was last announced; nil before the first publication.
  private var published: RemoteStatus?
  /// A jump to announce with Seeked at the next publication, in seconds.
  private var pendingSeek: Double?
  /// The memo playing at the last publication, where and when (monotonic seconds), and how fast:
  /// a jump the player made itself (an A-B loop going round) is told from time passing by it.
  private var lastHeard: (base: String, position: Double, at: Double, speed: Double, playing: Bool)?
  /// The name it holds.
  private(set) var busName = ""

  /// Connects to the session bus and takes the name; nil when there is no session bus or it
  /// refuses (the browser then runs without, saying nothing).
  static func start(
    folder: String, inbox: EventInbox, position: @escaping () -> Double,
    audioPath: @escaping (String) -> String
  ) -> MPRISServer? {
    var bus: OpaquePointer?
    guard sd_bus_open_user(&bus) >= 0, let bus else { return nil }
    // A bus that does not answer must not hold the browser up for sd-bus's 25 s default.
    _ = sd_bus_set_method_call_timeout(bus, 1_000_000)
    let server = MPRISServer(bus: bus, folder: folder, inbox: inbox, position: position, audioPath: audioPath)
    guard server.register() else {
      server.close()
      return nil
    }
    return server
  }

  private init(
    bus: OpaquePointer, folder: String, inbox: EventInbox, position: @escaping () -> Double,
    audioPath: @escaping (String) -> String
  ) {
    self.bus = bus
    self.inbox = inbox
    self.position = position
    self.audioPath = audioPath
    self.folder = MPRISServer.resolved(folder)
    handlers = .allocate(capacity: 1)
    handlers.initialize(
      to: stash_bus_handlers(
        method: MPRISServer.methodCall, get: MPRISServer.getProperty, set: MPRISServer.setProperty,
        context: nil))
    handlers.pointee.context = Unmanaged.passUnretained(self).toOpaque()
  }

  deinit {
    close()
    handlers.deallocate()
  }

  /// Adds both interfaces and takes the name (or the instance name when another browser has it).
  private func register() -> Bool {
    guard
      sd_bus_add_object_vtable(bus, &slots[0], Self.path, Self.rootInterface, stash_mpris_root(), handlers)
        >= 0,
      sd_bus_add_object_vtable(
        bus, &slots[1], Self.path, Self.playerInterface, stash_mpris_player(), handlers)
        >= 0
    else { return false }
    for candidate in [Self.name, "\(Self.name).instance\(getpid())"] {
      let r = sd_bus_request_name(bus, candidate, 0)
      if r >= 0 {
        busName = candidate
        return true
      }
      if r != -EEXIST { return false }
    }
    return false
  }

  /// Whether it is still on the bus (it closes itself when the bus goes away).
  var isOpen: Bool { bus != nil }

  /// The entry for the loop's poll set.
  func pollEntry() -> pollfd {
    guard let bus else { return pollfd(fd: -1, events: 0, revents: 0) }
    let events = sd_bus_get_events(bus)
    return pollfd(fd: sd_bus_get_fd(bus), events: Int16(max(0, events)), revents: 0)
  }

  /// How long the loop may sleep before the bus needs servicing, in milliseconds; nil: no limit.
  func timeout() -> Int32? {
    guard let bus else { return nil }
    var until: UInt64 = 0
    guard sd_bus_get_timeout(bus, &until) >= 0, until != UInt64.max else { return nil }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    return until <= nowMicroseconds ? 0 : Int32(min(60_000, (until - nowMicroseconds + 999) / 1000))
  }

  /// Reads and answers what the bus has for it; calls go to the inbox as events.
  func process() {
    while let bus {
      let r = sd_bus_process(bus, nil)
      if r < 0 {
        // The bus went away: carry on without it, as without a bus at all.
        close()
        return
      }
      if r == 0 { return }
    }
  }

  /// Announces what changed since the last call: PropertiesChanged for the Player properties
  /// that differ, then Seeked when the memo jumped.
  func publish(_ model: BrowserModel) {
    let status = RemoteStatus(model)
    let old = published
    var seek = pendingSeek
    let p = model.player
    let now = BrowserClock.monotonic()
    if seek == nil, p.isActive, let last = lastHeard, last.base == p.base {
      let expected = last.position + (last.playing ? (now - last.at) * last.speed : 0)
      if abs(p.position - expected) > Self.jumpSeconds { seek = p.position }
    }
    lastHeard = p.isActive ? p.base.map { ($0, p.position, now, p.speed, p.state == .playing) } : nil
    // Set first: sd-bus reads the values it announces through the property getters.
    published = status
    pendingSeek = nil
    guard let bus, let old else { return }
    let names = status.changedProperties(since: old)
    if !names.isEmpty {
      var strings = names.map { strdup($0) } + [nil]
      _ = sd_bus_emit_properties_changed_strv(bus, Self.path, Self.playerInterface, &strings)
      for s in strings { free(s) }
    }
    if let seconds = seek {
      _ = stash_mpris_emit_seeked(bus, Self.path, Self.microseconds(seconds))
    }
    _ = sd_bus_flush(bus)
  }

  /// Notes an effect the runner is about to perform: a seek, or a play from elsewhere in the memo
  /// the player holds, is a jump Seeked announces.
  func note(_ effect: BrowserEffect) {
    switch effect {
    case .seek(let seconds):
      pendingSeek = seconds
    case .play(let base, let from):
      let held = published.map { $0.playback != .stopped && $0.track?.base == base } ?? false
      if held || from > 0 { pendingSeek = from }
    default:
      break
    }
  }

  /// Leaves the bus.
  func close() {
    for i in slots.indices {
      if let slot = slots[i] { sd_bus_slot_unref(slot) }
      slots[i] = nil
    }
    if let bus { sd_bus_flush_close_unref(bus) }
    bus = nil
  }

  // MARK: - Calls

  private static func server(_ context: UnsafeMutableRawPointer?) -> MPRISServer {
    Unmanaged<MPRISServer>.fromOpaque(context!).takeUnretainedValue()
  }

  private static let methodCall: stash_bus_method_fn = { message, context, error in
    let server = MPRISServer.server(context)
    let member = sd_bus_message_get_member(message).map { String(cString: $0) } ?? ""
    switch server.command(member, message) {
    case .success(let command):
      if let command { server.inbox.post(.remote(command)) }
      return stash_bus_reply_empty(message)
    case .failure(let failure):
      return sd_bus_error_set(error, failure.name, failure.message)
    }
  }

  /// A call refused, as a D-Bus error.
  struct Refusal: Error {
    var name: String
    var message: String
  }

  /// The command a method call asks for; nil for one that does nothing here (Raise: a terminal
  /// program cannot raise its window, so CanRaise is false).
  private func command(_ member: String, _ message: OpaquePointer?) -> Result<RemoteCommand?, Refusal> {
    switch member {
    case "Raise": return .success(nil)
    case "Quit": return .success(.quit)
    case "Play": return .success(.play)
    case "Pause": return .success(.pause)
    case "PlayPause": return .success(.playPause)
    case "Stop": return .success(.stop)
    case "Next": return .success(.next)
    case "Previous": return .success(.previous)
    case "Seek":
      var offset: Int64 = 0
      guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "x")), &offset) >= 0 else {
        return .failure(Self.badArguments)
      }
      return .success(.seek(by: Double(offset) / 1e6))
    case "SetPosition":
      var id: UnsafePointer<CChar>?
      var at: Int64 = 0
      guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "o")), &id) >= 0, let id,
        sd_bus_message_read_basic(message, CChar(UInt8(ascii: "x")), &at) >= 0
      else { return .failure(Self.badArguments) }
      return .success(.setPosition(trackID: String(cString: id), seconds: Double(at) / 1e6))
    case "OpenUri":
      var uri: UnsafePointer<CChar>?
      guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &uri) >= 0, let uri else {
        return .failure(Self.badArguments)
      }
      return openCommand(String(cString: uri)).map { .open(base: $0) }
    default:
      return .failure(
        Refusal(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "No method \(member)"))
    }
  }

  private static let badArguments = Refusal(
    name: "org.freedesktop.DBus.Error.InvalidArgs", message: "The arguments do not match the method")

  /// The memo a `file://` URI names: an audio file in the browser's folder.
  private func openCommand(_ uri: String) -> Result<String, Refusal> {
    let notHere = Refusal(
      name: "org.freedesktop.DBus.Error.InvalidArgs",
      message: "stash-tui opens only the audio of a memo in its folder (\(folder ?? "?")), as a file:// URI")
    guard let path = FileURI.path(uri), let folder else { return .failure(notHere) }
    let name = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
    let suffix = MemoFileKind.audio.suffix
    guard name.hasSuffix(suffix), name.count > suffix.count,
      let directory = MPRISServer.resolved(String(path.dropLast(name.count))), directory == folder
    else { return .failure(notHere) }
    return .success(String(name.dropLast(suffix.count)))
  }

  // MARK: - Properties

  private static let getProperty: stash_bus_get_fn = { interface, property, reply, context, _ in
    let server = MPRISServer.server(context)
    let name = property.map { String(cString: $0) } ?? ""
    return server.append(name, to: reply)
  }

  private static let setProperty: stash_bus_set_fn = { _, property, value, context, error in
    let server = MPRISServer.server(context)
    let name = property.map { String(cString: $0) } ?? ""
    var number = 0.0
    guard sd_bus_message_read_basic(value, CChar(UInt8(ascii: "d")), &number) >= 0, number.isFinite else {
      return sd_bus_error_set(error, badArguments.name, badArguments.message)
    }
    switch name {
    case "Rate":
      server.inbox.post(.remote(.setRate(number)))
    case "Volume":
      server.inbox.post(.remote(.setVolume(number)))
    default:
      return sd_bus_error_set(error, "org.freedesktop.DBus.Error.PropertyReadOnly", "\(name) is read-only")
    }
    return 0
  }

  /// Appends the value of `property` to `reply`.
  private func append(_ property: String, to reply: OpaquePointer?) -> Int32 {
    let status = published
    let value = BusValue(reply)
    switch property {
    case "CanQuit", "CanControl": return value.bool(true)
    case "CanRaise", "HasTrackList": return value.bool(false)
    case "Identity": return value.string("stash")
    case "SupportedUriSchemes": return value.strings(["file"])
    case "SupportedMimeTypes": return value.strings(Self.mimeTypes)
    case "PlaybackStatus": return value.string((status?.playback ?? .stopped).rawValue)
    case "Rate": return value.double(status?.rate ?? 1)
    case "Volume": return value.double(status?.volume ?? 1)
    case "MinimumRate": return value.double(BrowserModel.minimumRate)
    case "MaximumRate": return value.double(BrowserModel.maximumRate)
    case "Position":
      return value.int64(status?.playback == .stopped ? 0 : Self.microseconds(position()))
    case "CanGoNext": return value.bool(status?.canGoNext ?? false)
    case "CanGoPrevious": return value.bool(status?.canGoPrevious ?? false)
    case "CanPlay": return value.bool(status?.canPlay ?? false)
    case "CanPause": return value.bool(status?.canPause ?? false)
    case "CanSeek": return value.bool(status?.canSeek ?? false)
    case "Metadata": return value.metadata(status?.track, url: status?.track.map { fileURL(of: $0.base) })
    default: return -EINVAL
    }
  }

  /// The `file://` URL of a memo's audio.
  private func fileURL(of base: String) -> String {
    let path = audioPath(base)
    let absolute: String
    if path.hasPrefix("/") {
      absolute = path
    } else {
      let directory = MPRISServer.resolved(".") ?? ""
      absolute = directory + "/" + path
    }
    return FileURI.url(absolute)
  }

  /// Seconds as whole microseconds.
  static func microseconds(_ seconds: Double) -> Int64 {
    seconds.isFinite ? Int64((seconds * 1e6).rounded()) : 0
  }

  /// `path` with every link and `.` resolved; nil when it does not exist.
  static func resolved(_ path: String) -> String? {
    guard let p = realpath(path.isEmpty ? "." : path, nil) else { return nil }
    defer { free(p) }
    return String(cString: p)
  }
}
