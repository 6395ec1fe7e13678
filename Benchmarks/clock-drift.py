#!/usr/bin/env python3
"""The clock against what is played, after ten minutes of memo with skip silence and speed
(issue 35).

usage: clock-drift.py STASH_TUI MEMO SPEED LEVEL ONSETS

ONSETS: the memo's sentence onsets, seconds, comma-separated. The memo plays with
`--skip-silence=LEVEL --speed SPEED` through ALSA's `file` PCM paced to real time
(STASH_ALSA_PACE=1), driven by `--control`: `play 0`, then `status` every 20 ms to the end.
The paced device plays output frame n at t0 + n / 48000, so each sentence onset found in the
file (the memo's level, every 5 ms of output, matched over its first 0.4 s) was heard at
t0 + frame / 48000; each status answer inside that sentence (position 20 to 380 ms past the
onset) says when the clock put the onset: its time less (position - onset) / SPEED. The two
differ by t0 and by how far the clock is off; how much more they differ in the last part of the
memo than in its first two minutes is how far the clock has drifted from what is played (t0
cancels out). Prints one JSON object.
"""
import json, os, subprocess, sys, tempfile, time

RATE = 48000
STEP = 0.005  # seconds of output per envelope step


def envelope(samples, block):
    """Peak level per `block` samples."""
    import numpy
    data = numpy.abs(numpy.asarray(samples, dtype=numpy.float64))
    usable = len(data) // block * block
    return data[:usable].reshape(-1, block).max(axis=1)


def best_match(output, template, first, last):
    """The step of `output` between `first` and `last` where `template` matches best, and how
    well (a correlation from -1 to 1); heard-latency.py matches its recording with it too."""
    import numpy
    if template.std() == 0:
        return None, -1.0
    t = (template - template.mean()) / template.std()
    best, best_at = -1.0, None
    for index in range(max(0, first), min(len(output) - len(template), last)):
        piece = output[index:index + len(template)]
        if piece.std() == 0:
            continue
        score = float(numpy.mean(t * (piece - piece.mean()) / piece.std()))
        if score > best:
            best, best_at = score, index
    return best_at, best


def main():
    import numpy
    tui, memo, speed, level = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    onsets = [float(x) for x in sys.argv[5].split(",")]
    folder = tempfile.mkdtemp(prefix="stash-drift-")
    raw = os.path.join(folder, "out.raw")
    env = dict(os.environ, STASH_ALSA_PACE="1")
    process = subprocess.Popen(
        [tui, "--play", memo, "--control", "--device", f"file:FILE={raw},FORMAT=raw", f"--skip-silence={level}",
         "--speed", str(speed)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(command):
        process.stdin.write(command + "\n")
        process.stdin.flush()
        return json.loads(process.stdout.readline())

    answers = []
    try:
        status = send("play 0")
        deadline = time.monotonic() + 1200
        while status["state"] == "playing" and time.monotonic() < deadline:
            time.sleep(0.02)
            status = send("status")
            if status["state"] == "playing":
                answers.append(status)
        failures, underruns = status.get("failures", 0), status.get("underruns", 0)
        # `quit` is not answered.
        process.stdin.write("quit\n")
        process.stdin.flush()
    except (BrokenPipeError, json.JSONDecodeError, ValueError):
        failures, underruns = -1, -1
    finally:
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
    played = numpy.fromfile(raw, dtype=numpy.float32)
    os.remove(raw)
    os.rmdir(folder)
    decoded = numpy.frombuffer(subprocess.run(
        ["ffmpeg", "-nostdin", "-v", "error", "-i", memo, "-ac", "1", "-ar", str(RATE), "-f", "f32le", "-"],
        check=True, capture_output=True).stdout, dtype=numpy.float32)
    output = envelope(played, int(RATE * STEP))
    # A step of output carries `speed` times as much of the memo.
    memo_levels = envelope(decoded, int(RATE * STEP * speed))
    length = int(0.4 / (STEP * speed))

    def predicted(onset):
        """When the clock put `onset`, from each answer inside its sentence: their median."""
        times = sorted(a["sent"] - (a["position"] - onset) / speed for a in answers
                       if onset + 0.02 < a["position"] < onset + 0.38)
        return times[len(times) // 2] if times else None

    rows = []
    t0 = None
    for onset in onsets:
        when = predicted(onset)
        if when is None:
            continue
        template = memo_levels[int(onset / (STEP * speed)):int(onset / (STEP * speed)) + length]
        if t0 is None:
            # The first onset is looked for over the first 10 s of output: it places t0.
            at, score = best_match(output, template, 0, int(10 / STEP))
            if at is None or score < 0.7:
                continue
            t0 = when - at * STEP
        guess = int((when - t0) / STEP)
        at, score = best_match(output, template, guess - int(0.5 / STEP), guess + int(0.5 / STEP))
        if at is None or score < 0.7:
            continue
        rows.append({"onset": onset, "offset_ms": round((when - t0 - at * STEP) * 1000, 1), "score": round(score, 2)})

    def median(values):
        values = sorted(values)
        return values[len(values) // 2] if values else None

    early = median([r["offset_ms"] for r in rows if 30 < r["onset"] < 120])
    late = median([r["offset_ms"] for r in rows if r["onset"] > 600])
    result = {
        "speed": speed, "level": level, "failures": failures, "underruns": underruns, "answers": len(answers),
        "memo_seconds": round(len(decoded) / RATE, 1), "played_seconds": round(len(played) / RATE, 1),
        "onsets": len(onsets), "matched": len(rows),
        "early_ms": early, "late_ms": late,
        "drift_ms": None if early is None or late is None else round(late - early, 1), "rows": rows}
    if os.environ.get("CLOCK_DRIFT_DUMP"):
        with open(os.environ["CLOCK_DRIFT_DUMP"], "w") as f:
            json.dump({"result": result, "answers": answers}, f)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
