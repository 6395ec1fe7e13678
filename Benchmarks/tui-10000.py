#!/usr/bin/env python3
"""Benchmark: stash-tui on a folder of 10,000 memos (issue #7, "Speed").

Builds a folder like the harness's memo corpus (every memo has audio, most a transcript, track and title, a
fifth fragmented recordings of up to 40 minutes), then measures, with a warm cache:

1. First screen without a terminal: `stash-tui --render-once 100x30 DIR` (read the folder, run the
   update step, draw the grid, print it), wall time and peak memory over several runs.
2. First screen in a real terminal: tmux 100x30, from launching stash-tui until capture-pane shows
   the list; includes tmux's own start and the polling (every 5 ms), so it is an upper bound.
3. Memory of the interactive browser (VmHWM from /proc) after the first screen, after paging
   through the whole list, and after a filter that reads every transcript (typed key by key; the
   search runs in the background, so the time to the name matches and to the full result).
4. Keys while a memo plays (ALSA `file` PCM paced to real time): the time from `tmux send-keys`
   returning until the moved selection is on screen, for N key presses; an upper bound on the
   browser's latency (tmux and capture-pane are in it). The frame is 40 ms (the clock's redraw).

Targets: first screen 0.5 s, memory 150 MB, keys within one frame. `make bench` (stash-bench)
measures the first screen too; this script adds what needs a real terminal.

usage: Benchmarks/tui-10000.py [--tui PATH] [--runs N] [--keys N] [--keep]
"""
import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

from tmux_screen import capture, tmux, wait_for

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MEMOS = 10_000


def ffmpeg(out, seconds, fragmented):
    """AAC-LC mono 48 kHz at a low bitrate; fragmented ones flush a moof every 5 s as the phone does."""
    args = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
            "-i", f"sine=frequency=220:sample_rate=48000:duration={seconds}",
            "-ac", "1", "-ar", "48000", "-c:a", "aac", "-b:a", "16k"]
    if fragmented:
        args += ["-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "5000000"]
    subprocess.run(args + [out], check=True)


def build(folder, sources):
    """10,000 memos: every one with audio (hard links to a few ffmpeg files; a fifth fragmented
    recordings of 5 to 40 minutes), nine in ten a transcript, eight in ten a track and a title,
    one in 250 a parts folder. Deterministic."""
    rng = random.Random(20260314)
    finished = [os.path.join(sources, f"finished-{s}.m4a") for s in (20, 45, 90, 180)]
    fragmented = [os.path.join(sources, f"fragmented-{m}.m4a") for m in (5, 10, 20, 40)]
    for path in finished:
        ffmpeg(path, int(path.rsplit("-", 1)[1][:-4]), False)
    for path in fragmented:
        ffmpeg(path, 60 * int(path.rsplit("-", 1)[1][:-4]), True)
    start = 1_735_689_600  # 2025-01-01T00:00:00Z
    for n in range(MEMOS):
        t = time.gmtime(start + n * 2_113 + rng.randrange(600))
        base = time.strftime("%Y-%m-%dT%H-%M-%S", t) + ("Z" if n % 3 == 0 else "")
        audio = rng.choice(fragmented) if n % 5 == 0 else rng.choice(finished)
        os.link(audio, os.path.join(folder, base + "_audio.m4a"))
        if rng.random() < 0.9:
            with open(os.path.join(folder, base + "_transcription.vtt"), "w") as f:
                f.write(f"WEBVTT\n\n00:00:00.000 --> 00:00:04.000\nmemo number {n}\n")
        if rng.random() < 0.8:
            with open(os.path.join(folder, base + "_track.gpx"), "w") as f:
                f.write('<?xml version="1.0"?><gpx version="1.1" creator="bench"><trk><trkseg/></trk></gpx>\n')
        if rng.random() < 0.8:
            with open(os.path.join(folder, base + "_title.txt"), "w") as f:
                f.write(f"Walk number {n} {'散歩' if n % 7 == 0 else ''}\n")
        if n % 250 == 0:
            os.mkdir(os.path.join(folder, base + ".parts"))
            with open(os.path.join(folder, base + ".parts", "transcription.0001.vtt"), "w") as f:
                f.write("WEBVTT\n")


def selected_row(screen):
    for line in screen.split("\n")[1:]:
        if line.startswith("›"):
            return line
    return None


def vm_hwm(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def browser_pid(socket):
    pane = tmux(socket, "list-panes", "-F", "#{pane_pid}").strip()
    children = subprocess.run(["ps", "-o", "pid=,comm=", "--ppid", pane], stdout=subprocess.PIPE,
                              text=True).stdout.split("\n")
    for line in children:
        if "stash-tui" in line:
            return int(line.split()[0])
    sys.exit("stash-tui is not running in the pane")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tui", help="the stash-tui binary (default: build it in release mode)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keys", type=int, default=40)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    tui = args.tui
    if not tui:
        subprocess.run(["swift", "build", "-c", "release", "--product", "stash-tui"], cwd=ROOT, check=True)
        bin_path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                                  stdout=subprocess.PIPE, text=True).stdout.strip()
        tui = os.path.join(bin_path, "stash-tui")
    work = tempfile.mkdtemp(prefix="stash-bench-tui-")
    env = dict(os.environ, LC_ALL="C.UTF-8", TERM="xterm-256color", TZ="UTC")
    socket = f"stash-bench-{uuid.uuid4().hex[:8]}"
    try:
        sources = os.path.join(work, "sources")
        folder = os.path.join(work, "memos")
        os.mkdir(sources)
        os.mkdir(folder)
        t0 = time.perf_counter()
        build(folder, sources)
        print(f"built {MEMOS} memos in {time.perf_counter() - t0:.1f} s: {folder}")

        # 1. --render-once: warm once, then timed runs in fresh children for their own peak memory.
        first = subprocess.run([tui, "--render-once", "100x30", folder], env=env, stdout=subprocess.PIPE,
                               text=True, check=True).stdout
        if "10000 memos" not in first:
            sys.exit("the first screen does not list 10000 memos:\n" + first)
        walls, peaks = [], []
        for _ in range(args.runs):
            probe = subprocess.run(
                [sys.executable, "-c",
                 "import resource,subprocess,sys,time;t=time.perf_counter();"
                 "r=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL);w=time.perf_counter()-t;"
                 "print(w, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode)",
                 tui, "--render-once", "100x30", folder], stdout=subprocess.PIPE, text=True, check=True, env=env)
            wall, peak, code = probe.stdout.split()
            if code != "0":
                sys.exit("stash-tui --render-once failed")
            walls.append(float(wall))
            peaks.append(int(peak) / 1024)
        print(f"first screen (--render-once 100x30), {args.runs} warm runs: wall median "
              f"{statistics.median(walls):.3f} s, worst {max(walls):.3f} s; peak memory median "
              f"{statistics.median(peaks):.1f} MB, worst {max(peaks):.1f} MB (target 0.5 s, 150 MB)")

        # 2-4. The interactive browser in tmux, playing to a paced file PCM.
        raw = os.path.join(work, "out.raw")
        command = (f"env STASH_ALSA_DEVICE=file:FILE={raw},FORMAT=raw STASH_ALSA_PACE=1 "
                   f"{tui} {folder}; sleep 600")
        start = time.perf_counter()
        subprocess.run(["bash", "-c", f"exec env --default-signal tmux -L {socket} -f /dev/null new-session -d "
                        f"-x 100 -y 30 '{command}' </dev/null >/dev/null 2>&1"], check=True, env=env)
        wait_for(socket, lambda s: "10000 memos" in s and selected_row(s) is not None)
        print(f"first screen in tmux 100x30 (launch to capture-pane showing it, polled every 5 ms): "
              f"{time.perf_counter() - start:.3f} s")
        pid = browser_pid(socket)
        print(f"memory after the first screen: VmHWM {vm_hwm(pid):.1f} MB")
        tmux(socket, "send-keys", "End")
        wait_for(socket, lambda s: (selected_row(s) or "").find("2025-01-01") >= 0)
        tmux(socket, "send-keys", "Home")
        wait_for(socket, lambda s: selected_row(s) is not None and "2025-01-01" not in selected_row(s))
        for _ in range(30):
            tmux(socket, "send-keys", "PageDown")
        time.sleep(0.5)
        print(f"memory after End, Home and 30 pages: VmHWM {vm_hwm(pid):.1f} MB")
        t = time.perf_counter()
        tmux(socket, "send-keys", "-l", "/number 99")
        wait_for(socket, lambda s: "shown" in s.split("\n")[0], timeout=60)
        names = time.perf_counter() - t
        # The transcript search runs in the background (each typed key supersedes the last one);
        # done when its progress ("searching … transcripts…") leaves the status line.
        wait_for(socket, lambda s: "shown" in s.split("\n")[0] and "transcripts…" not in s, timeout=60)
        tmux(socket, "send-keys", "Enter")
        print(f"filter by transcript text over every transcript: names filtered after {names:.3f} s, "
              f"transcripts searched after {time.perf_counter() - t:.3f} s; memory after: VmHWM "
              f"{vm_hwm(pid):.1f} MB")
        tmux(socket, "send-keys", "Escape", "Escape", "Home")
        wait_for(socket, lambda s: "filter" not in s.split("\n")[0])

        # Play the first memo, then move the selection while it plays.
        tmux(socket, "send-keys", "Space")
        wait_for(socket, lambda s: s.rstrip().split("\n")[-1].lstrip().startswith("▶ 0:0"))
        latencies = []
        for i in range(args.keys):
            key = "Down" if i % 2 == 0 else "Up"
            before = selected_row(capture(socket))
            t = time.perf_counter()
            tmux(socket, "send-keys", key)
            wait_for(socket, lambda s: selected_row(s) is not None and selected_row(s) != before, timeout=5,
                     step=0.001)
            latencies.append((time.perf_counter() - t) * 1000)
        latencies.sort()
        playing = capture(socket).rstrip().split("\n")[-1].strip()
        print(f"keys while playing ({args.keys} presses, send-keys to screen, tmux included): median "
              f"{statistics.median(latencies):.1f} ms, 90th {latencies[int(0.9 * len(latencies)) - 1]:.1f} ms, "
              f"worst {latencies[-1]:.1f} ms (frame 40 ms); transport: {playing}")
        print(f"memory at the end: VmHWM {vm_hwm(pid):.1f} MB")
        tmux(socket, "send-keys", "q")
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], stderr=subprocess.DEVNULL)
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work)


if __name__ == "__main__":
    main()
