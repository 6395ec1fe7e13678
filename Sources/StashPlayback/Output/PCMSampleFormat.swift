/// The sample formats the player hands a device.
public enum PCMSampleFormat: Sendable, Equatable {
  /// 32-bit float, little-endian: what the decoder produces.
  case float32
  /// 16-bit signed, little-endian: for devices (without a plug layer) that take no float.
  case int16
}
