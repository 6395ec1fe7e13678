#if canImport(Glibc)
  import Glibc
#endif

/// Opens a device by name: the real one is `ALSADevice.open`; tests hand in a simulated device.
public typealias PCMOpener = @Sendable (String) -> (device: PCMDevice?, error: Int32)

/// A configured device and what the player needs around it: errors worded for people, underruns
/// and suspends recovered, and float frames converted when the device wants 16-bit.
final class PCMOutput {
  /// The device underneath.
  let device: PCMDevice
  /// Frames per second it was set up for.
  let rate: Int
  /// Channels it was set up for.
  let channels: Int
  /// The format frames are handed over in.
  let format: PCMSampleFormat
  /// Underruns recovered so far (the output thread fell behind the device).
  private(set) var underruns = 0
  /// Suspends recovered so far (the machine slept while playing).
  private(set) var suspends = 0
  /// Failures after which the device was prepared afresh (`reset`).
  private(set) var recoveries = 0
  /// Times the delay could not be read and was worked out another way.
  private(set) var delayFallbacks = 0
  /// Frames handed over since the device was last prepared: the most it can still hold.
  private var sincePrepare = 0
  /// Whether the last write found the device full: it took fewer frames than it was given, or
  /// none. Writing again before waiting would only be refused.
  private(set) var isFull = false
  private var converted: [Int16] = []

  /// Buffer the device is asked for, in microseconds: short enough that a seek or a pause is heard
  /// at once, long enough to ride out a busy machine. (A pulse device holds seconds instead, and
  /// goes over to a second stream at each seek: `ALSADevice.configureDeep`.)
  static let latency = 100_000

  /// Opens `name` with `opener` and sets it up for `channels` × `rate` float frames (16-bit when
  /// the device takes no float).
  init(name: String, opener: PCMOpener, rate: Int, channels: Int) throws(PlaybackError) {
    let (opened, code) = opener(name)
    guard let device = opened else { throw Self.openError(code, name: name) }
    var format = PCMSampleFormat.float32
    var result = device.configure(format: .float32, channels: channels, rate: rate, latency: Self.latency)
    if result < 0 && result != -EBUSY {
      format = .int16
      let retry = device.configure(format: .int16, channels: channels, rate: rate, latency: Self.latency)
      if retry >= 0 { result = retry }
    }
    guard result >= 0 else {
      throw PlaybackError(
        code: result == -EBUSY ? .deviceBusy : .deviceFailed,
        message:
          "the sound device '\(name)' cannot play \(channels) channel(s) at \(rate) Hz: \(ALSACall.message(result))"
      )
    }
    self.device = device
    self.rate = rate
    self.channels = channels
    self.format = format
  }

  /// The words for a device that would not open.
  static func openError(_ code: Int32, name: String) -> PlaybackError {
    switch code {
    case -EBUSY:
      PlaybackError(
        code: .deviceBusy,
        message: "the sound device '\(name)' is busy: another program is using it (\(ALSACall.message(code)))"
      )
    default:
      PlaybackError(
        code: .noDevice,
        message: "cannot open the sound device '\(name)': \(ALSACall.message(code))\(choices(besides: name))")
    }
  }

  /// What the user can choose instead, from what ALSA lists here (never a name that does not
  /// exist): a few names and where the rest are.
  static func choices(besides failed: String) -> String {
    // Sound servers and cards first; converters and the like (which ALSA lists too) last.
    func rank(_ name: String) -> Int {
      if ["default", "pulse", "pipewire"].contains(name) || name.hasPrefix("sysdefault") { return 0 }
      if name.contains("CARD=") { return 1 }
      return name == "null" ? 2 : 3
    }
    let names = PCMDeviceHint.all().map(\.name).filter { $0 != failed }.enumerated()
      .sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    guard !names.isEmpty else { return " (ALSA lists no other sound device here)" }
    let shown = names.prefix(4).joined(separator: ", ")
    let more = names.count > 4 ? ", and \(names.count - 4) more" : ""
    return
      " (choose another with --device NAME or STASH_ALSA_DEVICE: \(shown)\(more); stash-tui --list-devices lists them all)"
  }

  /// Hands over as many of `frames` frames from `samples` (interleaved) as the device takes now;
  /// 0 when it is full. Underruns, suspends and a device that fell out of its running state are
  /// recovered here and the write retried; what cannot be recovered in place is thrown.
  func write(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws(PlaybackError) -> Int {
    guard frames > 0, let base = samples.baseAddress else { return 0 }
    var attempts = 0
    while true {
      let result: Int
      switch format {
      case .float32:
        result = device.write(base, frames: frames)
      case .int16:
        let count = frames * channels
        if converted.count < count { converted = [Int16](repeating: 0, count: count) }
        for i in 0..<count {
          let value = max(-1, min(1, samples[i])) * 32767
          converted[i] = Int16(value.rounded())
        }
        result = converted.withUnsafeBytes { device.write($0.baseAddress!, frames: frames) }
      }
      if result >= 0 {
        sincePrepare += result
        isFull = result < frames
        return result
      }
      if result == -Int(EAGAIN) {
        isFull = true
        return 0
      }
      attempts += 1
      // One recovery per kind of trouble; a device that fails again at once is handed up.
      guard attempts <= 3 else { throw lost(Int32(result)) }
      try recover(Int32(result))
    }
  }

  /// Recovers from `error` or throws it: an underrun (EPIPE) or a suspend (ESTRPIPE) is
  /// recovered in place (`snd_pcm_recover`), nothing queued being lost. Anything else (a device
  /// knocked out of its state, EBADFD; a sound server's plugin failing, EIO; a device gone) is
  /// thrown, for the engine to prepare the device afresh, or reopen it, and go on from the frame
  /// heard (`reset`).
  func recover(_ error: Int32) throws(PlaybackError) {
    switch error {
    case -EPIPE:
      underruns += 1
      sincePrepare = 0
    case -ESTRPIPE:
      suspends += 1
    default:
      throw lost(error)
    }
    let result = device.recover(error)
    guard result >= 0 else { throw lost(result) }
  }

  /// Frames queued in the device, not yet heard (0 once it has run dry). Never fails: when the
  /// device cannot say (the pulse plugin's `snd_pcm_delay` fails with EIO right after a drop and
  /// a prepare, before its stream is ready), it is worked out from the room left
  /// (`snd_pcm_avail`), else from what was handed over since the last prepare; a device that is
  /// really gone shows at the next write.
  func delay() -> Int {
    let (result, frames) = device.delay()
    if result == -EPIPE || result == -ESTRPIPE { return 0 }
    if result >= 0 { return max(0, min(frames, sincePrepare)) }
    delayFallbacks += 1
    // Not started: nothing handed over has been heard yet.
    guard device.isRunning else { return sincePrepare }
    let room = device.avail()
    let buffer = device.bufferFrames
    if room >= 0 && buffer > 0 { return max(0, min(buffer - room, sincePrepare)) }
    return min(sincePrepare, max(buffer, 0))
  }

  /// After a failure: throws away what is queued and prepares the device again; false when even
  /// that fails (the device is to be reopened).
  func reset() -> Bool {
    recoveries += 1
    _ = device.drop()
    sincePrepare = 0
    isFull = false
    return device.prepare() >= 0
  }

  /// Throws away what is queued and makes the device ready for new frames; `takingOver`, for
  /// frames that go on from what is heard (a seek, a restart), lets a device with two streams
  /// sound until the new frames start (`PCMDevice.takeOver`); `holdingStart`, until `start`.
  func dropQueued(takingOver: Bool = false, holdingStart: Bool = false) throws(PlaybackError) {
    _ = takingOver ? device.takeOver(holdingStart: holdingStart) : device.drop()
    sincePrepare = 0
    isFull = false
    let result = device.prepare()
    guard result >= 0 else { throw lost(result) }
  }

  /// Starts a device that holds frames but has not started (fewer than a buffer were written).
  func startIfWaiting() throws(PlaybackError) {
    guard device.isPrepared else { return }
    let result = device.start()
    if result < 0 && !Self.transient(result) { throw lost(result) }
  }

  /// Pauses what the device holds, in place, when it can (`snd_pcm_pause`): the stream stays open
  /// and a sound server shows it corked. False when it cannot; the caller then drops instead.
  func pauseInPlace() -> Bool {
    guard device.canPause, device.isRunning else { return false }
    return device.pause(true) >= 0
  }

  /// Resumes a pause made in place; false when the device would not, after which it is dropped
  /// and prepared, ready for new frames.
  func resumeInPlace() throws(PlaybackError) -> Bool {
    if device.pause(false) >= 0 { return true }
    try dropQueued()
    return false
  }

  /// Whether the device is playing.
  var isRunning: Bool { device.isRunning }

  /// Waits for room, a wake-up on `wake`, or `timeout` ms.
  func wait(wake: Int32, timeout: Int32) throws(PlaybackError) {
    let result = device.wait(wake: wake, timeout: timeout)
    // What the next write can recover is left to it.
    if result < 0 && !Self.transient(result) { throw lost(result) }
  }

  /// Errors a write recovers from in place.
  private static func transient(_ code: Int32) -> Bool {
    code == -EPIPE || code == -ESTRPIPE || code == -EBADFD || code == -EIO || code == -EAGAIN
  }

  private func lost(_ code: Int32) -> PlaybackError {
    PlaybackError(
      code: .deviceFailed,
      message: "the sound device '\(device.name)' stopped working: \(ALSACall.message(code))")
  }
}
