import StashBrowser
import StashFormat
import StashPlayback

#if canImport(Glibc)
  import Glibc
#endif

/// What the command line asked for.
struct LaunchOptions {
  /// The memo folder: the argument, else $STASH_DIR, else the current folder.
  var folder: String = "."
  /// Whether the mouse is captured.
  var mouse = true
  var help = false
  var version = false
  /// The `--render-once WxH` test hook's size.
  var renderOnce: (width: Int, height: Int)?
  /// The hook's key script.
  var keys = ""
  /// Whether the hook prints the style map too.
  var showStyles = false
  /// Where memos can be imported from: `--import-from DIR`, else $STASH_IMPORT_FROM.
  var importFrom: String?
  /// Whether the hook prints the first screen as the browser first shows it: the list from the
  /// folder's names, only the rows on screen read (the rest would be read behind it).
  var firstScreen = false
  /// The ALSA device to play on (`--device`); nil: `STASH_ALSA_DEVICE`, else `default`.
  var device: String?
  /// Whether to list the playback devices and exit.
  var listDevices = false
  /// Whether to offer the desktop's media controls on the session bus (MPRIS); `--no-mpris`.
  var mpris = true
  /// How hard to shorten long pauses (`--skip-silence[=LEVEL]`), for the browser's player; nil:
  /// pauses play whole until `s` is pressed.
  var skipSilence: SkipSilenceLevel?
  /// Whether the marks use the findings cache (`--no-cache`: every memo checked afresh).
  var cache = true
  /// Whether the browser's player starts with voice boost on (`--voice-boost`; `v` toggles it).
  var voiceBoost = false
  /// Whether it starts with the noise reduction on (`--enhance`; `v`'s second level).
  var enhance = false

  /// A command-line mistake.
  struct UsageError: Error {
    var message: String
  }

  /// Reads the arguments (without the program name).
  static func parse(_ arguments: [String]) -> Result<LaunchOptions, UsageError> {
    var options = LaunchOptions()
    var folder: String?
    var i = 0
    while i < arguments.count {
      let a = arguments[i]
      func value() -> String? {
        i += 1
        return i < arguments.count ? arguments[i] : nil
      }
      switch a {
      case "-h", "--help": options.help = true
      case "--version": options.version = true
      case "--no-mouse": options.mouse = false
      case "--no-mpris": options.mpris = false
      case "--no-cache": options.cache = false
      case "--voice-boost": options.voiceBoost = true
      case "--enhance": options.enhance = true
      case "--show-styles": options.showStyles = true
      case "--first-screen": options.firstScreen = true
      case "--list-devices": options.listDevices = true
      case "--device":
        guard let v = value(), !v.isEmpty else {
          return .failure(
            UsageError(message: "--device needs an ALSA device name (stash-tui --list-devices lists them)"))
        }
        options.device = v
      case "--render-once":
        guard let v = value() else {
          return .failure(UsageError(message: "--render-once needs WIDTHxHEIGHT"))
        }
        let wh = v.split(separator: "x").compactMap { Int($0) }
        guard wh.count == 2, wh[0] > 0, wh[1] > 0, wh[0] <= 1000, wh[1] <= 1000 else {
          return .failure(UsageError(message: "--render-once needs WIDTHxHEIGHT, like 100x30 (got \(v))"))
        }
        options.renderOnce = (wh[0], wh[1])
      case "--import-from":
        guard let v = value() else { return .failure(UsageError(message: "--import-from needs a folder")) }
        options.importFrom = v
      case "--keys":
        guard let v = value() else { return .failure(UsageError(message: "--keys needs a key script")) }
        options.keys = v
      case "--":
        if i + 1 < arguments.count { folder = arguments[i + 1] }
        i = arguments.count
      default:
        if let level = HeadlessPlayback.skipSilence(a) {
          switch level {
          case .success(let level): options.skipSilence = level
          case .failure(let problem): return .failure(UsageError(message: problem.text))
          }
          break
        }
        if a.hasPrefix("-") && a != "-" {
          return .failure(UsageError(message: "unknown option \(a) (stash-tui --help lists them)"))
        }
        if folder != nil { return .failure(UsageError(message: "one folder at most (got \(a) too)")) }
        folder = a
      }
      i += 1
    }
    if options.importFrom == nil, let from = Environment.value("STASH_IMPORT_FROM"), !from.isEmpty {
      options.importFrom = from
    }
    if let folder {
      options.folder = folder
    } else if let dir = Environment.value("STASH_DIR"), !dir.isEmpty {
      options.folder = dir
    }
    return .success(options)
  }

  /// Prints `message` to standard error and exits with status 2.
  static func fail(_ message: String) -> Never {
    write(2, "stash-tui: \(message)\n")
    exit(2)
  }

  /// Writes `text` to a descriptor.
  static func write(_ fd: Int32, _ text: String) {
    SystemCall.writeAll(fd, Array(text.utf8))
  }

  /// Prints the usage and every key, from the key table.
  static func printHelp() { write(1, helpText()) }

  /// The usage, the options and every key, from the key table: `--help`, and the options of the
  /// man page (`BrowserManual`).
  static func helpText() -> String {
    var text = """
      stash-tui [DIR]: browse, read and play the memos in a Stash folder.
      DIR defaults to $STASH_DIR, else the current folder.

      Options:
        --device NAME          play on the ALSA device NAME (default: $STASH_ALSA_DEVICE, else
                               ALSA's default, which a desktop routes to PulseAudio or PipeWire)
        --list-devices         list the ALSA devices that can play, and exit
        --no-mouse             leave the mouse to the terminal (text selection)
        --no-mpris             stay off the session bus: no media keys or desktop controls (MPRIS)
        --no-cache             check every memo for its marks again, neither reading nor writing
                               the findings cache (stash cache)
        --import-from DIR      where I imports memos from (a phone mounted with ifuse, a stick)
        --voice-boost          start with voice boost on (v cycles it): a quiet voice brought up
                               to a steady loudness
        --enhance              start with enhance on (v's second level, with voice boost): a
                               steady background (wind, hum, hiss) brought down under the voice
        --skip-silence[=LEVEL]
                               start with skip silence on at LEVEL (mild, medium: the default,
                               strong; s changes it): long pauses shortened, the clock in memo time
        --version              print the version
        --render-once WxH      test hook: run --keys on a WxH screen without a terminal, print the
                               screen as text (a virtual clock stands in for the player)
        --keys SCRIPT          keys for --render-once: characters, <enter> <esc> <up> <c-left> ...,
                               <wait SECONDS> <resize WxH> <click X,Y> <changed>
        --show-styles          with --render-once, also print one style letter per cell
        --first-screen         with --render-once, print the screen the browser draws first:
                               the list from the folder's names, no memo read yet (no keys)

      stash-tui --play FILE [--from T] [--to T] [--device NAME] [--speed X] [--volume N]
      [--voice-boost] [--enhance] [--skip-silence[=LEVEL]]: play one memo without the interface (T
      is 83, 1:23 or 1:02:03; X from 0.5 to 3, the pitch kept; N from 0 to 150 percent;
      --voice-boost brings a quiet voice up to a steady loudness, about -16 LUFS; --enhance brings
      a steady background down under the voice; --skip-silence shortens every pause
      longer than LEVEL's length to it: mild 0.5 s, medium 0.3 s (the default), strong 0.15 s; T
      and every position stay the memo's own time).

      stash-tui --waveform FILE [--points N]: print the memo's loudness as JSON, N points (100)
      over its length, each the RMS level in dBFS of that stretch (AES17: a full-scale sine reads 0,
      3 dB above plain RMS), or null where it did not decode.

      stash-tui --decode FILE --from S --to S -o OUT [--force]: write the memo's audio from S to S
      seconds as a WAV file (16-bit PCM), never into the memo folder nor over a file without
      --force; what `stash export --clip --to wav` runs.

      Environment: NO_COLOR turns colours off; STASH_DIR is the default folder;
      STASH_IMPORT_FROM the default --import-from; STASH_ALSA_DEVICE is the default sound device.

      Keys:

      """
    for line in KeyTable.helpLines() { text += line.text + "\n" }
    return text
  }
}

/// `stash-tui --list-devices`: the PCMs ALSA can play on, one a line, name then description.
enum DeviceList {
  /// The listing's text.
  static func text(_ hints: [PCMDeviceHint], current: String) -> String {
    guard !hints.isEmpty else { return "ALSA lists no sound device that can play here.\n" }
    let width = min(40, hints.map(\.name.count).max() ?? 0)
    var text = ""
    for hint in hints {
      let mark = hint.name == current ? "*" : " "
      let padded =
        hint.name.count < width
        ? hint.name + String(repeating: " ", count: width - hint.name.count) : hint.name
      text += "\(mark) \(padded)  \(hint.description)\n"
    }
    return text
      + "(* the device stash-tui plays on now; choose another with --device NAME or STASH_ALSA_DEVICE)\n"
  }
}

/// What the browser says about itself.
enum BrowserInfo {
  /// The version, the CLI's: stamped by scripts/stamp-version in a `make` release build (as
  /// stash's ToolVersion), else StashFormat's.
  #if STASH_STAMPED_VERSION
    static let version = stampedVersion
  #else
    static let version = StashFormat.version
  #endif
}

/// Checks the folder before anything starts.
enum FolderCheck {
  /// Why `path` cannot be browsed, or nil when it is a readable folder.
  static func problem(_ path: String) -> String? {
    var st = stat()
    if stat(path, &st) != 0 {
      return "\(path): " + String(cString: strerror(errno))
    }
    if (st.st_mode & S_IFMT) != S_IFDIR { return "\(path): not a folder" }
    guard let dir = opendir(path) else {
      return "\(path): cannot read the folder: " + String(cString: strerror(errno))
    }
    closedir(dir)
    return nil
  }
}
