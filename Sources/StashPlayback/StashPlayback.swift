import CAVCodec
import StashFormat

/// StashPlayback decodes the AAC samples StashFormat indexes with libavcodec and plays them on ALSA.
public enum StashPlayback {
  /// The libavcodec version linked at run time, as `major.minor.micro` (`avcodec_version`).
  public static var codecLibraryVersion: String {
    let v = avcodec_version()
    return "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)"
  }
}
