#!/usr/bin/env python3
"""Benchmark: the browser's waveform strip on a long memo (issue #36).

Starts the real browser in tmux (120x40, playing to ALSA's null PCM paced to real time) on a scratch
folder holding MEMO (as the newest memo) and a short one, presses Space to play MEMO and times, from
`tmux send-keys` returning, until capture-pane shows:
  - the strip around the playing position: the strip row's columns within 3 of the head known (no `·`);
  - the whole strip: no `·` left on the strip row.
Then, in a second run, presses Down and Up in turn while the strip still has unknown columns, each
press timed as `keys-while-filling.py` times them. Then, once the strip is whole, the browser's CPU over
CPU_SECONDS of playing (utime + stime from /proc) at 120x40 (strip drawn) and at 120x11 (below the
strip's 12 rows: the plain scrubber), in the same run one after the other.

tmux and capture-pane are in every time, so each is an upper bound on the browser's own.

Prints one JSON line. usage: Benchmarks/waveform-strip.py STASH_TUI MEMO SHORT_MEMO [CPU_SECONDS]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

from tmux_screen import latency_figures, capture, tmux, wait_for

BLOCKS = set("▁▂▃▄▅▆▇█")


def strip_and_head(screen):
    """The strip row (the one over the transport line) and the head's column on the transport line."""
    lines = screen.split("\n")
    rows = [line for line in lines]
    while rows and not rows[-1].strip():
        rows.pop()
    if len(rows) < 2:
        return None, None
    transport, strip = rows[-1], rows[-2]
    head = transport.find("●")
    return (strip if any(c in BLOCKS or c == "·" for c in strip) else None), (head if head >= 0 else None)


def around_known(screen, reach=3):
    strip, head = strip_and_head(screen)
    if strip is None or head is None:
        return False
    # The strip starts where the scrubber does: columns left of it are blank, not unknown.
    window = [c for c in strip[max(0, head - reach):head + reach + 1] if c != " "]
    return len(window) > 0 and all(c in BLOCKS for c in window)


def whole_known(screen):
    strip, _ = strip_and_head(screen)
    return strip is not None and "·" not in strip and any(c in BLOCKS for c in strip)


def selected_row(screen):
    for number, line in enumerate(screen.split("\n")[1:], start=1):
        if line.startswith("›"):
            return number
    return None


def start(tui, folder, state, width, height):
    env = dict(os.environ, LC_ALL="C.UTF-8", TERM="xterm-256color", TZ="UTC", STASH_ALSA_DEVICE="null",
               STASH_ALSA_PACE="1", XDG_STATE_HOME=state)
    socket = f"stash-bench-wave-{uuid.uuid4().hex[:8]}"
    subprocess.run(["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", str(width), "-y",
                    str(height), f"exec {tui} --no-mpris '{folder}'"], check=True, env=env,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(socket, lambda s: "2 memos" in s and "reading" not in s.split("\n")[0], 30, 0.005)
    return socket


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    if len(sys.argv) not in (4, 5):
        raise SystemExit(__doc__)
    tui, memo, short = sys.argv[1], sys.argv[2], sys.argv[3]
    cpu_window = float(sys.argv[4]) if len(sys.argv) == 5 else 10.0
    scratch = tempfile.mkdtemp(prefix="stash-bench-wave-")
    folder = os.path.join(scratch, "memos")
    os.mkdir(folder)
    # The long memo is the newest, so it is selected first and Space plays it.
    for name, source in (("2026-02-01T10-00-00Z_audio.m4a", memo), ("2026-01-01T10-00-00Z_audio.m4a", short)):
        try:
            os.link(source, os.path.join(folder, name))
        except OSError:
            shutil.copyfile(source, os.path.join(folder, name))
    sockets = []
    try:
        # Run 1: the strip around the head, then whole.
        socket = start(tui, folder, os.path.join(scratch, "state1"), 120, 40)
        sockets.append(socket)
        t = time.perf_counter()
        tmux(socket, "send-keys", "Space")
        wait_for(socket, around_known, 30, 0.002)
        around = time.perf_counter() - t
        wait_for(socket, whole_known, 60, 0.005)
        whole = time.perf_counter() - t
        # CPU once whole, with the strip drawn (40 rows) and without (11 rows), one after the other.
        pid = int(tmux(socket, "list-panes", "-F", "#{pane_pid}").strip())
        shares = {}
        for label, height in (("strip", 40), ("plain", 11)):
            tmux(socket, "resize-window", "-x", "120", "-y", str(height))
            time.sleep(1)
            before, wall = cpu_seconds(pid), time.perf_counter()
            time.sleep(cpu_window)
            shares[label] = (cpu_seconds(pid) - before) / (time.perf_counter() - wall) * 100
        tmux(socket, "kill-server", check=False)
        # Run 2: keys while the strip is measured.
        socket = start(tui, folder, os.path.join(scratch, "state2"), 120, 40)
        sockets.append(socket)
        tmux(socket, "send-keys", "Space")
        screen = wait_for(socket, lambda s: strip_and_head(s)[0] is not None, 30, 0.002)
        latencies = []
        while not whole_known(screen) and len(latencies) < 400:
            before = selected_row(screen)
            t = time.perf_counter()
            tmux(socket, "send-keys", "Down" if before == 1 else "Up")
            screen = wait_for(socket, lambda s: selected_row(s) not in (None, before), 5, 0.001)
            latencies.append((time.perf_counter() - t) * 1000)
        result = {
            "around_s": around,
            "whole_s": whole,
            "cpu_strip_percent": shares["strip"],
            "cpu_plain_percent": shares["plain"],
            "cpu_seconds": cpu_window,
            "keys": len(latencies),
        }
        result.update(latency_figures(latencies))
        print(json.dumps(result))
    finally:
        for socket in sockets:
            subprocess.run(["tmux", "-L", socket, "kill-server"], stderr=subprocess.DEVNULL)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
