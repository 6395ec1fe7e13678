import CALSA
import Synchronization

/// Connects a stream to a PulseAudio sink from the moment a player is made, before its first
/// play: a stream on the device, opened through ALSA's pulse plugin as `ALSADevice` opens its
/// own (`ALSADevice.openDeep`), connected and never started. When a process's first stream
/// connects to an idle null sink, the sink mixes a whole block, and streams connected meanwhile
/// lose the start of what they play (`ALSADevice.firstBlock`), so a device's streams wait for it
/// to pass; this stream makes it pass while the person looks at the list, and a play is heard at
/// once. It also holds the sink at the two seconds of latency the player's streams ask for.
/// Nothing for a device that is not reached through the pulse plugin; best effort.
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
      guard let handle = ALSADevice.openDeep(name) else { return }
      stream.withLock { $0 = UnsafeTransferredPCM(handle: handle) }
    }
  }

  deinit {
    stream.withLock { if let open = $0 { snd_pcm_close(open.handle) } }
  }
}
