import CAVCodec

/// libavcodec, opened when the first memo is played rather than linked: linked, it and the some 70
/// libraries it needs cost every start of the browser about 35 ms in the dynamic loader, and
/// browsing, showing and recovering memos never decode.
enum CodecLibrary {
  /// The soname of the libavcodec the headers are from (LIBAVCODEC_VERSION_MAJOR).
  static let soname = String(cString: stash_avcodec_soname())
  /// That libavcodec, opened once, on first use.
  static let shared = load(soname: soname)

  /// Opens `soname` and resolves every call the decoder makes; the error names the library and
  /// gives the loader's reason (the file missing, or a symbol it lacks).
  static func load(soname: String) -> Result<LazyLibrary<stash_avcodec>, PlaybackError> {
    LazyLibrary.load(soname: soname, { stash_avcodec_open($0, $1, $2) }) {
      PlaybackError(code: .unsupported, message: "no AAC decoder: \($0)")
    }
  }
}
