import CAVCodec

/// AAC access units in, interleaved 32-bit float frames out, through libavcodec's AAC decoder
/// (AAC-LC, and HE-AAC where the AudioSpecificConfig or the stream says so). No demuxer: the
/// caller hands over whole access units, as the MP4 index lists them.
///
/// Not thread-safe: one thread decodes at a time (the player's decoder thread).
final class AACDecoder {
  /// Frames per second the decoder outputs (twice the core rate for HE-AAC); known after open,
  /// updated by the first decoded frame.
  private(set) var outputRate: Int
  /// Channels the decoder outputs.
  private(set) var outputChannels: Int

  /// libavcodec's calls (CodecLibrary).
  private let av: stash_avcodec
  private let context: UnsafeMutablePointer<AVCodecContext>
  private let packet: UnsafeMutablePointer<AVPacket>
  private let frame: UnsafeMutablePointer<AVFrame>
  /// Input staging with libavcodec's required zeroed padding after the data.
  private var staging: UnsafeMutableRawBufferPointer

  /// Opens the decoder (`avcodec_find_decoder`, `avcodec_alloc_context3`, `avcodec_open2`) with
  /// `audioSpecificConfig` as extradata; libavcodec itself is opened on the first call (and a
  /// failure to open it names the library and the loader's reason).
  init(audioSpecificConfig: [UInt8], sampleRate: Int, channels: Int) throws(PlaybackError) {
    let av = try CodecLibrary.shared.get().calls.pointee
    stash_av_quiet()
    guard let codec = av.avcodec_find_decoder(AV_CODEC_ID_AAC) else {
      throw PlaybackError(code: .unsupported, message: "this libavcodec has no AAC decoder")
    }
    guard let context = av.avcodec_alloc_context3(codec) else {
      throw PlaybackError(code: .decoder, message: "cannot allocate the AAC decoder: out of memory")
    }
    let padding = Int(stash_av_input_padding())
    if !audioSpecificConfig.isEmpty {
      guard let extra = av_mallocz(audioSpecificConfig.count + padding) else {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        av.avcodec_free_context(&c)
        throw PlaybackError(code: .decoder, message: "cannot allocate the AAC decoder: out of memory")
      }
      audioSpecificConfig.withUnsafeBytes { extra.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
      context.pointee.extradata = extra.assumingMemoryBound(to: UInt8.self)
      context.pointee.extradata_size = Int32(audioSpecificConfig.count)
    }
    context.pointee.sample_rate = Int32(sampleRate)
    if channels > 0 { av_channel_layout_default(&context.pointee.ch_layout, Int32(channels)) }
    let opened = av.avcodec_open2(context, codec, nil)
    guard opened >= 0, let packet = av.av_packet_alloc(), let frame = av_frame_alloc() else {
      var c: UnsafeMutablePointer<AVCodecContext>? = context
      av.avcodec_free_context(&c)
      try CodecCall.check(
        opened < 0 ? opened : stash_averror_enomem(), doing: "open the AAC decoder", kind: .unsupported)
      fatalError("unreachable: check throws on a negative code")
    }
    self.av = av
    self.context = context
    self.packet = packet
    self.frame = frame
    staging = .allocate(byteCount: 8192 + padding, alignment: 16)
    staging.initializeMemory(as: UInt8.self, repeating: 0)
    outputRate = Int(context.pointee.sample_rate > 0 ? context.pointee.sample_rate : Int32(sampleRate))
    let openedChannels = Int(context.pointee.ch_layout.nb_channels)
    outputChannels = openedChannels > 0 ? openedChannels : max(1, channels)
  }

  deinit {
    var p: UnsafeMutablePointer<AVPacket>? = packet
    av.av_packet_free(&p)
    var f: UnsafeMutablePointer<AVFrame>? = frame
    av_frame_free(&f)
    var c: UnsafeMutablePointer<AVCodecContext>? = context
    av.avcodec_free_context(&c)
    staging.deallocate()
  }

  /// Forgets all decoding state (`avcodec_flush_buffers`), before decoding from somewhere else.
  func flush() { av.avcodec_flush_buffers(context) }

  /// Decodes one access unit (`avcodec_send_packet`, `avcodec_receive_frame`) and appends its
  /// frames, interleaved, to `output`; returns how many frames were appended. `time` (seconds) is
  /// only for the error message.
  @discardableResult
  func decode(_ accessUnit: UnsafeRawBufferPointer, time: Double, into output: inout [Float])
    throws(PlaybackError) -> Int
  {
    // FFmpeg 5.1 refuses a packet of size 0 with EINVAL (and one without data means "drain"): an
    // empty access unit holds no audio, so it decodes to nothing.
    guard accessUnit.count > 0 else { return 0 }
    let padding = Int(stash_av_input_padding())
    if accessUnit.count + padding > staging.count {
      staging.deallocate()
      staging = .allocate(byteCount: accessUnit.count * 2 + padding, alignment: 16)
    }
    if let base = accessUnit.baseAddress, accessUnit.count > 0 {
      staging.baseAddress!.copyMemory(from: base, byteCount: accessUnit.count)
    }
    (staging.baseAddress! + accessUnit.count).initializeMemory(as: UInt8.self, repeating: 0, count: padding)
    packet.pointee.data = staging.baseAddress!.assumingMemoryBound(to: UInt8.self)
    packet.pointee.size = Int32(accessUnit.count)
    let sent = av.avcodec_send_packet(context, packet)
    packet.pointee.data = nil
    packet.pointee.size = 0
    try CodecCall.check(sent, doing: "decode the audio here (seek past it to play on)", time: time)
    var appended = 0
    while true {
      let received = av.avcodec_receive_frame(context, frame)
      if received == stash_averror_eagain() || received == stash_averror_eof() { break }
      try CodecCall.check(received, doing: "decode the audio here (seek past it to play on)", time: time)
      defer { av_frame_unref(frame) }
      appended += try append(frame, time: time, to: &output)
    }
    return appended
  }

  /// Interleaves a decoded frame's samples onto `output`.
  private func append(_ frame: UnsafeMutablePointer<AVFrame>, time: Double, to output: inout [Float])
    throws(PlaybackError) -> Int
  {
    let count = Int(frame.pointee.nb_samples)
    let channels = Int(stash_frame_channels(frame))
    guard count > 0, channels > 0 else { return 0 }
    if frame.pointee.sample_rate > 0 { outputRate = Int(frame.pointee.sample_rate) }
    if channels != outputChannels {
      // A stream that changes its channel count midway cannot go on to a device set up for the
      // old one; saying so beats playing it at the wrong speed.
      throw PlaybackError(
        code: .decoder,
        message: "the audio changes from \(outputChannels) to \(channels) channels midway", time: time)
    }
    let start = output.count
    output.reserveCapacity(start + count * channels)
    guard let planes = frame.pointee.extended_data else { return 0 }
    switch AVSampleFormat(frame.pointee.format) {
    case AV_SAMPLE_FMT_FLTP:
      if channels == 1 {
        let plane = UnsafeRawPointer(planes[0]!).assumingMemoryBound(to: Float.self)
        output.append(contentsOf: UnsafeBufferPointer(start: plane, count: count))
      } else {
        output.append(contentsOf: repeatElement(0, count: count * channels))
        output.withUnsafeMutableBufferPointer { out in
          for channel in 0..<channels {
            let plane = UnsafeRawPointer(planes[channel]!).assumingMemoryBound(to: Float.self)
            for i in 0..<count { out[start + i * channels + channel] = plane[i] }
          }
        }
      }
    case AV_SAMPLE_FMT_FLT:
      let data = UnsafeRawPointer(planes[0]!).assumingMemoryBound(to: Float.self)
      output.append(contentsOf: UnsafeBufferPointer(start: data, count: count * channels))
    default:
      throw PlaybackError(
        code: .unsupported,
        message: "the decoder gave sample format \(frame.pointee.format), which stash does not convert",
        time: time)
    }
    return count
  }
}
