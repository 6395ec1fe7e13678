import Foundation
import Synchronization
import Testing

@testable import StashPlayback

/// The output thread against a device that fills up: a write the device takes only in part means
/// it is full, so the thread waits for room next instead of writing again only to be refused. On a
/// sound server every such refused write is a round of ALSA calls for nothing, once a period.
@Suite struct OutputFullDeviceTests {
  /// What the player did to the device, in order.
  enum Event: Equatable {
    case write(given: Int, taken: Int)
    case wait
  }

  /// The simulated device (a buffer the test empties), with every write and wait logged.
  final class LoggingDevice: PCMDevice, Sendable {
    let inner = SimulatedDevice()
    let log = Mutex<[Event]>([])
    var name: String { "logging" }
    var capacity: Int { inner.bufferFrames }
    var queued: Int { inner.queued }
    var events: [Event] { log.withLock { $0 } }

    func write(_ data: UnsafeRawPointer, frames: Int) -> Int {
      let taken = inner.write(data, frames: frames)
      log.withLock { $0.append(.write(given: frames, taken: taken)) }
      return taken
    }
    func wait(wake: Int32, timeout: Int32) -> Int32 {
      log.withLock { $0.append(.wait) }
      return inner.wait(wake: wake, timeout: timeout)
    }
    func configure(format: PCMSampleFormat, channels: Int, rate: Int, latency: Int) -> Int32 {
      inner.configure(format: format, channels: channels, rate: rate, latency: latency)
    }
    func delay() -> (result: Int32, frames: Int) { inner.delay() }
    func avail() -> Int { inner.avail() }
    var bufferFrames: Int { inner.bufferFrames }
    var isRunning: Bool { inner.isRunning }
    var isPrepared: Bool { inner.isPrepared }
    func start() -> Int32 { inner.start() }
    func drop() -> Int32 { inner.drop() }
    func prepare() -> Int32 { inner.prepare() }
    func recover(_ error: Int32) -> Int32 { inner.recover(error) }
  }

  @Test func aWriteTakenInPartIsFollowedByAWaitNotAnotherWrite() throws {
    let folder = try TestAudio.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
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
      device.inner.consume(700)
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
