import CAVCodec

/// libavcodec, opened when the first memo is played rather than linked (why: CAVCodec/shim.h).
enum CodecLibrary {
  /// The soname of the libavcodec the headers are from (LIBAVCODEC_VERSION_MAJOR).
  static let soname = String(cString: stash_avcodec_soname())
  /// That libavcodec, opened once, on first use.
  static let shared = load(soname: soname)

  /// Opens `soname` and resolves every call the decoder makes; the error says what failed
  /// (LazyLibrary.load).
  static func load(soname: String) -> Result<LazyLibrary<stash_avcodec>, PlaybackError> {
    LazyLibrary.load(soname: soname, { stash_avcodec_open($0, $1, $2) }) {
      PlaybackError(code: .unsupported, message: "no AAC decoder: \($0)")
    }
  }
}
