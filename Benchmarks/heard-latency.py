#!/usr/bin/env python3
"""The clock and the sound after play and after each seek, on a real sound server with no
low-latency client (issue 32).

usage: heard-latency.py STASH_TUI MEMO SERVER RATE [SEEKS] [PLUGIN_DIR]

SERVER is pulseaudio or pipewire, RATE the null sink's rate (44100 or 48000). The monitor is
recorded by a client that asks for no low latency (parec --latency-msec=2000, pw-record
--latency 2000ms), so the server runs at the latency the player's own stream gets, as on a
desktop with no other program asking for less. Its samples come late and in bursts but without
gaps, so sample n is heard at t0 + n / rate; t0 is the earliest that the arrivals of the chunks
recorded while the player plays allow (the sink mixes ahead of real time, so heard times lead:
20-50 ms at the 100 ms a stream asked for before, about 60 ms at the two seconds a PulseAudio
stream of the player asks for now). The player starts once the recorder's samples come (an idle
null sink hands its monitor nothing for up to two seconds), and Space comes HEARD_LATENCY_SETTLE
seconds (0.5) after the player is up.

Measured: from Space (`play` 0.3 s before a cue's speech onset), and from each of SEEKS seeks
0.7 s apart (each 0.3 s before another onset), when the onset is heard, found by matching the
memo's level (every 5 ms, 0.4 s from the onset) against the recording; less the 0.3 s, that is
the sound's latency (sound_ms). And the player's clock 50, 150 and 300 ms into what is heard
(interpolated between status answers 20 ms apart) against the memo time heard then: the largest
difference (clock_ms; negative when the clock is behind). sound_ms less clock_ms is when the
clock left the place after the command (clock_start_ms), which the monitor's lead does not
touch, nor do the play's clock figure against the seeks' median and the seeks' spread (every
clock figure is shifted by the lead alike). A seek not heard before the next one has no figures.
Prints one JSON object.

HEARD_LATENCY_BESIDE=MS (PulseAudio only) plays silence beside the player from another client
asking for MS ms, started 2.5 s before the player: with 100, the latency the player's own stream
asks for, the sink is kept where the player alone would keep it if it were never without a
stream.
"""
import importlib.util, json, os, subprocess, sys, threading, time

spec = importlib.util.spec_from_file_location("rsp", os.path.join(os.path.dirname(__file__), "real-server-playback.py"))
rsp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rsp)
spec = importlib.util.spec_from_file_location("drift", os.path.join(os.path.dirname(__file__), "clock-drift.py"))
drift = importlib.util.module_from_spec(spec)
spec.loader.exec_module(drift)

RECORD_RATE = 48000
LEAD = 0.3  # seconds of the memo before each onset where playing starts


class Recorder:
    def __init__(self, server):
        if server.kind == "pulseaudio":
            argv = ["parec", "-d", "stash_null.monitor", "--format=s16le", f"--rate={RECORD_RATE}", "--channels=1",
                    "--latency-msec=2000", "--raw"]
        else:
            argv = ["pw-record", "--target", "stash_null", "-P", "{ stream.capture.sink = true }", "--format", "s16",
                    "--rate", str(RECORD_RATE), "--channels", "1", "--latency", "2000ms", "-"]
        self.process = server.spawn(argv, stdout=subprocess.PIPE)
        self.data = bytearray()
        self.stamps = []
        self.lock = threading.Lock()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        while True:
            chunk = self.process.stdout.read1(65536)
            if not chunk:
                return
            now = time.monotonic()
            with self.lock:
                self.data += chunk
                self.stamps.append((now, len(self.data) // 2))

    def wait_for_samples(self, seconds=10):
        """Until the first samples come: a null sink that was idle mixed up to two seconds ahead,
        and its monitor hands nothing over until that has passed, so what is heard meanwhile is
        never recorded."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self.lock:
                if self.data:
                    return
            time.sleep(0.02)
        raise SystemExit("the recorder got no samples in %d s" % seconds)

    def finish(self, start, end):
        """The samples, and the time of the first: the earliest that the arrivals of the chunks
        between `start` and `end` allow. (Only those: while the sink has no client it mixes up to
        two seconds ahead, and its samples arrive that much before they are due.)"""
        time.sleep(2.5)
        self.process.terminate()
        self.process.wait(5)
        with self.lock:
            samples = memoryview(bytes(self.data)).cast("h")
            offsets = [arrival - count / RECORD_RATE for arrival, count in self.stamps if start <= arrival <= end]
            t0 = min(offsets or [arrival - count / RECORD_RATE for arrival, count in self.stamps])
        return samples, t0


def envelope(samples):
    """Peak level per 5 ms, as an array."""
    import numpy
    block = RECORD_RATE // 200
    data = numpy.abs(numpy.asarray(samples, dtype=numpy.float64))
    usable = len(data) // block * block
    return data[:usable].reshape(-1, block).max(axis=1)


def heard_at(recording, memo, t0, target, when, until):
    """When memo time `target` (a speech onset) reached the monitor: the lag at which the memo's
    next 0.4 s (its level every 5 ms) best matches the recording between `when` and `until`;
    None when no lag matches well (that stretch was never heard)."""
    step = 1 / 200
    template = memo[int(target / step):int((target + 0.4) / step)]
    first = max(0, int((when - t0) / step))
    last = min(len(recording) - len(template), int((until - t0) / step))
    best_at, best = drift.best_match(recording, template, first, last)
    return t0 + best_at * step if best_at is not None and best >= 0.5 else None


def clock_at(answers, when):
    before = [a for a in answers if a["sent"] <= when]
    after = [a for a in answers if a["sent"] > when]
    if not before or not after:
        return None
    a, b = before[-1], after[0]
    return a["position"] + (b["position"] - a["position"]) * (when - a["sent"]) / max(1e-6, b["sent"] - a["sent"])


def main():
    tui, memo, kind, rate = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 12
    plugin_dir = sys.argv[6] if len(sys.argv) > 6 else ""
    rsp.RATE = rate
    onsets = rsp.onsets_in_memo(memo, rsp.cue_starts(memo))
    server = rsp.Server(kind, plugin_dir)
    player = None
    try:
        server.start()
        time.sleep(1.0)
        recorder = Recorder(server)
        recorder.wait_for_samples()
        if os.environ.get("HEARD_LATENCY_BESIDE") and kind == "pulseaudio":
            server.spawn(["sh", "-c", "exec pacat --raw --latency-msec=%d < /dev/zero" % int(os.environ["HEARD_LATENCY_BESIDE"])])
            time.sleep(2.5)
        time.sleep(1.0)
        player = rsp.Player(tui, memo, server.env)
        player.send("status")
        # Space comes once the list is up, as a person presses it: on PulseAudio a play within
        # 0.4 s of the player's start waits for the sink's first block (ALSADevice.firstBlock).
        time.sleep(float(os.environ.get("HEARD_LATENCY_SETTLE", "0.5")))
        events, answers = [], []
        for n in range(count + 1):
            onset = onsets[n % len(onsets)]
            command = ("play" if n == 0 else "seek") + f" {onset - LEAD}"
            sent = player.send(command)["sent"]
            events.append((sent, onset))
            end = sent + (3.0 if n == 0 else 0.7)
            while time.monotonic() < end:
                answers.append(player.send("status"))
                time.sleep(0.02)
        failures = player.send("status")["failures"]
        player.quit()
        player = None
        samples, t0 = recorder.finish(events[0][0] + 1.0, events[-1][0] + 0.7)
        dump = os.environ.get("HEARD_LATENCY_DUMP")
        if dump:
            with open(dump + ".raw", "wb") as f:
                f.write(samples.tobytes())
            with open(dump + ".json", "w") as f:
                json.dump({"t0": t0, "stamps": recorder.stamps, "events": events, "answers": answers}, f)
        recording = envelope(samples)
        decoded = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", memo, "-ac", "1", "-ar",
                                  str(RECORD_RATE), "-f", "s16le", "-"], check=True, capture_output=True).stdout
        memo_levels = envelope(memoryview(decoded).cast("h"))
        rows = []
        for index, (sent, onset) in enumerate(events):
            target = onset - LEAD
            # Heard by the next command at the latest (after it, what this one started is cut off).
            until = events[index + 1][0] if index + 1 < len(events) else sent + 0.7
            spoken = heard_at(recording, memo_levels, t0, onset, sent - 0.2, until)
            heard = None if spoken is None else spoken - LEAD
            row = {"event": "play" if index == 0 else "seek", "sent": sent}
            if heard is not None:
                row["sound_ms"] = round((heard - sent) * 1000, 1)
                # The clock while the new place is heard, against the memo time heard then.
                errors = []
                for after in (0.05, 0.15, 0.3):
                    when = max(heard, sent) + after
                    clock = clock_at(answers, when)
                    if clock is not None and when < until:
                        errors.append((clock - (target + when - heard)) * 1000)
                if errors:
                    row["clock_ms"] = round(max(errors, key=abs), 1)
                    # When the clock left the place, after the command: free of the monitor's lead.
                    row["clock_start_ms"] = round(row["sound_ms"] - row["clock_ms"], 1)
            rows.append(row)
        sounds = sorted(r["sound_ms"] for r in rows[1:] if "sound_ms" in r)
        clocks = [r["clock_ms"] for r in rows[1:] if "clock_ms" in r]
        print(json.dumps({
            "server": kind, "rate": rate, "seeks": len(rows) - 1, "seeks_heard": len(sounds), "failures": failures,
            "play_sound_ms": rows[0].get("sound_ms"), "play_clock_ms": rows[0].get("clock_ms"),
            "seek_sound_median_ms": sounds[len(sounds) // 2] if sounds else None,
            "seek_sound_max_ms": sounds[-1] if sounds else None,
            "seek_clock_abs_max_ms": max(abs(c) for c in clocks) if clocks else None,
            # Free of the monitor's lead, which shifts every clock figure alike: how far the
            # seeks' clock figures spread, and the play's from their median.
            "seek_clock_spread_ms": round(max(clocks) - min(clocks), 1) if clocks else None,
            "play_clock_against_seeks_ms": round(rows[0]["clock_ms"] - sorted(clocks)[len(clocks) // 2], 1)
            if clocks and "clock_ms" in rows[0] else None,
            "play_clock_start_ms": rows[0].get("clock_start_ms"),
            "seek_clock_start_max_ms": max((r["clock_start_ms"] for r in rows[1:] if "clock_start_ms" in r), default=None),
            "rows": rows}))
    finally:
        if player:
            player.quit()
        server.stop()


if __name__ == "__main__":
    main()
