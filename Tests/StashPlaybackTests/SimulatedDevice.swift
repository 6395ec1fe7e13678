import StashPlayback
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A sound device in memory, driven by the test: frames written wait in its buffer until the test
/// `consume`s them (they are then "heard"); its delay is what the buffer holds plus an injected
/// extra; errors can be injected at the Nth write, a delay that cannot be read (as the pulse
/// plugin's after a prepare), and a device that goes away for good; it can pause in place when
/// told it may. Mono float only.
final class SimulatedDevice: PCMDevice, Sendable {
  struct State {
    var capacity = 4800
    var queue: [Float] = []
    var heard: [Float] = []
    var extraDelay = 0
    var writes = 0
    var failures: [Int: Int32] = [:]
    var recoveries: [Int32] = []
    var drops = 0
    var configured: (rate: Int, channels: Int)? = nil
    var started = false
    /// What `delay` fails with, when it fails (every call).
    var delayFailure: Int32? = nil
    /// From this write on, every call fails with ENODEV: the device is gone.
    var goneAtWrite: Int? = nil
    var gone = false
    /// Whether it says it can pause in place, and whether it is paused.
    var pausable = false
    var paused = false
    var pauses = 0
    /// Times the player waited for room.
    var waits = 0
    /// Whether it says it holds seconds (as a pulse device does), and how often it was taken
    /// over (`takeOver`), and how many frames had been heard when each new stream took over.
    /// Taken over with its start held, what was queued is the old stream's, heard first until
    /// `start` (then dropped); otherwise a take-over is a drop.
    var holds = false
    var takeOvers = 0
    var takenOverAt: [Int] = []
    var retiring: [Float]? = nil
    var held = false
    /// Frames a held stream needs before it is `readyToStart`.
    var readyAt = 2400
    /// Whether it can hold a stream taken over to (as a pulse device whose standby is set up).
    var canHold = true
    /// Whether it never starts playing what it is given (as a stream short of its start threshold).
    var neverStarts = false
  }

  let name = "simulated"
  let state = Mutex(State())
  /// Called when the player lets go of the device (closes it).
  let onClose: (@Sendable () -> Void)?

  init(onClose: (@Sendable () -> Void)? = nil) { self.onClose = onClose }

  deinit { onClose?() }

  /// Moves up to `frames` frames from the buffer to what was heard.
  func consume(_ frames: Int) {
    state.withLock { s in
      var left = frames
      if let old = s.retiring {
        let n = min(left, old.count)
        s.heard += old.prefix(n)
        s.retiring = Array(old.dropFirst(n))
        left -= n
        if s.held { return }
      }
      let n = min(left, s.queue.count)
      s.heard += s.queue.prefix(n)
      s.queue.removeFirst(n)
    }
  }

  /// Everything heard so far.
  var heard: [Float] { state.withLock { $0.heard } }
  /// Frames waiting in the buffer.
  var queued: Int { state.withLock { $0.queue.count } }

  func configure(format: PCMSampleFormat, channels: Int, rate: Int, latency: Int) -> Int32 {
    guard format == .float32 else { return -EINVAL }
    state.withLock { $0.configured = (rate, channels) }
    return 0
  }

  func write(_ data: UnsafeRawPointer, frames: Int) -> Int {
    state.withLock { s in
      s.writes += 1
      if let at = s.goneAtWrite, s.writes >= at { s.gone = true }
      if s.gone { return -Int(ENODEV) }
      if let failure = s.failures.removeValue(forKey: s.writes) { return Int(failure) }
      let room = s.capacity - s.queue.count
      guard room > 0 else { return -Int(EAGAIN) }
      let n = min(room, frames)
      s.queue += UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: n)
      if !s.held { s.started = true }
      return n
    }
  }

  func delay() -> (result: Int32, frames: Int) {
    state.withLock { s in
      if s.gone { return (-ENODEV, 0) }
      if let failure = s.delayFailure { return (failure, 0) }
      return (0, s.queue.count + s.extraDelay)
    }
  }
  func avail() -> Int { state.withLock { $0.gone ? -Int(ENODEV) : $0.capacity - $0.queue.count } }
  var bufferFrames: Int { state.withLock { $0.capacity } }
  var canPause: Bool { state.withLock { $0.pausable } }
  func pause(_ on: Bool) -> Int32 {
    state.withLock { s in
      if s.gone { return -ENODEV }
      s.paused = on
      if on { s.pauses += 1 }
      return 0
    }
  }
  var isRunning: Bool { state.withLock { $0.started && !$0.paused && !$0.queue.isEmpty && !$0.neverStarts } }
  var isPrepared: Bool { state.withLock { !$0.started } }
  func start() -> Int32 {
    state.withLock { s in
      if s.held, s.retiring != nil { s.takenOverAt.append(s.heard.count) }
      s.retiring = nil
      s.held = false
      s.started = true
    }
    return 0
  }
  func drop() -> Int32 {
    state.withLock { s in
      s.retiring = nil
      s.held = false
      s.queue.removeAll()
      s.drops += 1
      s.started = false
      s.paused = false
    }
    return 0
  }
  var holdsSeconds: Bool { state.withLock { $0.holds } }
  func takeOver(holdingStart: Bool) -> Int32 {
    let dropping = state.withLock { s in
      s.takeOvers += 1
      guard holdingStart else {
        s.takenOverAt.append(s.heard.count)
        return true
      }
      if s.retiring == nil { s.retiring = s.queue }
      s.queue.removeAll()
      s.held = true
      s.started = false
      return false
    }
    return dropping ? drop() : 0
  }
  var retiringDelay: Int? { state.withLock { $0.retiring?.count } }
  var startHeld: Bool { state.withLock { $0.held } }
  var canHoldStart: Bool { state.withLock { $0.holds && $0.canHold } }
  var readyToStart: Bool { state.withLock { !$0.held || $0.queue.count >= $0.readyAt } }
  func prepare() -> Int32 { state.withLock { $0.gone ? -ENODEV : 0 } }
  func recover(_ error: Int32) -> Int32 {
    state.withLock { $0.recoveries.append(error) }
    return 0
  }
  func wait(wake: Int32, timeout: Int32) -> Int32 {
    state.withLock { $0.waits += 1 }
    var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
    _ = poll(&fds, 1, min(timeout, 2))
    return 0
  }
}
