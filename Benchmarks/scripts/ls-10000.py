#!/usr/bin/env python3
"""Benchmark: `stash ls --json` over a folder of 10,000 memos (issue #2, "Speed").

Builds the folder deterministically in a temporary directory: every memo has audio, most have a
transcript, a track and a title, and a fifth are fragmented recordings of 5 to 40 minutes. The audio
is a handful of real files made by ffmpeg and hard-linked into place, so the reader does the same work
as on distinct files (the page cache holds one copy, which is the warm-cache case we measure).

Measures wall time (warm cache: one untimed run first) and peak memory (getrusage of the child) over
several runs and prints the median and the worst. Target: at most 0.3 s and 100 MB.

usage: Benchmarks/scripts/ls-10000.py [--stash PATH] [--runs N] [--keep]
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

MEMOS = 10_000
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def ffmpeg(out, seconds, fragmented):
    """AAC-LC mono 48 kHz at a low bitrate; fragmented ones flush a moof every 5 s as the phone does."""
    args = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
            "-i", f"sine=frequency=220:sample_rate=48000:duration={seconds}",
            "-ac", "1", "-ar", "48000", "-c:a", "aac", "-b:a", "16k"]
    if fragmented:
        args += ["-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "5000000"]
    subprocess.run(args + [out], check=True)


def build(folder, sources):
    rng = random.Random(20260314)
    finished = [os.path.join(sources, f"finished-{s}.m4a") for s in (20, 45, 90, 180)]
    fragmented = [os.path.join(sources, f"fragmented-{m}.m4a") for m in (5, 10, 20, 40)]
    for path in finished:
        if not os.path.exists(path):
            ffmpeg(path, int(path.rsplit("-", 1)[1][:-4]), False)
    for path in fragmented:
        if not os.path.exists(path):
            ffmpeg(path, 60 * int(path.rsplit("-", 1)[1][:-4]), True)
    start = 1_735_689_600  # 2025-01-01T00:00:00Z
    for n in range(MEMOS):
        t = time.gmtime(start + n * 2_113 + rng.randrange(600))
        base = time.strftime("%Y-%m-%dT%H-%M-%S", t)
        if n % 3 == 0:
            base += "Z"
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
            parts = os.path.join(folder, base + ".parts")
            os.mkdir(parts)
            with open(os.path.join(parts, "transcription.0001.vtt"), "w") as f:
                f.write("WEBVTT\n")


def listing(stash, folder):
    """One untimed run: it warms the cache and its output is checked."""
    done = subprocess.run([stash, "ls", "--json", folder], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if done.returncode != 0:
        sys.exit(f"stash ls failed ({done.returncode}): {done.stderr.decode()}")
    return done.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stash", help="the stash binary (default: build it in release mode)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the generated folder")
    args = parser.parse_args()
    stash = args.stash
    if not stash:
        subprocess.run(["swift", "build", "-c", "release", "--product", "stash"], cwd=ROOT, check=True)
        bin_path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                                  stdout=subprocess.PIPE, text=True).stdout.strip()
        stash = os.path.join(bin_path, "stash")
    work = tempfile.mkdtemp(prefix="stash-bench-ls-")
    try:
        sources = os.path.join(work, "sources")
        folder = os.path.join(work, "memos")
        os.mkdir(sources)
        os.mkdir(folder)
        t0 = time.perf_counter()
        build(folder, sources)
        print(f"built {MEMOS} memos ({len(os.listdir(folder))} names) in {time.perf_counter() - t0:.1f} s: {folder}")
        out = listing(stash, folder)
        memos = json.loads(out)
        known = sum(1 for m in memos if m["durationSeconds"] is not None)
        print(f"listed {len(memos)} memos, {known} with a known length, {len(out) / 1e6:.1f} MB of JSON")
        walls, peaks = [], []
        for _ in range(args.runs):
            # ru_maxrss of children is the largest child so far; each run is measured in a fresh
            # Python child so the figure is this run's own.
            probe = subprocess.run(
                [sys.executable, "-c",
                 "import resource,subprocess,sys,time;t=time.perf_counter();"
                 "r=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL);w=time.perf_counter()-t;"
                 "print(w, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode)",
                 stash, "ls", "--json", folder], stdout=subprocess.PIPE, text=True, check=True)
            wall, peak, code = probe.stdout.split()
            if code != "0":
                sys.exit("stash ls failed")
            walls.append(float(wall))
            peaks.append(int(peak) / 1024)
        print(f"stash ls --json, {args.runs} warm runs: wall median {statistics.median(walls):.3f} s, "
              f"worst {max(walls):.3f} s; peak memory median {statistics.median(peaks):.1f} MB, "
              f"worst {max(peaks):.1f} MB (target 0.3 s, 100 MB)")
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work)


if __name__ == "__main__":
    main()
