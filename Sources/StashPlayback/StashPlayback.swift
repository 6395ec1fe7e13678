import CAVCodec
import StashFormat

/// StashPlayback decodes the AAC samples StashFormat indexes with libavcodec and plays them on ALSA.
public enum StashPlayback {
  /// The version of the libavcodec headers the program was built with, as `major.minor.micro`
  /// (LIBAVCODEC_VERSION_*). libavcodec is opened only when a memo is first played, so this does
  /// not open it; the major version is the soname that will be opened (`libavcodec.so.<major>`).
  public static var codecLibraryVersion: String { versionText(stash_avcodec_header_version()) }

  /// `major.minor.micro` of an `AV_VERSION_INT`.
  static func versionText(_ v: UInt32) -> String { "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)" }
}
