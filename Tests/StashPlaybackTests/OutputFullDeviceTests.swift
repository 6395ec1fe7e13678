import Foundation
import Synchronization
import Testing

@testable import StashPlayback

#if canImport(Glibc)
  import Glibc
#endif

/// The output thread against a device that fills up: a write the device takes only in part means
/// it is full, so the thread waits for room next instead of writing again only to be refused. On a
/// sound server every such refused write is a round of ALSA calls for nothing, once a period.
@Suite struct OutputFullDeviceTests {
  /// What the player did to the device, in order.
  enum Event: Equatable {
    case write(given: Int, taken: Int)
    case wait
  }

  /// A mono float device with a buffer the test empties; it logs every write and wait.
  final class LoggingDevice: PCMDevice, Sendable {
    struct State {
      var queued = 0
      var started = false
      var events: [Event] = []
    }
    let name = "logging"
    let capacity = 4800
    let state = Mutex(State())

    /// Lets `frames` of what it holds be heard.
    func consume(_ frames: Int) { state.withLock { $0.queued = max(0, $0.queued - frames) } }
    var queued: Int { state.withLock { $0.queued } }
    var events: [Event] { state.withLock { $0.events } }

    func configure(format: PCMSampleFormat, channels: Int, rate: Int, latency: Int) -> Int32 {
      format == .float32 && channels == 1 ? 0 : -EINVAL
    }
    func write(_ data: UnsafeRawPointer, frames: Int) -> Int {
      state.withLock { s in
        let taken = min(frames, capacity - s.queued)
        s.events.append(.write(given: frames, taken: taken > 0 ? taken : -Int(EAGAIN)))
        guard taken > 0 else { return -Int(EAGAIN) }
        s.queued += taken
        s.started = true
        return taken
      }
    }
    func delay() -> (result: Int32, frames: Int) { (0, queued) }
    func avail() -> Int { capacity - queued }
    var bufferFrames: Int { capacity }
    var isRunning: Bool { state.withLock { $0.started && $0.queued > 0 } }
    var isPrepared: Bool { state.withLock { !$0.started } }
    func start() -> Int32 {
      state.withLock { $0.started = true }
      return 0
    }
    func drop() -> Int32 {
      state.withLock { s in
        s.queued = 0
        s.started = false
      }
      return 0
    }
    func prepare() -> Int32 { 0 }
    func recover(_ error: Int32) -> Int32 { 0 }
    func wait(wake: Int32, timeout: Int32) -> Int32 {
      state.withLock { $0.events.append(.wait) }
      var fds = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
      _ = poll(&fds, 1, min(timeout, 2))
      return 0
    }
  }

  @Test func aWriteTakenInPartIsFollowedByAWaitNotAnotherWrite() throws {
    let folder = try TestAudio.folder()
    let path = folder.appendingPathComponent("sweep.aac").path
    try TestAudio.sweep(path, seconds: 4)
    let device = LoggingDevice()
    let player = Player(device: "logging", opener: { _ in (device, 0) })
    try player.load(try ADTSTrack.read(path))
    player.play()
    // Fill, then empty it by less than a chunk a few times: each refill ends in a partial write.
    for _ in 0..<6 {
      let deadline = Date().addingTimeInterval(10)
      while device.queued < device.capacity && Date() < deadline { usleep(1000) }
      device.consume(700)
    }
    let deadline = Date().addingTimeInterval(10)
    while device.queued < device.capacity && Date() < deadline { usleep(1000) }
    player.pause()
    let events = device.events
    let partial = events.indices.filter {
      guard case .write(let given, let taken) = events[$0] else { return false }
      return taken > 0 && taken < given
    }
    #expect(partial.count >= 5, "\(events)")
    for index in partial where index + 1 < events.count {
      #expect(events[index + 1] == .wait, "after the partial write at \(index): \(events[index + 1])")
    }
  }
}
