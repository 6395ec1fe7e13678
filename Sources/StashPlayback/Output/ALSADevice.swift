import CALSA

#if canImport(Glibc)
  import Glibc
#endif

/// A PCM opened through libasound for playback, non-blocking: each method is one ALSA call.
public final class ALSADevice: PCMDevice {
  /// The name it was opened with.
  public let name: String
  private var handle: OpaquePointer?
  private var descriptors: [pollfd] = []
  /// The buffer size and pause ability, read once configured.
  public private(set) var bufferFrames = 0
  public private(set) var canPause = false

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

  deinit { if let handle { snd_pcm_close(handle) } }

  public func configure(format: PCMSampleFormat, channels: Int, rate: Int, latency: Int) -> Int32 {
    let alsaFormat = format == .float32 ? SND_PCM_FORMAT_FLOAT_LE : SND_PCM_FORMAT_S16_LE
    let result = SystemCall.retryingNegative {
      snd_pcm_set_params(
        handle, alsaFormat, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(channels), UInt32(rate), 1, UInt32(latency))
    }
    guard result >= 0 else { return result }
    var buffer: snd_pcm_uframes_t = 0
    var period: snd_pcm_uframes_t = 0
    if snd_pcm_get_params(handle, &buffer, &period) >= 0 { bufferFrames = Int(buffer) }
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
    var fds = descriptors
    fds.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0))
    let ready = SystemCall.retrying { poll(&fds, nfds_t(fds.count), timeout) }
    if ready < 0 { return ready }
    guard ready > 0, !descriptors.isEmpty else { return 0 }
    // ALSA's descriptors do not say "writable" directly: it translates their events. An error
    // event (the device gone) is left for the next write to report with its own code.
    var events: UInt16 = 0
    let result = fds.withUnsafeMutableBufferPointer {
      snd_pcm_poll_descriptors_revents(handle, $0.baseAddress, UInt32(descriptors.count), &events)
    }
    return result < 0 ? result : 0
  }
}
