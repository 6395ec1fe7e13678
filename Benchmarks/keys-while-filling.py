#!/usr/bin/env python3
"""Benchmark: keys answered while the browser is still reading a large folder (issue #20).

The browser shows its first screen from the folder's names and the rows on screen, then reads the rest
in the background (the header says "reading N…" until it is done). This starts the real browser in
tmux (120x40) on FOLDER, waits for the first screen, then presses Down and Up in turn and times each
press, from `tmux send-keys` returning until capture-pane shows the selection moved, for as long as
the header says it is reading (or MAX_KEYS presses). tmux and capture-pane are in every figure, so
each is an upper bound on the browser's own latency.

Prints one JSON line: the first screen in tmux (launch to capture-pane showing it, an upper bound),
the presses made while reading and their median, 90th percentile and worst latency in ms, how long
the reading lasted after the first screen, and whether it was still reading at the last press.

usage: Benchmarks/keys-while-filling.py STASH_TUI FOLDER MEMOS [MAX_KEYS]
"""
import json
import os
import subprocess
import sys
import time
import uuid

from tmux_screen import latency_figures, capture, launch, tmux, wait_for


def selected_row(screen):
    """The screen row of the selection mark: Down from the first row and Up back never scroll, so the
    row alone says whether a press was answered (the rows' text changes as lengths come in, and the
    detail pane beside them as the selected memo is read)."""
    for number, line in enumerate(screen.split("\n")[1:], start=1):
        if line.startswith("›"):
            return number
    return None


def reading(screen):
    return "reading" in screen.split("\n")[0]


def main():
    if len(sys.argv) not in (4, 5):
        raise SystemExit(__doc__)
    tui, folder, memos = sys.argv[1], sys.argv[2], int(sys.argv[3])
    max_keys = int(sys.argv[4]) if len(sys.argv) == 5 else 400
    env = dict(os.environ, LC_ALL="C.UTF-8", TERM="xterm-256color", TZ="UTC")
    socket = f"stash-bench-keys-{uuid.uuid4().hex[:8]}"
    # The selection must be able to move: Down from the first row and Up back.
    if memos < 2:
        raise SystemExit("need at least two memos")
    try:
        start = time.perf_counter()
        launch(socket, f"exec {tui} '{folder}'", env)
        screen = wait_for(socket, lambda s: f"{memos} memos" in s and selected_row(s) is not None, 30, 0.002)
        first_screen = time.perf_counter() - start
        shown = time.perf_counter()
        latencies, still_reading = [], reading(screen)
        done_at = None if still_reading else 0.0
        while still_reading and len(latencies) < max_keys:
            before = selected_row(screen)
            t = time.perf_counter()
            tmux(socket, "send-keys", "Down" if before == 1 else "Up")
            try:
                screen = wait_for(socket, lambda s: selected_row(s) not in (None, before), 5, 0.001)
            except SystemExit as timeout:
                raise SystemExit(f"press {len(latencies) + 1}, {time.perf_counter() - shown:.2f} s after the "
                                 f"first screen, was not answered: {timeout}")
            latencies.append((time.perf_counter() - t) * 1000)
            still_reading = reading(screen)
            if not still_reading:
                done_at = time.perf_counter() - shown
        if done_at is None:
            wait_for(socket, lambda s: not reading(s), 120, 0.01)
            done_at = time.perf_counter() - shown
        result = {
            "first_screen_s": first_screen,
            "keys": len(latencies),
            "reading_after_first_screen_s": done_at,
            "max_keys_reached": len(latencies) >= max_keys,
        }
        result.update(latency_figures(latencies))
        print(json.dumps(result))
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
