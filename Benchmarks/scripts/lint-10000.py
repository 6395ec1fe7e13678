#!/usr/bin/env python3
"""Benchmark: `stash lint --format json` over a folder of 10,000 memos (issue #8, "Bad input and scale").

The folder is the one Benchmarks/scripts/ls-10000.py builds (its `build` is reused, so both
benchmarks measure the same folder): every memo has audio (a fifth fragmented recordings of 5 to 40
minutes, whose full index lint reads), most have a transcript, a route and a title, and every 250th a
parts folder. Warm cache: one untimed run first. Prints the median and worst wall time and peak
memory of several runs. Target: at most 3 s.

usage: Benchmarks/scripts/lint-10000.py [--stash PATH] [--runs N] [--keep]
"""
import argparse
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
spec = importlib.util.spec_from_file_location("ls10000", os.path.join(HERE, "ls-10000.py"))
ls10000 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ls10000)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stash", help="the stash binary (default: build it in release mode)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", action="store_true", help="keep the generated folder")
    args = parser.parse_args()
    stash = args.stash
    if not stash:
        subprocess.run(["swift", "build", "-c", "release", "--product", "stash"], cwd=ROOT, check=True)
        bin_path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                                  stdout=subprocess.PIPE, text=True).stdout.strip()
        stash = os.path.join(bin_path, "stash")
    work = tempfile.mkdtemp(prefix="stash-bench-lint-")
    try:
        sources = os.path.join(work, "sources")
        folder = os.path.join(work, "memos")
        os.mkdir(sources)
        os.mkdir(folder)
        t0 = time.perf_counter()
        ls10000.build(folder, sources)
        print(f"built {ls10000.MEMOS} memos ({len(os.listdir(folder))} names) in {time.perf_counter() - t0:.1f} s")
        done = subprocess.run([stash, "lint", "--format", "json", "--exit-zero", folder], stdout=subprocess.PIPE)
        if done.returncode != 0:
            sys.exit(f"stash lint failed ({done.returncode})")
        report = json.loads(done.stdout)
        print(f"linted: {report['summary']}")
        walls, peaks = [], []
        for _ in range(args.runs):
            probe = subprocess.run(
                [sys.executable, "-c",
                 "import resource,subprocess,sys,time;t=time.perf_counter();"
                 "r=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL);w=time.perf_counter()-t;"
                 "print(w, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode)",
                 stash, "lint", "--format", "json", "--exit-zero", folder],
                stdout=subprocess.PIPE, text=True, check=True)
            wall, peak, code = probe.stdout.split()
            if code != "0":
                sys.exit("stash lint failed")
            walls.append(float(wall))
            peaks.append(int(peak) / 1024)
        print(f"stash lint --format json, {args.runs} warm runs: wall median {statistics.median(walls):.3f} s, "
              f"worst {max(walls):.3f} s; peak memory median {statistics.median(peaks):.1f} MB (target 3 s)")
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work)


if __name__ == "__main__":
    main()
