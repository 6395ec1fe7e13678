#!/usr/bin/env python3
"""The peers stash-bench runs side by side with ours, on the same files (paths on stdin, one a line).

  peers.py lengths          mutagen's length of each audio file
  peers.py webvtt RUNS      webvtt-py reading each transcript, RUNS times
  peers.py gpx RUNS         gpxpy reading each route, RUNS times

Prints one JSON object: "times" (seconds of each run, timed here so interpreter start-up is not
counted) and "values" (per file: a length in seconds, a cue count, a point count; null where the
peer raised, with the first error in "error").
"""
import json
import sys
import time


def lengths(paths):
    from mutagen.mp4 import MP4
    values, error = [], None
    start = time.perf_counter()
    for path in paths:
        try:
            values.append(MP4(path).info.length)
        except Exception as e:  # a peer's failure is a finding, not a crash of the harness
            values.append(None)
            error = error or f"{path}: {e}"
    return [time.perf_counter() - start], values, error


def repeated(runs, paths, read):
    times, values, error = [], [], None
    for run in range(runs):
        values = []
        start = time.perf_counter()
        for path in paths:
            try:
                values.append(read(path))
            except Exception as e:
                values.append(None)
                error = error or f"{path}: {e}"
        times.append(time.perf_counter() - start)
    return times, values, error


def webvtt_cues(path):
    import webvtt
    return len(webvtt.read(path).captions)


def gpx_points(path):
    import gpxpy
    with open(path, encoding="utf-8") as f:
        gpx = gpxpy.parse(f)
    return sum(len(s.points) for t in gpx.tracks for s in t.segments)


def main():
    paths = [line.rstrip("\n") for line in sys.stdin if line.strip()]
    mode = sys.argv[1]
    if mode == "lengths":
        times, values, error = lengths(paths)
    elif mode == "webvtt":
        times, values, error = repeated(int(sys.argv[2]), paths, webvtt_cues)
    elif mode == "gpx":
        times, values, error = repeated(int(sys.argv[2]), paths, gpx_points)
    else:
        sys.exit(f"unknown mode {mode}")
    json.dump({"times": times, "values": values, "error": error}, sys.stdout)


if __name__ == "__main__":
    main()
