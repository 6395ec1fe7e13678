import CALSA
import Synchronization

/// Holds a PulseAudio sink at the player's latency from the moment a player is made, before its
/// first stream: a stream on the device, opened through ALSA's pulse plugin, connected and never
/// started (as `ALSADevice` keeps one beside every stream it plays). A sink with no client mixes
/// as far ahead as it may (two seconds for a null sink) and mixes a new stream only when that
/// runs out, so without it the first play of a session can be heard up to two seconds late; with
/// it, a play that comes after the sink has caught up (that long after the player was made) is
/// heard at once. Nothing for a device that is not reached through the pulse plugin; best effort.
final class SinkWarmer: Sendable {
  /// The stream, once open; nil before, or for good when the device is not a pulse one.
  private let stream = Mutex<UnsafeTransferredPCM?>(nil)

  /// A PCM handle moved between threads: only opened on one and closed on another, never used
  /// at once.
  private struct UnsafeTransferredPCM: @unchecked Sendable {
    let handle: OpaquePointer
  }

  /// Opens the stream for the device `name` on a thread of its own.
  init(device name: String) {
    DetachedThread.start { [self] in
      guard let handle = ALSADevice.openKeeper(name) else { return }
      stream.withLock { $0 = UnsafeTransferredPCM(handle: handle) }
    }
  }

  deinit {
    stream.withLock { if let open = $0 { snd_pcm_close(open.handle) } }
  }
}
