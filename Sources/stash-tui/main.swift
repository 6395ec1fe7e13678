import StashBrowser
import StashPlayback
import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

// `--play FILE ...`: headless playing through StashPlayback, without the interface
// (HeadlessPlayback.swift, in this target).
if HeadlessPlayback.wanted(Array(CommandLine.arguments.dropFirst())) {
  exit(HeadlessPlayback.run(Array(CommandLine.arguments.dropFirst())))
}

// `--waveform FILE [--points N]`: the memo's loudness as JSON (HeadlessWaveform.swift).
// `--decode FILE --from S --to S -o OUT`: a stretch of the memo as WAV (HeadlessDecode.swift).
if HeadlessDecode.wanted(Array(CommandLine.arguments.dropFirst())) {
  exit(HeadlessDecode.run(Array(CommandLine.arguments.dropFirst())))
}
if HeadlessWaveform.wanted(Array(CommandLine.arguments.dropFirst())) {
  exit(HeadlessWaveform.run(Array(CommandLine.arguments.dropFirst())))
}

// `--man` (hidden): the man page, docs/stash-tui.1, made from the key table and --help.
if CommandLine.arguments.dropFirst().first == "--man" {
  LaunchOptions.write(1, BrowserManual.page())
  exit(0)
}

// stash-tui [DIR]: the terminal browser. See `LaunchOptions` for the flags.
setlocale(LC_ALL, "")
let options: LaunchOptions
switch LaunchOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let parsed): options = parsed
case .failure(let error):
  LaunchOptions.fail(error.message)
}

if options.help {
  LaunchOptions.printHelp()
  exit(0)
}
if options.listDevices {
  LaunchOptions.write(
    1, DeviceList.text(PCMDeviceHint.all(), current: options.device ?? Player.defaultDevice))
  exit(0)
}
if options.version {
  LaunchOptions.write(1, "stash-tui \(BrowserInfo.version)\n")
  exit(0)
}

// Not UTF-8 (LANG=C): C.UTF-8 instead, said before curses starts (on the terminal once the browser
// has left) and on the browser's first screen, where it is seen while it matters.
let localeWarning = LocaleCheck.ensureUTF8()
if let localeWarning { LaunchOptions.write(2, localeWarning + "\n") }

let folder = options.folder
if let problem = FolderCheck.problem(folder) { LaunchOptions.fail(problem) }

let library: MemoLibrary = FolderLibrary(folder: folder, cached: options.cache, version: BrowserInfo.version)
// The writers follow no symbolic link, so they get the folder itself when the name given is a link
// to it (FolderCheck has just found it, so it resolves); nothing inside it is ever followed.
let importSource = options.importFrom.map { from -> String in
  if let problem = FolderCheck.problem(from) { LaunchOptions.fail("--import-from " + problem) }
  return (try? MemoFolderPath.resolve(from)) ?? from
}
let editor: MemoEditor = FolderEditor(
  folder: (try? MemoFolderPath.resolve(folder)) ?? folder, importSource: importSource)

if let size = options.renderOnce {
  let steps: [KeyScript.Step]
  switch KeyScript.parse(options.keys) {
  case .success(let s): steps = s
  case .failure(let error): LaunchOptions.fail(error.message)
  }
  let screen = RenderOnce.run(
    width: size.width, height: size.height, script: steps, folder: folder, library: library,
    editor: editor, styles: options.showStyles, firstScreen: options.firstScreen)
  LaunchOptions.write(1, screen)
  exit(0)
}

if isatty(0) == 0 || isatty(1) == 0 {
  LaunchOptions.fail("stash-tui needs a terminal on standard input and output")
}
let inbox = EventInbox()
let player = AudioPlayer(device: options.device, onChange: { inbox.wake() })
if options.voiceBoost, let refused = player.setVoiceBoost(true) {
  LaunchOptions.write(2, "stash-tui: \(refused)\n")
}
if options.enhance, let refused = player.setEnhance(true) {
  LaunchOptions.write(2, "stash-tui: \(refused)\n")
}
player.setSkipSilence(options.skipSilence.flatMap { PlayerSnapshot.SilenceSkip(rawValue: $0.rawValue) })
let fillDelay = getenv("STASH_TUI_FILL_DELAY").flatMap { Double(String(cString: $0)) } ?? 0
let runner = EffectRunner(
  library: library, editor: editor, player: player, inbox: inbox, fill: RowFill(delay: fillDelay),
  selections: SelectionStore.fromEnvironment(memoFolder: folder))
// The desktop's media controls (MPRIS), unless --no-mpris; without a session bus, none, silently.
let mpris =
  options.mpris
  ? MPRISServer.start(
    folder: folder, inbox: inbox, position: { player.snapshot().position },
    audioPath: { library.audioPath(of: $0) }) : nil
if let mpris { runner.observe = { mpris.note($0) } }
let status = BrowserLoop(
  folder: folder, runner: runner, inbox: inbox, mouse: options.mouse, mpris: mpris,
  notice: localeWarning.map { String($0.dropFirst("stash-tui: ".count)) }
).run()
if let warning = runner.selectionWarning { LaunchOptions.write(2, "stash-tui: \(warning)\n") }
exit(status)
