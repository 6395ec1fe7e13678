import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// Wraps a device that takes frames as fast as they come (ALSA's `null` and `file` PCMs) so that
/// it takes them at its rate instead, like a sound card: a buffer of the configured latency that
/// empties in real time, with a delay and a start threshold. Everything is still handed to the
/// inner device. For benchmarks and end-to-end tests on machines without sound hardware
/// (`STASH_ALSA_PACE=1`).
public final class PacedDevice: PCMDevice {
  private let inner: PCMDevice
  private var rate = 48_000
  private var capacity = 4_800
  private var queued = 0
  private var started = false
  /// When it last started playing, and the frames it has taken since (those queued then too):
  /// what it has played is counted from these whole, so no fraction of a frame is lost between
  /// two looks (counting from the last look lost up to a frame each time: 0.17 % slow).
  private var startStamp: UInt64 = 0
  private var takenSinceStart = 0

  /// Paces `inner`.
  public init(_ inner: PCMDevice) { self.inner = inner }

  /// The inner device's name.
  public var name: String { inner.name }

  public func configure(format: PCMSampleFormat, channels: Int, rate: Int, latency: Int) -> Int32 {
    let result = inner.configure(format: format, channels: channels, rate: rate, latency: latency)
    if result >= 0 {
      self.rate = rate
      capacity = max(64, latency * rate / 1_000_000)
    }
    return result
  }

  /// Lets the frames that real time has played leave the buffer.
  private func advance() {
    let now = PlaybackClock.now()
    guard started, now > startStamp else { return }
    let played = Int((now - startStamp) / 1000) * rate / 1_000_000
    queued = max(0, takenSinceStart - played)
    // Ran dry: a real device stops (an underrun); writing again restarts it.
    if queued == 0 { started = false }
  }

  /// Starts playing what is queued, now.
  private func startPlaying() {
    started = true
    startStamp = PlaybackClock.now()
    takenSinceStart = queued
  }

  public func write(_ data: UnsafeRawPointer, frames: Int) -> Int {
    advance()
    let room = capacity - queued
    guard room > 0 else { return -Int(EAGAIN) }
    let taken = inner.write(data, frames: min(room, frames))
    guard taken > 0 else { return taken }
    queued += taken
    if started {
      takenSinceStart += taken
    } else if queued >= capacity {
      startPlaying()
    }
    return taken
  }

  public func delay() -> (result: Int32, frames: Int) {
    advance()
    return (0, queued)
  }

  public var isRunning: Bool {
    advance()
    return started
  }

  public var isPrepared: Bool {
    advance()
    return !started
  }

  public func start() -> Int32 {
    if !started && queued > 0 { startPlaying() }
    return 0
  }

  public func drop() -> Int32 {
    queued = 0
    started = false
    return inner.drop()
  }

  public func prepare() -> Int32 { inner.prepare() }
  public func recover(_ error: Int32) -> Int32 { inner.recover(error) }

  public func wait(wake: Int32, timeout: Int32) -> Int32 {
    advance()
    // Room comes back a quarter of a buffer at a time, as a sound card's periods do.
    let period = capacity / 4
    let excess = queued - (capacity - period)
    var milliseconds: Int32 = 0
    if excess > 0 && started { milliseconds = Int32((excess * 1000 + rate - 1) / rate) }
    if timeout >= 0 { milliseconds = min(milliseconds, timeout) }
    var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
    _ = SystemCall.retrying { poll(&fds, 1, milliseconds) }
    return 0
  }
}
