#!/usr/bin/env python3
"""Playback on a real sound server, as heard at its null sink's monitor (issue 15).

usage: real-server-playback.py STASH_TUI MEMO SERVER [SEEKS] [PLUGIN_DIR]
       real-server-playback.py --soak MINUTES STASH_TUI FOLDER SERVER [PLUGIN_DIR]

SERVER is pulseaudio or pipewire. Starts the server in a scratch folder with a null sink, ALSA's
default routed to it, records the monitor (parec / pw-record) with each chunk's arrival time, and
drives `stash-tui --play MEMO --control`:

- seek latency as heard: from a silent stretch, seek to just before a cue's speech onset; the
  latency is the monitor time of the onset less the time the seek was carried out, less the
  silence the memo itself has before the onset.
- clock against heard: at each onset heard, the player's clock (interpolated between status
  answers) against the onset's place in the memo.
- CPU while playing: user + system time of the player over ten seconds of playing, first with
  nothing else on the server, then again with the monitor recorded as for the figures above. A
  recorder asking for 5 ms holds PipeWire's whole graph at a 128-frame quantum, and every client
  in the graph, ours included, then wakes 375 times a second; with nothing else there the quantum
  is what the player's own stream asks for, as on a desktop where no program asks for less. The
  second figure comes with aplay's beside the same recorder, playing the same audio already
  decoded on the same device: what the way to the server costs alone.

With --soak (make soak): the real browser in tmux on a copy of FOLDER for MINUTES, random
seeks, pauses, cue jumps and memo changes at human speed; every few seconds the screen is read
for a playing failure ("Cannot play") and the browser's memory (RSS) is sampled.

Prints one JSON object. Everything it starts is stopped on the way out, also on failure.
"""
import json, os, shutil, signal, subprocess, sys, tempfile, threading, time, wave

RATE = 48000


def onsets_in_memo(memo, cues):
    """Speech onsets (seconds) in the memo: the first loud 5 ms after each cue start, from ffmpeg's decode."""
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", memo, "-ac", "1", "-ar", str(RATE), "-f", "s16le", "-"],
                         check=True, capture_output=True).stdout
    samples = memoryview(raw).cast("h")
    found = []
    for start in cues:
        index = int((start - 0.5) * RATE)
        while index + 240 < len(samples):
            if max(abs(s) for s in samples[index:index + 240]) > 1500:
                found.append(index / RATE)
                break
            index += 240
    return found


def cue_starts(memo):
    vtt = memo.replace("_audio.m4a", "_transcription.vtt")
    starts = []
    for line in open(vtt, encoding="utf-8"):
        if "-->" in line:
            h, m, s = line.split()[0].split(":")
            starts.append(int(h) * 3600 + int(m) * 60 + float(s))
    return starts


class Server:
    def __init__(self, kind, plugin_dir):
        self.kind = kind
        self.folder = tempfile.mkdtemp(prefix=f"stash-bench-{kind}-")
        self.processes = []
        for sub in ("run", "config/pipewire/pipewire.conf.d", "home"):
            os.makedirs(os.path.join(self.folder, sub), mode=0o700, exist_ok=True)
        env = dict(os.environ)
        env.update(HOME=self.path("home"), XDG_RUNTIME_DIR=self.path("run"), XDG_CONFIG_HOME=self.path("config"),
                   ALSA_CONFIG_PATH=self.path("asound.conf"))
        env.pop("STASH_ALSA_DEVICE", None)
        env.pop("STASH_ALSA_PACE", None)
        alsa = "</usr/share/alsa/alsa.conf>\n"
        if kind == "pulseaudio":
            env["PULSE_SERVER"] = "unix:" + self.path("native")
            with open(self.path("server.pa"), "w") as f:
                f.write(f"load-module module-null-sink sink_name=stash_null rate={RATE} channels=2\n"
                        f"load-module module-native-protocol-unix auth-anonymous=1 socket={self.path('native')}\n"
                        "set-default-sink stash_null\n")
            alsa += "pcm.!default { type pulse }\n"
        else:
            env["PIPEWIRE_RUNTIME_DIR"] = self.path("run")
            env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + self.path("bus")
            with open(self.path("config/pipewire/pipewire.conf.d/stash-null-sink.conf"), "w") as f:
                f.write("context.objects = [ { factory = adapter args = { factory.name = support.null-audio-sink "
                        f'node.name = "stash_null" media.class = "Audio/Sink" audio.rate = {RATE} '
                        "audio.position = [ FL FR ] object.linger = true } } ]\n")
            plugin = "/usr/lib/x86_64-linux-gnu/alsa-lib/libasound_module_pcm_pipewire.so"
            if not os.path.exists(plugin):
                plugin = os.path.abspath(os.path.join(plugin_dir, "libasound_module_pcm_pipewire.so"))
            alsa += f'pcm_type.pipewire {{ lib "{plugin}" }}\npcm.!default {{ type pipewire }}\n'
        with open(self.path("asound.conf"), "w") as f:
            f.write(alsa)
        self.env = env

    def path(self, name):
        return os.path.join(self.folder, name)

    def spawn(self, argv, **kw):
        log = open(self.path("log"), "ab")
        process = subprocess.Popen(argv, env=self.env, stdin=subprocess.DEVNULL, stdout=kw.get("stdout", log),
                                   stderr=log)
        self.processes.append(process)
        return process

    def wait_for(self, argv, needle):
        deadline = time.time() + 15
        while time.time() < deadline:
            out = subprocess.run(argv, env=self.env, capture_output=True, text=True).stdout
            if needle in out:
                return
            time.sleep(0.05)
        raise SystemExit(f"{self.kind} did not come up ({' '.join(argv)})")

    def start(self):
        if self.kind == "pulseaudio":
            self.spawn(["pulseaudio", "-n", "-F", self.path("server.pa"), "--daemonize=no", "--exit-idle-time=-1",
                        "--disallow-exit", "--use-pid-file=no"])
            self.wait_for(["pactl", "list", "short", "sinks"], "stash_null")
        else:
            self.spawn(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=" + self.env["DBUS_SESSION_BUS_ADDRESS"]])
            self.spawn(["pipewire"])
            self.wait_for(["pw-cli", "info", "0"], "id")
            self.spawn(["wireplumber"])
            self.wait_for(["pw-dump"], "default.audio.sink")

    def record(self):
        if self.kind == "pulseaudio":
            argv = ["parec", "-d", "stash_null.monitor", "--format=s16le", f"--rate={RATE}", "--channels=1",
                    "--latency-msec=5", "--raw"]
        else:
            argv = ["pw-record", "--target", "stash_null", "-P", "{ stream.capture.sink = true }", "--format", "s16",
                    "--rate", str(RATE), "--channels", "1", "--latency", "5ms", "-"]
        return Monitor(self.spawn(argv, stdout=subprocess.PIPE))

    def stop(self):
        for process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


class Monitor:
    """The monitor's samples, each chunk stamped with its arrival (monotonic seconds)."""

    def __init__(self, process):
        self.process = process
        self.samples = bytearray()
        self.stamps = []  # (arrival, samples so far)
        self.lock = threading.Lock()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        while True:
            chunk = self.process.stdout.read1(4096)
            if not chunk:
                return
            now = time.monotonic()
            with self.lock:
                self.samples += chunk
                self.stamps.append((now, len(self.samples) // 2))

    def time_of(self, index):
        """When sample `index` was at the sink: the arrival of its chunk, less the samples after it in the chunk."""
        with self.lock:
            for arrival, count in self.stamps:
                if count > index:
                    return arrival - (count - 1 - index) / RATE
        return None

    def onset_after(self, when, timeout=2.0):
        """Monitor time of the first loud 5 ms after monotonic time `when`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            time.sleep(0.05)
            with self.lock:
                stamps = list(self.stamps)
                samples = memoryview(bytes(self.samples)).cast("h")
            start = next((count for arrival, count in stamps if arrival >= when), None)
            if start is None:
                continue
            # Back to the first sample heard at `when` or later.
            index = max(0, start - 4096)
            while index + 240 < len(samples):
                t = self.time_of(index)
                if t is not None and t >= when and max(abs(s) for s in samples[index:index + 240]) > 1500:
                    return t
                index += 240
        return None


class Player:
    def __init__(self, tui, memo, env):
        self.process = subprocess.Popen([tui, "--play", memo, "--control"], env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def quit(self):
        if self.process.poll() is None:
            try:
                self.send("quit")
            except Exception:
                pass
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_share(pid, seconds):
    """User + system time of process `pid` over the next `seconds`, in % of a core."""
    cpu0, wall0 = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return (cpu_seconds(pid) - cpu0) / (time.monotonic() - wall0) * 100


def playing_cpu(tui, memo, env):
    """The player's CPU over ten seconds of plain playing, start-up excluded, and its failures."""
    player = Player(tui, memo, env)
    try:
        player.send("play 0")
        time.sleep(1)
        cpu = cpu_share(player.process.pid, 10)
        return cpu, player.send("status")["failures"]
    finally:
        player.quit()


def aplay_cpu(memo, env):
    """aplay's CPU over ten seconds of the same audio (float, as the player hands it over) on ALSA's
    default: the least an ALSA program pays to play there."""
    folder = tempfile.mkdtemp(prefix="stash-bench-aplay-")
    wav = os.path.join(folder, "memo.wav")
    try:
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", memo, "-t", "15", "-c:a", "pcm_f32le", wav],
                       check=True)
        process = subprocess.Popen(["aplay", "-q", "-D", "default", wav], env=env, stdin=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        try:
            time.sleep(1)
            return cpu_share(process.pid, 10)
        finally:
            process.kill()
            process.wait()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(fraction * len(ordered) + 0.4999)) - 1))]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def soak(minutes, tui, folder, kind, plugin_dir):
    import random
    server = Server(kind, plugin_dir)
    session = f"stash-soak-{os.getpid()}"
    scratch = tempfile.mkdtemp(prefix="stash-soak-memos-")
    playable = copy_playable_memos(folder, os.path.join(scratch, "memos"))
    if playable < 2:
        sys.stderr.write(f"soak: {folder} has {playable} memos ffprobe can read; it needs two\n")
        return 2
    keys = ["Space", "Right", "Left", "]", "[", ",", ".", "Enter", "Down", "Up", "j", "k", "Tab", "Escape"]
    weights = [10, 12, 8, 4, 4, 6, 6, 6, 3, 3, 3, 3, 2, 2]
    failures, screens, playing, samples = 0, 0, 0, []
    try:
        server.start()
        env = " ".join(f"{k}={shlex_quote(v)}" for k, v in server.env.items()
                       if k in ("ALSA_CONFIG_PATH", "HOME", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "PULSE_SERVER",
                                "PIPEWIRE_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS"))
        subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "36",
                        f"env LC_ALL=C.UTF-8 TERM=xterm-256color {env} {shlex_quote(tui)} {shlex_quote(os.path.join(scratch, 'memos'))}"],
                       check=True)
        time.sleep(1)
        pid = int(subprocess.run(["tmux", "list-panes", "-t", session, "-F", "#{pane_pid}"], capture_output=True,
                                 text=True, check=True).stdout.split()[0])
        children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
        tui_pid = int(children[0]) if children else pid
        subprocess.run(["tmux", "send-keys", "-t", session, "Enter", "Space"], check=True)
        end = time.monotonic() + minutes * 60
        next_look = time.monotonic()
        previous_failed = False
        while time.monotonic() < end:
            key = random.choices(keys, weights)[0]
            subprocess.run(["tmux", "send-keys", "-t", session, key], check=True)
            time.sleep(random.uniform(0.1, 0.8))
            if time.monotonic() >= next_look:
                next_look = time.monotonic() + 2
                screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True,
                                        text=True).stdout
                screens += 1
                playing += " ▶ " in screen
                failed = "Cannot play" in screen
                if failed and not previous_failed:
                    failures += 1
                    sys.stderr.write("soak: failure on screen:\n" + screen + "\n")
                previous_failed = failed
                samples.append(rss_kib(tui_pid))
        third = max(1, len(samples) // 3)
        print(json.dumps({"server": kind, "minutes": minutes, "failures": failures, "screens": screens,
                          "screens_playing": playing,
                          "rss_first_third_kib": max(samples[:third]), "rss_last_third_kib": max(samples[-third:]),
                          "rss_max_kib": max(samples)}))
        return 0 if failures == 0 else 1
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def copy_playable_memos(folder, destination):
    """Copies the memos whose audio ffprobe reads, every file of each, so that a failure on screen is
    the server's or the player's, never a memo damaged on purpose (the demo folder has some)."""
    os.makedirs(destination)
    names = sorted(os.listdir(folder))
    bases = [name[: -len("_audio.m4a")] for name in names if name.endswith("_audio.m4a")]
    playable = 0
    for base in bases:
        probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                os.path.join(folder, base + "_audio.m4a")], capture_output=True, text=True)
        try:
            if probe.returncode != 0 or float(probe.stdout.strip()) <= 1:
                continue
        except ValueError:
            continue
        playable += 1
        for name in names:
            if name.startswith(base + "_") and os.path.isfile(os.path.join(folder, name)):
                shutil.copy2(os.path.join(folder, name), destination)
    return playable


def stop_on_terminate():
    """SIGTERM ends the run through the finally blocks, so the server and tmux are stopped too."""
    def raise_exit(signum, frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, raise_exit)


def shlex_quote(text):
    import shlex
    return shlex.quote(text)


def main():
    stop_on_terminate()
    if sys.argv[1] == "--soak":
        minutes, tui, folder, kind = float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
        sys.exit(soak(minutes, tui, folder, kind, sys.argv[6] if len(sys.argv) > 6 else ""))
    tui, memo, kind = sys.argv[1:4]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 50
    plugin_dir = sys.argv[5] if len(sys.argv) > 5 else ""
    cues = cue_starts(memo)
    onsets = onsets_in_memo(memo, cues)
    server = Server(kind, plugin_dir)
    player = None
    try:
        server.start()
        # WirePlumber sets the default target a moment after the sink shows.
        time.sleep(1.0)
        # CPU with nothing else on the server, before the recorder starts.
        cpu, failures_before = playing_cpu(tui, memo, server.env)
        monitor = server.record()
        time.sleep(0.3)
        aplay_recorded = aplay_cpu(memo, server.env)
        player = Player(tui, memo, server.env)
        # CPU again beside the recorder, then the seeks.
        player.send("play 0")
        time.sleep(1)
        cpu_recorded = cpu_share(player.process.pid, 10)
        latencies, clock_errors, failures = [], [], 0
        for n in range(count):
            onset = onsets[(n % (len(onsets) - 1)) + 1]
            # Silence first: the stretch before the previous cue's speech.
            player.send(f"seek {max(0.0, onsets[0] - 0.45 if n % 2 else onset - 3.0)}")
            time.sleep(0.4)
            target = onset - 0.15
            status = player.send(f"seek {target}")
            sent = status["sent"]
            answers = []
            while time.monotonic() < sent + 0.6:
                answers.append(player.send("status"))
                time.sleep(0.01)
            heard = monitor.onset_after(sent + 0.005)
            if status.get("state") == "failed" or any(a.get("state") == "failed" for a in answers):
                failures += 1
            if heard is None:
                continue
            latencies.append((heard - sent - (onset - target)) * 1000)
            # The clock at the moment the onset was heard, between the answers around it.
            before = [a for a in answers if a["sent"] <= heard]
            after = [a for a in answers if a["sent"] > heard]
            if before and after:
                a, b = before[-1], after[0]
                clock = a["position"] + (b["position"] - a["position"]) * (heard - a["sent"]) / max(1e-6, b["sent"] - a["sent"])
                clock_errors.append((clock - onset) * 1000)
        # The player counts every failure it had, before the seeks too.
        failures = max(failures, player.send("status")["failures"]) + failures_before
        result = {
            "server": kind, "seeks": count, "heard": len(latencies), "failures": failures, "cpu_percent": cpu,
            "cpu_recorded_percent": cpu_recorded, "aplay_recorded_percent": aplay_recorded,
            "latency_median_ms": percentile(latencies, 0.5) if latencies else None,
            "latency_p90_ms": percentile(latencies, 0.9) if latencies else None,
            "clock_median_ms": percentile(clock_errors, 0.5) if clock_errors else None,
            "clock_abs_p90_ms": percentile([abs(e) for e in clock_errors], 0.9) if clock_errors else None,
        }
        print(json.dumps(result))
    finally:
        if player:
            player.quit()
        server.stop()


if __name__ == "__main__":
    main()
