#!/usr/bin/env python3
"""Benchmark: the browser's search of what was said (`S`) on a large folder (issue #34).

Starts the real browser in tmux (120x40) on FOLDER, waits for its first screen, presses S, and types
WORD in one `tmux send-keys -l`. Times, from that send returning: the first hit on screen (a line of
the hit list with the word marked, `[word`), and the search's end (the status line no longer says it
is searching). Then Enter goes to the hit list and, while it searches, Down and Up in turn are
timed until the hit cursor moves (once there are two hits). tmux and capture-pane are in every
figure, so each is an upper bound on the browser's own latency.

Prints one JSON line: first_hit_s, done_s, keys, and the median, 90th percentile and worst key
latency in ms.

usage: Benchmarks/search-first-hits.py STASH_TUI FOLDER MEMOS WORD
"""
import json
import os
import subprocess
import sys
import time
import uuid

from tmux_screen import latency_figures, capture, launch, tmux, wait_for


def searching(screen):
    return "searching what was said" in screen


def hit_rows(screen, word):
    """The screen rows that show a hit: the word marked in brackets, as the list marks it."""
    return [n for n, line in enumerate(screen.split("\n")) if f"[{word}" in line.lower()]


def cursor_row(screen):
    for number, line in enumerate(screen.split("\n")):
        if line.startswith("›"):
            return number
    return None


def main():
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    tui, folder, memos, word = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].lower()
    env = dict(os.environ, LC_ALL="C.UTF-8", TERM="xterm-256color", TZ="UTC")
    socket = f"stash-bench-search-{uuid.uuid4().hex[:8]}"
    try:
        launch(socket, f"exec {tui} '{folder}'", env)
        wait_for(socket, lambda s: f"{memos:,} memos".replace(",", ",") in s or f"{memos} memos" in s, 60, 0.005)
        tmux(socket, "send-keys", "S")
        wait_for(socket, lambda s: "Search what was said:" in s, 10, 0.002)
        sent = time.perf_counter()
        tmux(socket, "send-keys", "-l", word)
        screen = wait_for(socket, lambda s: hit_rows(s, word), 60, 0.001)
        first_hit = time.perf_counter() - sent
        latencies = []
        # Enter leaves the words for the hit list; Down and Up then move its cursor.
        tmux(socket, "send-keys", "Enter")
        screen = wait_for(socket, lambda s: "Search what was said:" not in s, 5, 0.001)
        while searching(screen) and len(latencies) < 200:
            before = cursor_row(screen)
            if before is None or len(hit_rows(screen, word)) < 2:
                screen = capture(socket)
                continue
            t = time.perf_counter()
            tmux(socket, "send-keys", "Down" if before == hit_rows(screen, word)[0] else "Up")
            screen = wait_for(socket, lambda s: cursor_row(s) not in (None, before), 5, 0.001)
            latencies.append((time.perf_counter() - t) * 1000)
        screen = wait_for(socket, lambda s: not searching(s), 300, 0.005)
        done = time.perf_counter() - sent
        result = {"first_hit_s": first_hit, "done_s": done, "keys": len(latencies),
                  "hits_on_screen": len(hit_rows(screen, word))}
        result.update(latency_figures(latencies))
        print(json.dumps(result))
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
