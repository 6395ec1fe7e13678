#!/usr/bin/env python3
"""Benchmark: a bookmark added from the browser is on disk within 50 ms of the key (issue #48).

Starts the real browser in tmux (120x40) on FOLDER (one memo with a transcript of at least PRESSES
cues), opens the memo, and then, for each cue in turn, presses `b` (the bookmark goes at the cue
under the cursor) and times from `tmux send-keys` returning until the memo's bookmarks file is a
new file (a new inode: stash writes it to a temporary file, fsyncs it and renames it over, so the
file seen is already on disk), then Esc (no note) and `j` to the next cue. tmux is in every figure,
so each is an upper bound on the browser's own time.

Prints one JSON line: the presses and their median, 90th percentile and worst latency in ms.

usage: Benchmarks/bookmark-key.py STASH_TUI FOLDER BASE [PRESSES]
"""
import json
import os
import sys
import time
import uuid

from tmux_screen import latency_figures, launch, tmux, wait_for


def inode(path):
    try:
        return os.stat(path).st_ino
    except FileNotFoundError:
        return None


def main():
    if len(sys.argv) not in (4, 5):
        raise SystemExit(__doc__)
    tui, folder, base = sys.argv[1], sys.argv[2], sys.argv[3]
    presses = int(sys.argv[4]) if len(sys.argv) == 5 else 30
    path = os.path.join(folder, base + "_bookmarks.vtt")
    if os.path.exists(path):
        os.unlink(path)
    env = dict(os.environ, LC_ALL="C.UTF-8", TERM="xterm-256color", TZ="UTC")
    socket = f"stash-bench-bookmark-{uuid.uuid4().hex[:8]}"
    try:
        launch(socket, f"exec {tui} --no-mpris '{folder}'", env)
        wait_for(socket, lambda s: "1 memo" in s and "reading" not in s.split("\n")[0], 30)
        tmux(socket, "send-keys", "Enter")
        wait_for(socket, lambda s: "Bench cue number 0." in s, 10)
        latencies = []
        for _ in range(presses):
            before = inode(path)
            start = time.perf_counter()
            tmux(socket, "send-keys", "b")
            deadline = start + 2
            while inode(path) == before:
                if time.perf_counter() > deadline:
                    raise SystemExit("no bookmarks file 2 s after b")
                time.sleep(0.0002)
            latencies.append((time.perf_counter() - start) * 1000)
            tmux(socket, "send-keys", "Escape")
            tmux(socket, "send-keys", "j")
            time.sleep(0.05)
    finally:
        tmux(socket, "kill-server", check=False)
        if os.path.exists(path):
            os.unlink(path)
    print(json.dumps({"presses": len(latencies), **latency_figures(latencies)}))


if __name__ == "__main__":
    main()
