import Testing

@testable import StashPlayback

/// Every library opened on first use rather than linked (the codec, and libavfilter for each
/// listening setting): when it is missing, the refusal names what goes without it and the
/// loader's own reason, and says what plays on.
@Suite struct MissingLibraryTests {
  /// One lazily opened library, as one of its uses loads it.
  enum Use: String, CaseIterable, Sendable {
    case codec, speed, boost, enhance

    /// The refusal's opening words, and its closing ones (empty: the reason ends it).
    var words: (opening: String, closing: String) {
      switch self {
      case .codec: ("no AAC decoder: ", "")
      case .speed: ("cannot play at another speed: ", "; playing on at 1×")
      case .boost: ("cannot boost the voice: ", "; playing on without it")
      case .enhance: ("cannot reduce the noise: ", "; playing on without it")
      }
    }

    /// Loads `soname` for this use: the refusal, or nil when it loaded.
    func refusal(loading soname: String) -> PlaybackError? {
      func failure<Loaded>(_ result: Result<Loaded, PlaybackError>) -> PlaybackError? {
        guard case .failure(let error) = result else { return nil }
        return error
      }
      switch self {
      case .codec: return failure(CodecLibrary.load(soname: soname))
      case .speed: return failure(SpeedFilterLibrary.load(soname: soname))
      case .boost: return failure(VoiceBoostLibrary.load(soname: soname))
      case .enhance: return failure(NoiseReductionLibrary.load(soname: soname))
      }
    }
  }

  @Test(arguments: Use.allCases)
  func aMissingLibraryIsRefusedWithTheLoadersReason(_ use: Use) throws {
    let soname = "libstash-no-such-library.so.0"
    let error = try #require(use.refusal(loading: soname), "\(soname) loaded")
    let (opening, closing) = use.words
    #expect(error.code == .unsupported)
    #expect(error.message.hasPrefix(opening + "\(soname) could not be loaded ("), "\(error.message)")
    #expect(error.message.contains("cannot open shared object file"), "\(error.message)")
    #expect(error.message.hasSuffix(closing), "\(error.message)")
  }
}
