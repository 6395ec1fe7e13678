#if canImport(Glibc)
  import Glibc
#endif

/// The calls the player makes on a sound device, with ALSA's conventions (a negative errno on
/// failure). `ALSADevice` forwards each to libasound; tests put a simulated device here to inject
/// underruns, suspends, a device that vanishes, and a delay read from a virtual clock.
///
/// A device is used by one thread at a time (the player's output thread).
public protocol PCMDevice: AnyObject {
  /// The name it was opened with, for messages.
  var name: String { get }
  /// Sets interleaved access, `format`, `channels` and `rate` with about `latency` microseconds of
  /// buffer, letting a plug layer convert (`snd_pcm_set_params`); 0 or a negative errno.
  func configure(format: PCMSampleFormat, channels: Int, rate: Int, latency: Int) -> Int32
  /// Queues up to `frames` interleaved frames without blocking (`snd_pcm_writei`): the count
  /// taken, or a negative errno (`-EAGAIN` when full, `-EPIPE` underrun, `-ESTRPIPE` suspended).
  func write(_ data: UnsafeRawPointer, frames: Int) -> Int
  /// Frames queued but not yet heard (`snd_pcm_delay`); a negative errno on failure.
  func delay() -> (result: Int32, frames: Int)
  /// Whether the device has started playing what it was given (`snd_pcm_state` is RUNNING).
  var isRunning: Bool { get }
  /// Whether the device is set up but has not started (`snd_pcm_state` is PREPARED).
  var isPrepared: Bool { get }
  /// Starts playing what is queued even if less than the start threshold (`snd_pcm_start`).
  func start() -> Int32
  /// Throws away what is queued, unheard (`snd_pcm_drop`).
  func drop() -> Int32
  /// Throws away what is queued to go on with other frames: `drop`, or on a device that holds
  /// seconds (`holdsSeconds`), a switch to a second stream, the first sounding until the second
  /// starts. `holdingStart`: the second does not start by itself when it has frames enough
  /// (`readyToStart`), but when `start` is called, so that the switch is made at a chosen frame.
  func takeOver(holdingStart: Bool) -> Int32
  /// Frames the stream taken over from still plays before it runs dry (0 when it does not
  /// sound); nil when there is none.
  var retiringDelay: Int? { get }
  /// Whether the stream written to is held by `takeOver` (it may not be, when it cannot be yet).
  var startHeld: Bool { get }
  /// Whether a `takeOver` now, `holdingStart`, would hold the new stream.
  var canHoldStart: Bool { get }
  /// Whether the stream taken over to, held, has the frames it would have started with by itself.
  var readyToStart: Bool { get }
  /// Whether the device holds seconds of sound (a pulse device, `ALSADevice.configureDeep`): a
  /// setting changed while playing is then made again from the frame heard rather than heard
  /// after what it holds.
  var holdsSeconds: Bool { get }
  /// Makes the device ready to take frames again (`snd_pcm_prepare`).
  func prepare() -> Int32
  /// Recovers from an underrun or a suspend (`snd_pcm_recover`, silently).
  func recover(_ error: Int32) -> Int32
  /// Waits until the device takes frames, `wake` is readable, or `timeout` ms pass
  /// (`snd_pcm_poll_descriptors` + `poll`); a negative errno when the device reports an error.
  func wait(wake: Int32, timeout: Int32) -> Int32
  /// Frames the device has room for now (`snd_pcm_avail`); a negative errno on failure.
  func avail() -> Int
  /// The size of the device's buffer in frames once configured (`snd_pcm_get_params`); 0 when unknown.
  var bufferFrames: Int { get }
  /// Whether the device can pause and resume in place (`snd_pcm_hw_params_can_pause`).
  var canPause: Bool { get }
  /// Pauses (`true`) or resumes (`false`) what is queued, in place (`snd_pcm_pause`).
  func pause(_ on: Bool) -> Int32
}

extension PCMDevice {
  /// A device with one stream.
  public func takeOver(holdingStart: Bool) -> Int32 { drop() }
  /// A device with one stream.
  public var retiringDelay: Int? { nil }
  /// A device with one stream.
  public var startHeld: Bool { false }
  /// A device with one stream.
  public var canHoldStart: Bool { false }
  /// A device with one stream.
  public var readyToStart: Bool { true }
  /// A device holding a fraction of a second.
  public var holdsSeconds: Bool { false }
  /// A device that cannot say how much room it has.
  public func avail() -> Int { -Int(ENOSYS) }
  /// A device that does not say how large its buffer is.
  public var bufferFrames: Int { 0 }
  /// A device that cannot pause in place.
  public var canPause: Bool { false }
  /// A device that cannot pause in place.
  public func pause(_ on: Bool) -> Int32 { -ENOSYS }
}
