#!/usr/bin/env python3
"""Builds SyntheticFixtures/lint: one folder holding every way a memo folder's names can go right
or wrong, for the folder reader's classification and the linter's codes.

Usage: lint.py OUTPUT_FOLDER WORK_FOLDER

Audio is a second or two of espeak-ng speech. MANIFEST.json lists the memos (everything with
``<base>_audio.m4a``) and, under ``others``, every other name and what a reader should make of it.
Git cannot hold an empty directory, so the empty parts folder is listed in ``emptyDirectories``:
whoever copies this folder must create it (make-fixtures creates it in the working tree).
"""

from __future__ import annotations

import os
import sys

import fixturelib as fx
import lintcases

ROUTE_CENTER = (-47.251, -128.734)


def main(out: str, work: str) -> None:
    os.makedirs(out, exist_ok=True)
    os.makedirs(work, exist_ok=True)
    memos: list[dict] = []
    others: list[dict] = []

    def path(name: str) -> str:
        return os.path.join(out, name)

    def short_audio(name: str, words: str, **kwargs) -> tuple[dict, list[fx.Cue]]:
        tl = fx.Timeline()
        cues = fx.sentence_cues(tl, [words], lead=0.2, gap=0.2)
        return fx.make_audio(path(name), tl, work, **kwargs), cues

    codes = {"orphan": ["folder-orphan"], "nearMiss": ["folder-near-miss"],
             "unrecognised": ["folder-unrecognised"], "hidden": []}

    def other(name: str, kind: str, shows: str, **more) -> None:
        others.append({"name": name, "kind": kind, "shows": shows, **more, "codes": codes[kind]})

    # --- Memos -------------------------------------------------------------------------------

    base = "2026-05-02T09-00-00"
    audio, _ = short_audio(base + "_audio.m4a", "Audio on its own.")
    memos.append(fx.memo_entry(
        base, "audio alone; beside it a transcript whose base differs only by a trailing space",
        out, audio=audio, recorded_at_local="2026-05-02T09:00:00", extra={"codes": []}))

    for base, when, words in (("Idea A", "2026-05-09T16:00:00Z", "First idea."),
                              ("idea a", "2026-05-09T16:05:00Z", "Second idea.")):
        audio, _ = short_audio(base + "_audio.m4a", words, layout="finished", creation_time=when)
        audio["creationTime"] = when
        memos.append(fx.memo_entry(
            base, "one of two bases that differ only in case: two separate memos (suffixes and "
            "bases are case-sensitive); dated from the audio's creation_time", out, audio=audio,
            recorded_at=when, date_source="audio", extra={"codes": ["folder-name-collision"]}))

    base = "2026-05-04T11-00-00"
    audio, _ = short_audio(base + "_audio.m4a", "Empty title.")
    fx.write_title(path(base + "_title.txt"), b"")
    memos.append(fx.memo_entry(
        base, "an empty title file (0 bytes): the memo is shown by its date", out, audio=audio,
        title="", recorded_at_local="2026-05-04T11:00:00", extra={"codes": ["title-empty"]}))

    base = "2026-05-05T12-00-00"
    audio, _ = short_audio(base + "_audio.m4a", "Two line title.")
    text = "  Shopping\nfor Sunday\r\n\n"
    fx.write_title(path(base + "_title.txt"), text)
    memos.append(fx.memo_entry(
        base, "a title spanning lines (LF and CRLF, surrounding spaces): the title is the trimmed "
        "text; the display name is one line, white-space runs made one space (FORMAT.md §5)",
        out, audio=audio, title=text,
        recorded_at_local="2026-05-05T12:00:00", extra={"codes": ["title-spans-lines"]}))

    base = "2026-05-06T13-00-00"
    audio, _ = short_audio(base + "_audio.m4a", "Latin one title.")
    raw = "Café menu\n".encode("latin-1")  # 0xE9 alone is not UTF-8
    fx.write_title(path(base + "_title.txt"), raw)
    memos.append(fx.memo_entry(
        base, "a title that is not UTF-8 (Latin-1 0xE9): read with U+FFFD for the bad byte, and "
        "a problem reported", out, audio=audio, title=raw.decode("utf-8", "replace"),
        recorded_at_local="2026-05-06T13:00:00",
        extra={"titleIsUTF8": False, "codes": ["title-not-utf8"]}))

    base = "2026-05-07T14-00-00"
    audio, cues = short_audio(base + "_audio.m4a", "Finished memo.")
    transcript = fx.write_vtt(path(base + "_transcription.vtt"), cues)
    os.mkdir(path(base + ".parts"))
    memos.append(fx.memo_entry(
        base, "a finished memo with an empty parts folder left beside it: nothing to recover "
        "(an empty folder that outlived a clean stop means nothing)", out, audio=audio,
        transcript=transcript, recorded_at_local="2026-05-07T14:00:00",
        extra={"parts": {"files": [], "needsRecovery": False}, "codes": ["folder-parts-empty"]}))

    base = "2026-05-08T15-00-00"
    tl = fx.Timeline()
    first = fx.sentence_cues(tl, ["Capture part one."], lead=0.2, gap=0.3)
    second = fx.sentence_cues(tl, ["Part two, then the kill."], lead=0.0, gap=0.3)
    tl.speak("And these words are lost to the kill.")  # the last fragment, which the kill tears
    audio = fx.make_audio(path(base + "_audio.m4a"), tl, work, damage="insideMdat")
    parts = path(base + ".parts")
    os.mkdir(parts)
    fx.write_vtt(os.path.join(parts, "transcription.0001.vtt"), first)
    fx.write_vtt(os.path.join(parts, "transcription.0002.vtt"), second)
    start = fx.parse_utc("2026-05-08T15:00:00Z")
    points = fx.loop_route(ROUTE_CENTER, start, audio["durationSeconds"], every=1.0, radius_m=10,
                            seed=8)
    fx.write_gpx(os.path.join(parts, "track.0001.gpx"), [points])
    fx.validate_gpx(os.path.join(parts, "track.0001.gpx"))
    memos.append(fx.memo_entry(
        base, "a capture needing recovery: audio cut short by a kill and a parts folder with two "
        "transcript parts and one route part, no finished transcript or track beside them",
        out, audio=audio, recorded_at_local="2026-05-08T15:00:00", needs_recovery=True,
        extra={"parts": {"files": sorted(os.listdir(parts)), "needsRecovery": True,
                         "routeTimesAssumeUTC": True},
               "codes": ["mp4-torn-tail", "folder-needs-recovery"]}))

    # --- Everything else ---------------------------------------------------------------------

    name = "2026-04-01T08-00-00_transcription.vtt"
    tl = fx.Timeline()
    fx.write_vtt(path(name), fx.sentence_cues(tl, ["Nobody kept the audio."], lead=0.2))
    other(name, "orphan", "a transcript with no audio beside it", of="transcript",
          base="2026-04-01T08-00-00")

    name = "2026-04-02T08-00-00_track.gpx"
    start = fx.parse_utc("2026-04-02T08:00:00Z")
    fx.write_gpx(path(name), [fx.loop_route(ROUTE_CENTER, start, 20, every=2.0, radius_m=15, seed=2)])
    fx.validate_gpx(path(name))
    other(name, "orphan", "a route with no audio beside it", of="track", base="2026-04-02T08-00-00")

    name = "2026-04-03T08-00-00_title.txt"
    fx.write_title(path(name), "A title without a memo\n")
    other(name, "orphan", "a title with no audio beside it", of="title", base="2026-04-03T08-00-00")

    name = "2026-04-04T08-00-00_Audio.m4a"
    short_audio(name, "Capital A.")
    other(name, "nearMiss", "'_Audio.m4a': the audio suffix with the wrong case", resembles="_audio.m4a",
          base="2026-04-04T08-00-00")

    name = "2026-04-05T08-00-00_transcript.vtt"
    tl = fx.Timeline()
    fx.write_vtt(path(name), fx.sentence_cues(tl, ["Wrong suffix."], lead=0.2))
    other(name, "nearMiss", "'_transcript.vtt' instead of '_transcription.vtt'",
          resembles="_transcription.vtt", base="2026-04-05T08-00-00")

    name = "2026-04-06T08-00-00_audio.M4A"
    short_audio(name, "Upper case extension.")
    other(name, "nearMiss", "'_audio.M4A': the extension in upper case", resembles="_audio.m4a",
          base="2026-04-06T08-00-00")

    name = "2026-04-07T08-00-00_audio.m4a "
    short_audio(name, "Trailing space.")
    other(name, "nearMiss", "a trailing space after the whole name '…_audio.m4a ' (FORMAT.md §1.6: "
          "blanks around the whole name are a near miss)", resembles="_audio.m4a",
          base="2026-04-07T08-00-00")

    name = "2026-05-02T09-00-00 _transcription.vtt"
    tl = fx.Timeline()
    fx.write_vtt(path(name), fx.sentence_cues(tl, ["Almost the same base."], lead=0.2))
    other(name, "nearMiss", "a transcript whose base has a trailing space: it is not part of memo "
          "'2026-05-02T09-00-00' (bases match exactly) and has no audio of its own",
          resembles="_transcription.vtt", base="2026-05-02T09-00-00 ",
          nearBase="2026-05-02T09-00-00")

    name = "notes.pdf"
    fx.write_title(path(name), "Not a PDF: a small text file with a name stash does not know.\n")
    other(name, "unrecognised", "a file whose name matches no memo suffix")

    name = ".DS_Store"
    fx.write_title(path(name), b"\0\0\0\1Bud1 synthetic stand-in\n")
    other(name, "hidden", "a hidden file: ignored")

    name = "._2026-05-02T09-00-00_audio.m4a"
    fx.write_title(path(name), b"\0\5\26\7synthetic AppleDouble stand-in\n")
    other(name, "hidden", "a hidden file named like audio (an AppleDouble sidecar): ignored, "
          "and not a second audio file for its memo")

    # Every other rule, in a folder of its own (its MANIFEST is not a memo MANIFEST).
    name = "cases"

    def encode(target: str, words: str, **kwargs) -> dict:
        tl = fx.Timeline()
        fx.sentence_cues(tl, [words], lead=0.2, gap=0.2)
        return fx.make_audio(target, tl, work, **kwargs)

    cases = lintcases.build(path(name), os.path.join(work, "cases"), encode)
    fx.write_manifest(os.path.join(path(name), "MANIFEST.json"), cases)
    other(name, "unrecognised", "a folder (lint/cases) holding an instance of every other lint rule; "
          "not a name Stash writes")

    memos.sort(key=lambda m: m["base"])
    others.sort(key=lambda o: o["name"])
    fx.write_manifest(os.path.join(out, "MANIFEST.json"), {
        "folder": "lint",
        "generator": "SyntheticFixtures/generators/lint.py",
        "emptyDirectories": ["2026-05-07T14-00-00.parts"],
        "memos": memos,
        "others": others,
    })


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
