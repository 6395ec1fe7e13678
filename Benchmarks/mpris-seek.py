#!/usr/bin/env python3
"""Benchmark: an MPRIS Seek reaches the device within 100 ms (issue #19).

Starts a session bus of its own (dbus-daemon --session), the browser in tmux on a folder of one memo
(silent for 30 s, a tone after) playing on ALSA's file PCM paced to real time (STASH_ALSA_PACE=1),
and runs mpris-seek.c, which times each Player.Seek call from just before it is sent until the first
frame of the new place (the tone) is in the device's file. Then the same measure without the bus
(`stash-tui --play --control`, told to seek on its standard input), so what the MPRIS path adds shows
beside what the PCM itself takes. Prints the client's lines, the last one the summary as JSON.

usage: Benchmarks/mpris-seek.py STASH-TUI TRIALS
"""
import os
import json
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "org.mpris.MediaPlayer2.stash"


def control_seeks(tui, memo, raw, trials):
    """The same measure without the bus: `stash-tui --play --control` on the same memo and PCM,
    told to seek on its standard input. What the MPRIS path adds is the difference."""
    env = dict(os.environ, STASH_ALSA_PACE="1")
    player = subprocess.Popen([tui, "--play", memo, "--control", "--device", "file:FILE=%s,FORMAT=raw" % raw],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

    def command(line):
        player.stdin.write(line + "\n")
        player.stdin.flush()
        return player.stdout.readline()

    latencies = []
    try:
        command("play 0")
        time.sleep(1)
        fd = os.open(raw, os.O_RDONLY)
        for _ in range(trials):
            command("seek 0")
            time.sleep(0.4)
            at = os.path.getsize(raw) & ~3
            t0 = time.monotonic()
            player.stdin.write("seek 30.4\n")
            player.stdin.flush()
            found = None
            while found is None and time.monotonic() - t0 < 2:
                data = os.pread(fd, 65536, at)
                count = len(data) // 4
                if count == 0:
                    time.sleep(0.0002)
                    continue
                for (value,) in struct.iter_unpack("<f", data[:count * 4]):
                    if abs(value) > 0.05:
                        found = time.monotonic() - t0
                        break
                at += count * 4
            player.stdout.readline()
            if found is not None:
                latencies.append(found * 1000)
        os.close(fd)
        command("quit")
    finally:
        player.kill()
        player.wait()
    return latencies


def main():
    tui, trials = sys.argv[1], sys.argv[2]
    scratch = tempfile.mkdtemp(prefix="stash-mpris-bench-")
    folder = os.path.join(scratch, "memos")
    os.mkdir(folder)
    raw = os.path.join(scratch, "device.raw")
    memo = os.path.join(folder, "2026-03-14T09-30-00Z_audio.m4a")
    daemon = None
    socket = "stash-mpris-bench-%d" % os.getpid()
    try:
        subprocess.run(
            ["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
             "aevalsrc='if(gte(t,30),0.5*sin(2*PI*440*t),0)':s=48000:d=60",
             "-c:a", "aac", "-ac", "1", memo],
            check=True)
        client = os.path.join(scratch, "mpris-seek")
        subprocess.run(["cc", "-O2", "-o", client, os.path.join(HERE, "mpris-seek.c"), "-lsystemd", "-lm"],
                       check=True)
        daemon = subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", "--address=unix:dir=" + scratch, "--print-address=1"],
            stdout=subprocess.PIPE, text=True)
        address = daemon.stdout.readline().strip()
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address)
        command = ("env LC_ALL=C.UTF-8 TERM=xterm-256color DBUS_SESSION_BUS_ADDRESS='%s' STASH_ALSA_PACE=1 "
                   "STASH_ALSA_DEVICE='file:FILE=%s,FORMAT=raw' '%s' '%s'; sleep 60") % (address, raw, tui, folder)
        subprocess.run(["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30",
                        command], check=True)

        def busctl(*args):
            return subprocess.run(["busctl", "--user"] + list(args), env=env, capture_output=True, text=True)

        deadline = time.monotonic() + 20
        while NAME not in busctl("list", "--no-legend").stdout and time.monotonic() < deadline:
            time.sleep(0.05)
        player = ["/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player"]
        busctl("call", NAME, *player, "Play")
        while '"Playing"' not in busctl("get-property", NAME, *player, "PlaybackStatus").stdout:
            if time.monotonic() > deadline:
                sys.exit("mpris-seek.py: the browser never played")
            time.sleep(0.05)
        time.sleep(0.5)
        run = subprocess.run([client, NAME, raw, trials], env=env, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("mpris-seek.py: the client failed: " + run.stderr)
        lines = run.stdout.strip().split("\n")
        summary = json.loads(lines[-1])
        control = control_seeks(tui, memo, os.path.join(scratch, "control.raw"), int(trials))
        if control:
            control.sort()
            summary["control_median_ms"] = statistics.median(control)
            summary["control_heard"] = len(control)
        sys.stdout.write("\n".join(lines[:-1]) + "\n" + json.dumps(summary) + "\n")
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
        if daemon:
            daemon.terminate()
            daemon.wait()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
