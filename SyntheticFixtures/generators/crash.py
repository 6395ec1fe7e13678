#!/usr/bin/env python3
"""Builds SyntheticFixtures/crash: one memo folder holding every case the recovery sweep handles.

Usage: crash.py OUTPUT_FOLDER WORK_FOLDER

Each capture is what a killed recording (or an interrupted sweep, withdrawal or deletion) leaves:
audio, and a ``<base>.parts/`` folder of transcript and route parts. Parts are a few seconds long
rather than the phone's minute, to keep the folder small; their cue times count from the start of
the recording as the phone's do. MANIFEST.json says, per capture, what it shows, the files before,
the files after a default sweep (``stash recover`` with no options), and the facts of what is
published (cue counts, gaps, segments, points), computed here from what was written, never by
stash's own readers.

Git cannot hold an empty folder, so ``emptyDirectories`` lists the ones a test must make; and a
fixture's modification times are those of the checkout, so ``recentAtTestTime`` names the capture
a test must touch (and every other file must be made old) before sweeping.

All words are invented and spoken by espeak-ng; routes are invented loops in open water.
"""

from __future__ import annotations

import datetime as dt
import os
import sys

import fixturelib as fx

#: An invented place: open ocean in the South Pacific, nowhere anyone lives.
ROUTE_CENTER = (-47.312, -129.105)


def part_vtt(path: str, cues: list[fx.Cue], span: tuple[float, float] | None) -> None:
    """A transcript part: a WebVTT file, optionally opened by ``NOTE stash part <start> <end>``."""
    fx.write_vtt(path, cues)
    if span is not None:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        note = f"NOTE stash part {fx.vtt_time(span[0])} {fx.vtt_time(span[1])}\n\n"
        assert text.startswith("WEBVTT\n\n")
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write("WEBVTT\n\n" + note + text[len("WEBVTT\n\n"):])


def torn_copy(path: str, keep: int) -> None:
    """Cuts ``path`` to its first ``keep`` bytes: a part the phone was rewriting when it was killed."""
    with open(path, "rb") as f:
        data = f.read()
    if keep >= len(data):
        raise ValueError(f"{path}: cut at {keep} is not inside the file ({len(data)} bytes)")
    with open(path, "wb") as f:
        f.write(data[:keep])


class Capture:
    """A recording spoken part by part: part ``k`` is the speech between two boundaries."""

    def __init__(self, base: str, parts: list[list[str]], *, unconfirmed_last: bool = False):
        self.base = base
        self.timeline = fx.Timeline()
        self.parts: list[list[fx.Cue]] = []
        self.spans: list[tuple[float, float]] = []
        for k, sentences in enumerate(parts):
            start = self.timeline.seconds
            cues = fx.sentence_cues(self.timeline, sentences, lead=0.3, gap=0.3)
            if unconfirmed_last and k == len(parts) - 1:
                # The recogniser's last words were never confirmed: the phone marks them.
                for cue in cues:
                    words = cue.text.split(" ")
                    half = len(words) // 2
                    cue.text = " ".join(words[:half]) + " <c.unconfirmed>" + " ".join(words[half:]) + "</c>"
            self.parts.append(cues)
            self.spans.append((start, self.timeline.seconds))
        self.timeline.add_silence(0.5)
        self.start = fx.parse_utc(base[:10] + "T" + base[11:].replace("-", ":") + "Z")

    def route_parts(self, seed: int) -> list[list[fx.TrackPoint]]:
        """An invented walk, a point a second, split at the same boundaries as the speech."""
        points = fx.loop_route(ROUTE_CENTER, self.start, self.timeline.seconds, every=1.0,
                               radius_m=4, seed=seed)
        out = []
        for start, end in self.spans:
            out.append([p for p in points
                        if start <= (p.time - self.start).total_seconds() < end])
        return out


def main(out: str, work: str) -> None:
    os.makedirs(out, exist_ok=True)
    os.makedirs(work, exist_ok=True)
    cases = []
    empty_dirs = []

    def path(*names: str) -> str:
        return os.path.join(out, *names)

    def audio(capture: Capture, damage: str = "none") -> dict:
        return fx.make_audio(path(capture.base + "_audio.m4a"), capture.timeline, work, damage=damage,
                             creation_time=capture.start.strftime("%Y-%m-%dT%H:%M:%SZ"))

    def parts_folder(capture: Capture) -> str:
        folder = path(capture.base + ".parts")
        os.makedirs(folder, exist_ok=True)
        return folder

    def files_of(base: str) -> list[str]:
        """The memo's names, with the parts folder's contents as ``<base>.parts/<name>``."""
        names = fx.memo_files(out, base)
        listed = []
        for name in names:
            listed.append(name)
            if name.endswith(".parts") and os.path.isdir(path(name)):
                listed += [f"{name}/{n}" for n in sorted(os.listdir(path(name)))]
        return listed

    def transcript_facts(cues: list[fx.Cue], gaps: list[tuple[float, float]]) -> dict:
        return {
            "cueCount": len(cues),
            "missingSpeech": [[round(a, 3), round(b, 3)] for a, b in gaps],
            "unconfirmedRuns": sum(c.text.count("<c.unconfirmed>") for c in cues),
        }

    def route_facts(segments: list[list[fx.TrackPoint]]) -> dict:
        return {"segments": len(segments), "points": sum(len(s) for s in segments),
                "pointsPerSegment": [len(s) for s in segments]}

    def case(capture: Capture, shows: str, after: list[str], **facts) -> None:
        entry = {"base": capture.base, "shows": shows, "before": files_of(capture.base),
                 "after": sorted(after)}
        entry.update(facts)
        cases.append(entry)

    sentences = [
        ["The path starts at the gate.", "Left at the old well."],
        ["Past the two oak trees.", "The bench is still broken."],
        ["Back along the stream.", "Home before the rain."],
        ["One more note about the fence."],
    ]

    # 1. A clean set of parts: both kinds assembled, parts and folder removed.
    c = Capture("2026-04-01T09-00-00", sentences[:3])
    a = audio(c)
    folder = parts_folder(c)
    routes = c.route_parts(seed=1)
    for k in range(3):
        part_vtt(os.path.join(folder, f"transcription.{k + 1:04d}.vtt"), c.parts[k], c.spans[k])
        fx.write_gpx(os.path.join(folder, f"track.{k + 1:04d}.gpx"), [routes[k]])
    b = c.base
    case(c, "a clean set of parts: transcript and route assembled, the parts and their folder removed",
         [b + "_audio.m4a", b + "_track.gpx", b + "_transcription.vtt"],
         transcript=transcript_facts(sum(c.parts, []), []), route=route_facts([sum(routes, [])]),
         needsPerson=False, audio=a)

    # 2. A gap: transcript part 2 and route part 3 never landed.
    c = Capture("2026-04-02T09-00-00", sentences)
    audio(c)
    folder = parts_folder(c)
    routes = c.route_parts(seed=2)
    part_vtt(os.path.join(folder, "transcription.0001.vtt"), c.parts[0], c.spans[0])
    # No NOTE in part 3: the gap's end is its first cue's start.
    part_vtt(os.path.join(folder, "transcription.0003.vtt"), c.parts[2], None)
    part_vtt(os.path.join(folder, "transcription.0004.vtt"), c.parts[3], c.spans[3])
    for k in (1, 2, 4):
        fx.write_gpx(os.path.join(folder, f"track.{k:04d}.gpx"), [routes[k - 1]])
    b = c.base
    kept = [b + ".parts", f"{b}.parts/track.0001.gpx", f"{b}.parts/track.0002.gpx",
            f"{b}.parts/track.0004.gpx", f"{b}.parts/transcription.0001.vtt",
            f"{b}.parts/transcription.0003.vtt", f"{b}.parts/transcription.0004.vtt"]
    case(c, "a gap in each chain: the transcript says where speech is missing, the route is split "
         "into segments at the gap, and the parts stay beside the finished files as the sign",
         sorted([b + "_audio.m4a", b + "_track.gpx", b + "_transcription.vtt"] + kept),
         transcript=transcript_facts(c.parts[0] + c.parts[2] + c.parts[3],
                                     [(c.spans[0][1], c.parts[2][0].start)]),
         route=route_facts([routes[0] + routes[1], routes[3]]), needsPerson=True)

    # 3. A torn last route part: its whole points are kept; the route parts stay.
    c = Capture("2026-04-03T09-00-00", sentences[:3])
    audio(c)
    folder = parts_folder(c)
    routes = c.route_parts(seed=3)
    for k in range(3):
        part_vtt(os.path.join(folder, f"transcription.{k + 1:04d}.vtt"), c.parts[k], c.spans[k])
        fx.write_gpx(os.path.join(folder, f"track.{k + 1:04d}.gpx"), [routes[k]])
    last = os.path.join(folder, "track.0003.gpx")
    with open(last, encoding="utf-8") as f:
        text = f.read()
    # Cut inside the third point's <ele>: two whole points survive the tear.
    third = text.index("<trkpt", text.index("<trkpt", text.index("<trkpt") + 1) + 1)
    torn_copy(last, text.index("<ele>", third) + 7)
    b = c.base
    case(c, "a torn last route part (killed while the phone rewrote it): the route holds every "
         "point closed before the tear; the route parts stay because the torn one held more",
         [b + "_audio.m4a", b + "_track.gpx", b + "_transcription.vtt", b + ".parts",
          f"{b}.parts/track.0001.gpx", f"{b}.parts/track.0002.gpx", f"{b}.parts/track.0003.gpx"],
         transcript=transcript_facts(sum(c.parts, []), []),
         route=route_facts([routes[0] + routes[1] + routes[2][:2]]), needsPerson=True)

    # 4. A torn last transcript part whose words were never confirmed.
    c = Capture("2026-04-04T09-00-00", sentences[:2], unconfirmed_last=True)
    audio(c)
    folder = parts_folder(c)
    part_vtt(os.path.join(folder, "transcription.0001.vtt"), c.parts[0], c.spans[0])
    last = os.path.join(folder, "transcription.0002.vtt")
    part_vtt(last, c.parts[1], c.spans[1])
    with open(last, encoding="utf-8") as f:
        text = f.read()
    # Cut in the middle of the last cue's unconfirmed words: the cue survives, torn, still marked.
    run = text.rindex("<c.unconfirmed>") + len("<c.unconfirmed>")
    torn_copy(last, run + 6)
    torn_text = text[:run + 6].rsplit("\n", 1)[1]
    b = c.base
    case(c, "a torn last transcript part with unconfirmed words: every cue is kept, the torn one "
         "with the words it still holds, and the unconfirmed marking carried over; the parts stay",
         [b + "_audio.m4a", b + "_transcription.vtt", b + ".parts",
          f"{b}.parts/transcription.0001.vtt", f"{b}.parts/transcription.0002.vtt"],
         transcript=transcript_facts(c.parts[0] + c.parts[1], []), tornCueText=torn_text,
         needsPerson=True)

    # 5. Parts beside finished files: what an earlier sweep of a broken chain left.
    c = Capture("2026-04-05T09-00-00", sentences[:3])
    audio(c)
    folder = parts_folder(c)
    routes = c.route_parts(seed=5)
    fx.write_vtt(path(c.base + "_transcription.vtt"), c.parts[0] + c.parts[2],
                 missing_speech=[c.spans[1]])
    fx.write_gpx(path(c.base + "_track.gpx"), [routes[0], routes[2]])
    for k in (1, 3):
        part_vtt(os.path.join(folder, f"transcription.{k:04d}.vtt"), c.parts[k - 1], c.spans[k - 1])
        fx.write_gpx(os.path.join(folder, f"track.{k:04d}.gpx"), [routes[k - 1]])
    b = c.base
    case(c, "parts beside finished files (an earlier sweep's broken chain): nothing is assembled "
         "again and nothing is removed", files_of(b), needsPerson=True)

    # 6. A withdrawal marker alone, beside a finished track the deletion had not reached.
    c = Capture("2026-04-06T09-00-00", sentences[:1])
    audio(c)
    folder = parts_folder(c)
    fx.write_vtt(path(c.base + "_transcription.vtt"), c.parts[0])
    fx.write_gpx(path(c.base + "_track.gpx"), c.route_parts(seed=6))
    open(os.path.join(folder, "track.withdrawn"), "wb").close()
    b = c.base
    case(c, "a withdrawal marker alone, and the finished track its deletion had not reached: the "
         "track goes, then the marker, then the empty folder",
         [b + "_audio.m4a", b + "_transcription.vtt"], needsPerson=False)

    # 7. A withdrawal half done: route part 1 already deleted, 2 and 3 not.
    c = Capture("2026-04-07T09-00-00", sentences[:3])
    audio(c)
    folder = parts_folder(c)
    routes = c.route_parts(seed=7)
    for k in range(3):
        part_vtt(os.path.join(folder, f"transcription.{k + 1:04d}.vtt"), c.parts[k], c.spans[k])
    for k in (2, 3):
        fx.write_gpx(os.path.join(folder, f"track.{k:04d}.gpx"), [routes[k - 1]])
    open(os.path.join(folder, "track.withdrawn"), "wb").close()
    b = c.base
    case(c, "a withdrawal cut short with route parts left: the transcript is assembled, the route "
         "parts and the marker removed, no route published",
         [b + "_audio.m4a", b + "_transcription.vtt"],
         transcript=transcript_facts(sum(c.parts, []), []), needsPerson=False)

    # 8. A stranger's file among the parts.
    c = Capture("2026-04-08T09-00-00", sentences[:2])
    audio(c)
    folder = parts_folder(c)
    for k in range(2):
        part_vtt(os.path.join(folder, f"transcription.{k + 1:04d}.vtt"), c.parts[k], c.spans[k])
    with open(os.path.join(folder, "shopping list.txt"), "w", encoding="utf-8") as f:
        f.write("eggs, flour\n")
    b = c.base
    case(c, "a stranger's file in the parts folder: the transcript is assembled and its parts "
         "removed, the folder stays with the stranger's file, untouched",
         [b + "_audio.m4a", b + "_transcription.vtt", b + ".parts", f"{b}.parts/shopping list.txt"],
         transcript=transcript_facts(sum(c.parts, []), []), needsPerson=True)

    # 9. A folder holding only a stranger's file, beside a finished memo.
    c = Capture("2026-04-09T09-00-00", sentences[:1])
    audio(c)
    folder = parts_folder(c)
    fx.write_vtt(path(c.base + "_transcription.vtt"), c.parts[0])
    with open(os.path.join(folder, "transcription.1.vtt"), "w", encoding="utf-8") as f:
        f.write("WEBVTT\n\nNOTE somebody's own file with a name close to a part's\n")
    case(c, "a parts folder holding only a stranger's file (not a part: its number is not four "
         "digits): not a sign of a crash; nothing is touched", files_of(c.base), needsPerson=True)

    # 10. An empty parts folder beside a finished memo (made at test time: see emptyDirectories).
    c = Capture("2026-04-10T09-00-00", sentences[:1])
    audio(c)
    fx.write_vtt(path(c.base + "_transcription.vtt"), c.parts[0])
    empty_dirs.append(c.base + ".parts")
    b = c.base
    case(c, "an empty parts folder that outlived a clean stop: not a sign of a crash; removed",
         [b + "_audio.m4a", b + "_transcription.vtt"], needsPerson=False)
    cases[-1]["before"] = sorted(cases[-1]["before"] + [b + ".parts"])

    # 11 and 12. Audio torn inside its last mdat, and inside its last moof.
    for base, damage, words in (("2026-04-11T09-00-00", "insideMdat", "an mdat"),
                                ("2026-04-12T09-00-00", "insideMoof", "a moof")):
        c = Capture(base, sentences[:2])
        facts = audio(c, damage)
        fx.write_vtt(path(c.base + "_transcription.vtt"), sum(c.parts, []))
        case(c, f"audio cut short inside {words} and no parts: the default sweep leaves it; "
             "--repair-audio rewrites it to end at its last whole sample", files_of(base),
             audio=facts, needsPerson=False)

    # 13. A fresh copy of a killed recording: the test touches its files to now, as cp does.
    c = Capture("2026-04-13T09-00-00", sentences[:2])
    audio(c)
    folder = parts_folder(c)
    routes = c.route_parts(seed=13)
    for k in range(2):
        part_vtt(os.path.join(folder, f"transcription.{k + 1:04d}.vtt"), c.parts[k], c.spans[k])
    fx.write_gpx(os.path.join(folder, "track.0001.gpx"), [routes[0] + routes[1]])
    b = c.base
    case(c, "a fresh copy of a killed recording (its files touched at test time, as a copy "
         "gives them): changed just now, but its date and length show no recording is running "
         "into it, so it is swept", [b + "_audio.m4a", b + "_track.gpx", b + "_transcription.vtt"],
         needsPerson=False,
         transcript=transcript_facts(sum(c.parts, []), []), route=route_facts([routes[0] + routes[1]]))

    for entry in cases:
        for name in entry["before"]:
            if name.endswith(".gpx") and "2026-04-03" not in name:
                fx.validate_gpx(path(name))

    fx.write_manifest(path("MANIFEST.json"), {
        "folder": "crash",
        "description": "every case the recovery sweep handles, one capture each, in one memo folder",
        "emptyDirectories": empty_dirs,
        "recentAtTestTime": ["2026-04-13T09-00-00"],
        "captures": cases,
    })


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
