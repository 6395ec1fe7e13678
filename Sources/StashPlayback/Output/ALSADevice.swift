import CALSA

#if canImport(Glibc)
  import Glibc
#endif

/// A PCM opened through libasound for playback, non-blocking: each method is one ALSA call.
public final class ALSADevice: PCMDevice {
  /// The name it was opened with.
  public let name: String
  private var handle: OpaquePointer?
  /// A second stream on the same PulseAudio sink, connected and never started (see `keepSinkAwake`).
  private var keeper: OpaquePointer?
  private var descriptors: [pollfd] = []
  /// The descriptors and the wake-up's: sized by the first wait after `configure`, then kept so
  /// that waiting allocates nothing.
  private var pollSet: [pollfd] = []
  /// The buffer size and pause ability, read once configured.
  public private(set) var bufferFrames = 0
  public private(set) var canPause = false
  /// The period and the rate, to sleep until a period is free when the device wakes early.
  private var periodFrames = 0
  private var rate = 48_000

  /// Opens `name` for playback (`snd_pcm_open` with `SND_PCM_NONBLOCK`); a negative errno on failure.
  public static func open(_ name: String) -> (device: PCMDevice?, error: Int32) {
    ALSACall.silenced
    var handle: OpaquePointer?
    let result = SystemCall.retryingNegative {
      snd_pcm_open(&handle, name, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
    }
    guard result >= 0, let handle else { return (nil, result < 0 ? result : -EINVAL) }
    return (ALSADevice(name: name, handle: handle), 0)
  }

  private init(name: String, handle: OpaquePointer) {
    self.name = name
    self.handle = handle
  }

  deinit {
    if let keeper { snd_pcm_close(keeper) }
    if let handle { snd_pcm_close(handle) }
  }

  public func configure(format: PCMSampleFormat, channels: Int, rate: Int, latency: Int) -> Int32 {
    let alsaFormat = format == .float32 ? SND_PCM_FORMAT_FLOAT_LE : SND_PCM_FORMAT_S16_LE
    let result = SystemCall.retryingNegative {
      snd_pcm_set_params(
        handle, alsaFormat, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(channels), UInt32(rate), 1, UInt32(latency))
    }
    guard result >= 0 else { return result }
    var buffer: snd_pcm_uframes_t = 0
    var period: snd_pcm_uframes_t = 0
    if snd_pcm_get_params(handle, &buffer, &period) >= 0 {
      bufferFrames = Int(buffer)
      periodFrames = Int(period)
    }
    self.rate = rate
    keepSinkAwake(format: alsaFormat, channels: channels, rate: rate, latency: latency)
    canPause = Self.canPause(handle)
    let count = Int(snd_pcm_poll_descriptors_count(handle))
    descriptors = [pollfd](repeating: pollfd(), count: max(0, count))
    if count > 0 {
      let filled = snd_pcm_poll_descriptors(handle, &descriptors, UInt32(count))
      if filled < 0 { return filled }
    }
    return 0
  }

  public func write(_ data: UnsafeRawPointer, frames: Int) -> Int {
    Int(SystemCall.retryingNegative { snd_pcm_writei(handle, data, snd_pcm_uframes_t(frames)) })
  }

  public func delay() -> (result: Int32, frames: Int) {
    var frames: snd_pcm_sframes_t = 0
    let result = SystemCall.retryingNegative { snd_pcm_delay(handle, &frames) }
    return (result, Int(frames))
  }

  /// Through ALSA's pulse plugin, each `snd_pcm_prepare` (at every start and seek) disconnects the
  /// stream and connects a new one. In between, a sink with no other client goes back to the
  /// latency it has when idle (a null sink mixes two seconds ahead then), and the new stream is
  /// first mixed only when what was mixed ahead runs out: up to two seconds after the seek. A
  /// second stream of the same latency, opened alongside and never written to, stays connected
  /// throughout, so the sink keeps the player's latency across every prepare. Best effort: a
  /// device that will not open twice goes on without it.
  private func keepSinkAwake(format: snd_pcm_format_t, channels: Int, rate: Int, latency: Int) {
    guard keeper == nil else { return }
    keeper = Self.openKeeper(name, format: format, channels: channels, rate: rate, latency: latency)
  }

  /// A stream on the pulse device `name`, set up with these parameters and never started, or nil
  /// (a device of another type, or one that will not open).
  static func openKeeper(
    _ name: String, format: snd_pcm_format_t = SND_PCM_FORMAT_S16_LE, channels: Int = 2, rate: Int = 48_000,
    latency: Int = PCMOutput.latency
  ) -> OpaquePointer? {
    ALSACall.silenced
    guard PCMDeviceHint.type(of: name) == "pulse" else { return nil }
    var stream: OpaquePointer?
    guard snd_pcm_open(&stream, name, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK) >= 0, let stream else {
      return nil
    }
    let result = snd_pcm_set_params(
      stream, format, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(channels), UInt32(rate), 1, UInt32(latency))
    guard result >= 0 else {
      snd_pcm_close(stream)
      return nil
    }
    return stream
  }

  /// `snd_pcm_hw_params_current` + `snd_pcm_hw_params_can_pause`.
  private static func canPause(_ handle: OpaquePointer?) -> Bool {
    var params: OpaquePointer?
    guard snd_pcm_hw_params_malloc(&params) >= 0, let params else { return false }
    defer { snd_pcm_hw_params_free(params) }
    guard snd_pcm_hw_params_current(handle, params) >= 0 else { return false }
    return snd_pcm_hw_params_can_pause(params) != 0
  }

  public func avail() -> Int { Int(SystemCall.retryingNegative { snd_pcm_avail(handle) }) }

  public func pause(_ on: Bool) -> Int32 { SystemCall.retryingNegative { snd_pcm_pause(handle, on ? 1 : 0) } }

  public var isRunning: Bool { snd_pcm_state(handle) == SND_PCM_STATE_RUNNING }
  public var isPrepared: Bool { snd_pcm_state(handle) == SND_PCM_STATE_PREPARED }
  public func start() -> Int32 { SystemCall.retryingNegative { snd_pcm_start(handle) } }
  public func drop() -> Int32 { SystemCall.retryingNegative { snd_pcm_drop(handle) } }
  public func prepare() -> Int32 { SystemCall.retryingNegative { snd_pcm_prepare(handle) } }
  public func recover(_ error: Int32) -> Int32 {
    SystemCall.retryingNegative { snd_pcm_recover(handle, error, 1) }
  }

  public func wait(wake: Int32, timeout: Int32) -> Int32 {
    let deadline = timeout >= 0 ? PlaybackClock.now() + UInt64(timeout) * 1_000_000 : nil
    if pollSet.count != descriptors.count + 1 { pollSet = descriptors + [pollfd()] }
    while true {
      for index in descriptors.indices { pollSet[index] = descriptors[index] }
      pollSet[descriptors.count] = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
      var left = timeout
      if let deadline {
        let now = PlaybackClock.now()
        left = now >= deadline ? 0 : Int32((deadline - now + 999_999) / 1_000_000)
      }
      let count = nfds_t(pollSet.count)
      let ready = SystemCall.retrying { poll(&pollSet, count, left) }
      if ready < 0 { return ready }
      guard ready > 0, !descriptors.isEmpty else { return 0 }
      if pollSet[descriptors.count].revents != 0 { return 0 }
      // ALSA's descriptors do not say "writable" directly: it translates their events. An error
      // event (the device gone) is left for the next write to report with its own code.
      var events: UInt16 = 0
      let result = pollSet.withUnsafeMutableBufferPointer {
        snd_pcm_poll_descriptors_revents(handle, $0.baseAddress, UInt32(descriptors.count), &events)
      }
      if result < 0 { return result }
      if events & UInt16(POLLOUT | POLLERR | POLLHUP | POLLNVAL) != 0 { return 0 }
      // Woken with no room yet: pipewire-alsa's descriptor stays readable while less than a
      // period is free, so polling it again would spin, and writing at each wake-up would hand
      // over a few frames at every cycle of the server (its quantum, 5 ms or less). Sleep
      // instead until about a period is free (or the wake-up comes), as a sound card's interrupt
      // would have it.
      let room = max(0, Int(snd_pcm_avail_update(handle)))
      let missing = max(0, periodFrames - room)
      var nap = Int32(max(1, (missing * 1000 + rate - 1) / max(1, rate)))
      if left >= 0 { nap = min(nap, left) }
      var wakeOnly = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
      _ = SystemCall.retrying { poll(&wakeOnly, 1, nap) }
      return 0
    }
  }
}
