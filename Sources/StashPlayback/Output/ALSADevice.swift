import CALSA
import StashFormat
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A PCM opened through libasound for playback, non-blocking: each method is one ALSA call.
public final class ALSADevice: PCMDevice {
  /// The name it was opened with.
  public let name: String
  /// The stream frames are written to.
  private var handle: OpaquePointer?
  /// On a pulse device (`holdsSeconds`): a second stream set up as `handle` is, prepared (so
  /// connected to the server) and not started, which `takeOver` makes the stream written to.
  private var standby: OpaquePointer?
  /// Whether `standby` has been set up to take over (`setUpToTakeOver`): not at once when it is
  /// opened, as connected again then, the first play was heard a quarter of a second late, but
  /// once the stream it stands by for has played half a second.
  private var standbySetUp = false
  /// The stream `takeOver` took over from, still sounding until the new one starts, with its
  /// delay then (as `delay` reads it) and when that was (monotonic ns).
  private var retiring: OpaquePointer?
  private var retiredWith: (delay: Int, stamp: UInt64) = (0, 0)
  /// Whether `takeOver` holds the start of `handle` until `start`: it is given one frame fewer
  /// than it starts with (ALSA's start threshold and the server's prebuffering, the same, as
  /// `setUpToTakeOver` sets them), and `start` hands it its last frame again, so that it starts as
  /// any stream does, by what it holds, and the server mixes it in at once. (Started by
  /// `snd_pcm_start` with less, it was heard 40 to 350 ms late, and the plugin then reported an
  /// underrun.) The last frame written is kept for that.
  private var holding = false
  private var lastFrame: [UInt8] = []
  /// Bytes in a frame, once configured.
  private var frameBytes = 4
  /// A stream connected only to wait out the sink's first block (`settle`), never started.
  private var keeper: OpaquePointer?
  /// Frames written to `handle` since it was last prepared or taken over, and when it started
  /// (monotonic ns; nil before).
  private var writtenToHandle = 0
  private var startedAt: UInt64?
  /// Whether this is a pulse device, set up to hold seconds (`configureDeep`).
  public private(set) var holdsSeconds = false
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
    for stream in [retiring, standby, handle, keeper] { if let stream { snd_pcm_close(stream) } }
  }

  public func configure(format: PCMSampleFormat, channels: Int, rate: Int, latency: Int) -> Int32 {
    let alsaFormat = format == .float32 ? SND_PCM_FORMAT_FLOAT_LE : SND_PCM_FORMAT_S16_LE
    let deep = PCMDeviceHint.type(of: name) == "pulse"
    if deep { settle(format: alsaFormat) }
    let result = SystemCall.retryingNegative {
      deep
        ? Self.configureDeep(handle, format: alsaFormat, channels: channels, rate: rate)
        : snd_pcm_set_params(
          handle, alsaFormat, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(channels), UInt32(rate), 1,
          UInt32(latency))
    }
    guard result >= 0 else { return result }
    var buffer: snd_pcm_uframes_t = 0
    var period: snd_pcm_uframes_t = 0
    if snd_pcm_get_params(handle, &buffer, &period) >= 0 {
      bufferFrames = Int(buffer)
      periodFrames = Int(period)
    }
    self.rate = rate
    frameBytes = channels * (format == .float32 ? 4 : 2)
    holdsSeconds = deep
    if deep && standby == nil {
      standby = Self.openDeep(name, format: alsaFormat, channels: channels, rate: rate)
    }
    canPause = Self.canPause(handle)
    return readDescriptors()
  }

  /// The poll descriptors of `handle`, read again each time another stream becomes it.
  private func readDescriptors() -> Int32 {
    let count = Int(snd_pcm_poll_descriptors_count(handle))
    descriptors = [pollfd](repeating: pollfd(), count: max(0, count))
    if count > 0 {
      let filled = snd_pcm_poll_descriptors(handle, &descriptors, UInt32(count))
      if filled < 0 { return filled }
    }
    return 0
  }

  public func write(_ data: UnsafeRawPointer, frames: Int) -> Int {
    var frames = frames
    if holding {
      frames = min(frames, holdFrames - writtenToHandle)
      guard frames > 0 else { return -Int(EAGAIN) }
      lastFrame = Array(UnsafeRawBufferPointer(start: data + (frames - 1) * frameBytes, count: frameBytes))
    }
    let taken = Int(SystemCall.retryingNegative { snd_pcm_writei(handle, data, snd_pcm_uframes_t(frames)) })
    if taken > 0 {
      setUpStandbyWhenDue()
      writtenToHandle += taken
      // The start threshold reached: the stream started within this write.
      if startedAt == nil && holdsSeconds && isRunning { noteStarted() }
    }
    return taken
  }

  /// Frames queued and not heard yet. On a pulse device, never fewer than were written less the
  /// frames the time since the stream started accounts for: a stream prepared long before it
  /// starts reports a delay that stands still for up to a second after, which would put the clock
  /// ahead of the sound; and before it starts, a standby taken over reports none at all while it
  /// fills, though nothing of it has been heard.
  public func delay() -> (result: Int32, frames: Int) {
    setUpStandbyWhenDue()
    var frames: snd_pcm_sframes_t = 0
    let result = SystemCall.retryingNegative { snd_pcm_delay(handle, &frames) }
    guard result >= 0, holdsSeconds else { return (result, Int(frames)) }
    guard let startedAt else { return (result, max(Int(frames), writtenToHandle)) }
    return (result, max(Int(frames), writtenToHandle - framesPlayed(since: startedAt)))
  }

  /// Sets the standby up to take over (`standbySetUp`) once the stream playing has played half a
  /// second.
  private func setUpStandbyWhenDue() {
    guard !standbySetUp, let standby, let startedAt, PlaybackClock.now() - startedAt > 500_000_000 else {
      return
    }
    standbySetUp = Self.setUpToTakeOver(standby) >= 0
  }

  /// Frames played in the time since `stamp` (monotonic ns).
  private func framesPlayed(since stamp: UInt64) -> Int {
    Int((PlaybackClock.now() - stamp) / 1000) * rate / 1_000_000
  }

  /// How a pulse device is set up: periods of two seconds, three of them. ALSA's pulse plugin
  /// asks the server for early requests, and the server then sets the sink's latency to the
  /// stream's period; with two seconds (what a PulseAudio null sink has when idle) the sink's
  /// latency never falls, so a new stream is mixed at once (the sink rewinds what it mixed ahead)
  /// rather than after what was mixed ahead at the higher latency runs out, which left the first
  /// play of a session up to two seconds late. The stream starts once two periods are queued: with
  /// one, or less, the sink mixed 0.2 to 1.7 s of silence in after the first frames.
  static func configureDeep(_ stream: OpaquePointer?, format: snd_pcm_format_t, channels: Int, rate: Int)
    -> Int32
  {
    var hardware: OpaquePointer?
    guard snd_pcm_hw_params_malloc(&hardware) >= 0, let hardware else { return -ENOMEM }
    defer { snd_pcm_hw_params_free(hardware) }
    var result = snd_pcm_hw_params_any(stream, hardware)
    if result >= 0 { result = snd_pcm_hw_params_set_rate_resample(stream, hardware, 1) }
    if result >= 0 { result = snd_pcm_hw_params_set_access(stream, hardware, SND_PCM_ACCESS_RW_INTERLEAVED) }
    if result >= 0 { result = snd_pcm_hw_params_set_format(stream, hardware, format) }
    if result >= 0 { result = snd_pcm_hw_params_set_channels(stream, hardware, UInt32(channels)) }
    if result >= 0 { result = snd_pcm_hw_params_set_rate(stream, hardware, UInt32(rate), 0) }
    var period = UInt32(deepPeriod)
    var buffer = UInt32(deepPeriod * 3)
    var direction: Int32 = 0
    if result >= 0 { result = snd_pcm_hw_params_set_period_time_near(stream, hardware, &period, &direction) }
    direction = 0
    if result >= 0 { result = snd_pcm_hw_params_set_buffer_time_near(stream, hardware, &buffer, &direction) }
    if result >= 0 { result = snd_pcm_hw_params(stream, hardware) }
    guard result >= 0 else { return result }
    var software: OpaquePointer?
    guard snd_pcm_sw_params_malloc(&software) >= 0, let software else { return -ENOMEM }
    defer { snd_pcm_sw_params_free(software) }
    var bufferFrames: snd_pcm_uframes_t = 0
    var periodFrames: snd_pcm_uframes_t = 0
    result = snd_pcm_get_params(stream, &bufferFrames, &periodFrames)
    if result >= 0 { result = snd_pcm_sw_params_current(stream, software) }
    if result >= 0 { result = snd_pcm_sw_params_set_start_threshold(stream, software, periodFrames * 2) }
    if result >= 0 { result = snd_pcm_sw_params_set_avail_min(stream, software, periodFrames) }
    if result >= 0 { result = snd_pcm_sw_params(stream, software) }
    return result
  }

  /// Sets `stream` up to take over from another (`takeOver`): it starts once it holds two
  /// periods, ALSA and the server alike. The plugin hands ALSA's start threshold to the server
  /// (as its prebuffering) only when the stream connects, which it did before the threshold was
  /// set, so the stream is connected again (prepared): else the server starts it at one period
  /// and ALSA at two, and the stream taken over from sounded 25 to 60 ms over the new one, which
  /// was also heard before it could be held (`holding`). (Started with one period, the sink,
  /// whose latency is a period, took all of it at once and the plugin reported an underrun.)
  static func setUpToTakeOver(_ stream: OpaquePointer?) -> Int32 {
    // The threshold is `configureDeep`'s already: connecting again is what hands it over.
    SystemCall.retryingNegative { snd_pcm_prepare(stream) }
  }

  /// A pulse device's period, in microseconds (`configureDeep`).
  static let deepPeriod = 2_000_000

  /// When this process first connected a stream to the sound server (monotonic ns).
  private static let firstConnected = Mutex<UInt64?>(nil)

  /// How long after the first stream of a process connects to an idle PulseAudio null sink a
  /// stream connected meanwhile loses the start of what it plays: the sink then mixes a whole
  /// block (64 KiB: 341 ms at 48 kHz, 371 ms at 44.1 kHz), and such a stream is heard only from
  /// the block's end. Measured on a null sink at 48 kHz, the player's streams connected 0, 0.1,
  /// 0.3 and 0.6 s after its `SinkWarmer`'s: 0.26, 0.15, 0 and 0 s of the memo lost at play (and
  /// 0.3 s when streams connected with the first one were prepared again 0.4 s later); connected
  /// 0.4 s after it, nothing. So a pulse device's streams connect no sooner than this after the
  /// process's first (`settle`).
  static let firstBlock: UInt64 = 400_000_000

  /// Waits, before this device's streams connect, until the sink has mixed its first block since
  /// the process's first stream connected (`firstBlock`); when none has yet (the player's
  /// `SinkWarmer` has not got there), connects one of its own first and keeps it.
  private func settle(format: snd_pcm_format_t) {
    if Self.firstConnected.withLock({ $0 }) == nil {
      keeper = Self.openDeep(name, format: format)
    }
    let left = Self.firstBlockLeft()
    if left > 0 { usleep(useconds_t(left / 1000)) }
  }

  /// Notes that a stream connected, if it is the process's first.
  private static func noteConnected() {
    firstConnected.withLock { if $0 == nil { $0 = PlaybackClock.now() } }
  }

  /// Nanoseconds until the sink's first block has passed (`firstBlock`); 0 once it has.
  static func firstBlockLeft() -> UInt64 {
    guard let first = firstConnected.withLock({ $0 }) else { return 0 }
    let now = PlaybackClock.now()
    return first + firstBlock > now ? first + firstBlock - now : 0
  }

  /// A stream on the pulse device `name`, set up as `configureDeep` sets one and prepared, never
  /// started; nil for a device of another type, or one that will not open.
  static func openDeep(
    _ name: String, format: snd_pcm_format_t = SND_PCM_FORMAT_S16_LE, channels: Int = 2, rate: Int = 48_000
  ) -> OpaquePointer? {
    ALSACall.silenced
    guard PCMDeviceHint.type(of: name) == "pulse" else { return nil }
    var stream: OpaquePointer?
    guard snd_pcm_open(&stream, name, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK) >= 0, let stream else {
      return nil
    }
    guard configureDeep(stream, format: format, channels: channels, rate: rate) >= 0 else {
      snd_pcm_close(stream)
      return nil
    }
    noteConnected()
    return stream
  }

  /// `handle` started: what it took over from goes quiet, and is prepared to be the next standby
  /// (closed if it will not prepare: a drop then drops in place).
  private func noteStarted() {
    startedAt = PlaybackClock.now()
    silenceRetiring()
  }

  /// `handle` is new, or holds nothing any more: nothing written to it, not started.
  private func forgetStart() {
    startedAt = nil
    writtenToHandle = 0
    holding = false
  }

  /// Stops what the stream taken over from still plays, and prepares it as the standby.
  private func silenceRetiring() {
    guard let old = retiring else { return }
    retiring = nil
    _ = snd_pcm_drop(old)
    if Self.setUpToTakeOver(old) >= 0 {
      standby = old
      standbySetUp = true
    } else {
      snd_pcm_close(old)
    }
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

  public func pause(_ on: Bool) -> Int32 {
    silenceRetiring()
    return SystemCall.retryingNegative { snd_pcm_pause(handle, on ? 1 : 0) }
  }

  public var isRunning: Bool { snd_pcm_state(handle) == SND_PCM_STATE_RUNNING }
  public var isPrepared: Bool { snd_pcm_state(handle) == SND_PCM_STATE_PREPARED }

  public func start() -> Int32 {
    if holding {
      holding = false
      if writtenToHandle == holdFrames, lastFrame.count == frameBytes {
        let taken = lastFrame.withUnsafeBytes { write($0.baseAddress!, frames: 1) }
        if taken < 0 { return Int32(taken) }
      }
    }
    if isRunning { return 0 }
    let result = SystemCall.retryingNegative { snd_pcm_start(handle) }
    if result >= 0 && holdsSeconds { noteStarted() }
    return result
  }

  /// Throws away what is queued, at once: what a stream taken over from still plays too.
  public func drop() -> Int32 {
    silenceRetiring()
    forgetStart()
    return SystemCall.retryingNegative { snd_pcm_drop(handle) }
  }

  /// Throws away what `handle` holds, to go on with other frames. On a pulse device with a
  /// standby, the standby becomes the stream written to, and the old one plays on until the new
  /// one starts (`noteStarted`): a seek, or a setting made again from the frame heard, goes over
  /// with no gap, and the new stream, connected before, is mixed at once (a stream connected at
  /// the seek was heard a block late: 340 ms at 48 kHz, 370 ms at 44.1 kHz). Taken over again
  /// before the new stream started, the old one plays on, and the new one is emptied to be filled
  /// again. `holdingStart`: the new stream starts only when `start` is called (`holding`), so the
  /// switch is made when the caller chooses, at the frame the new stream starts with.
  public func takeOver(holdingStart: Bool) -> Int32 {
    guard holdsSeconds else { return drop() }
    if retiring != nil && !isRunning {
      _ = SystemCall.retryingNegative { snd_pcm_drop(handle) }
      forgetStart()
      holding = holdingStart
      return SystemCall.retryingNegative { snd_pcm_prepare(handle) }
    }
    guard let next = standby else { return drop() }
    let nextSetUp = standbySetUp
    silenceRetiring()
    if !isRunning && writtenToHandle == 0 && isPrepared {
      // Nothing written to it: it becomes the standby, aging while the other plays.
      standby = handle
    } else {
      let (result, frames) = delay()
      retiredWith = (isRunning && result >= 0 ? frames : 0, PlaybackClock.now())
      retiring = handle
      standby = nil
    }
    standbySetUp = false
    handle = next
    forgetStart()
    // Not set up yet, it starts by itself, as any stream (once ALSA's threshold is reached).
    holding = holdingStart && nextSetUp
    return readDescriptors()
  }

  /// Frames the stream taken over from still plays: its delay at the take-over, less the time
  /// since (the server's reading of it can stand still or jump by a tenth of a second, while the
  /// clock the caller chose the frame by is the same `delay`, read just before).
  public var retiringDelay: Int? {
    guard retiring != nil else { return nil }
    return max(0, retiredWith.delay - framesPlayed(since: retiredWith.stamp))
  }

  public var startHeld: Bool { holding }

  /// A held take-over needs a standby set up for it (`standbySetUp`); a stream not started yet
  /// and taken over again is emptied and held in place.
  public var canHoldStart: Bool {
    holdsSeconds && ((standby != nil && standbySetUp) || (retiring != nil && !isRunning))
  }

  /// A held stream has been given all it is given before it starts.
  public var readyToStart: Bool { !holding || writtenToHandle >= holdFrames }

  /// Frames a held stream is given before it starts (`holding`).
  private var holdFrames: Int { max(1, 2 * periodFrames - 1) }

  /// Makes `handle` ready for frames; a standby just taken over already is.
  public func prepare() -> Int32 {
    if isPrepared { return 0 }
    forgetStart()
    return SystemCall.retryingNegative { snd_pcm_prepare(handle) }
  }

  public func recover(_ error: Int32) -> Int32 {
    forgetStart()
    return SystemCall.retryingNegative { snd_pcm_recover(handle, error, 1) }
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
      if ready < 0 { return -errno }
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
