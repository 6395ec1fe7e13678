import CAVCodec

/// The one place libavcodec return codes become errors: every call into libavcodec that can fail
/// goes through `check`, which carries the library's own words (`av_strerror`).
enum CodecCall {
  /// `av_strerror(code)`.
  static func message(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard av_strerror(code, &buffer, buffer.count) == 0 else { return "libavcodec error \(code)" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Returns `code` when it is not negative; otherwise throws `kind` with "cannot <doing>: <reason>".
  @discardableResult
  static func check(
    _ code: Int32, doing: String, kind: PlaybackError.Code = .decoder, time: Double? = nil
  ) throws(PlaybackError) -> Int32 {
    guard code < 0 else { return code }
    throw PlaybackError(code: kind, message: "cannot \(doing): \(message(code))", time: time)
  }
}
