#!/usr/bin/env python3
"""Builds SyntheticFixtures/demo: about a dozen memos over a year, each showing one thing.

Usage: demo.py OUTPUT_FOLDER WORK_FOLDER

All words are invented and spoken by espeak-ng; routes are invented loops around a point in open
water far from any address. MANIFEST.json records what each memo shows and its expected values.
"""

from __future__ import annotations

import os
import random
import sys

import fixturelib as fx

#: An invented place: open ocean in the South Pacific, nowhere anyone lives.
ROUTE_CENTER = (-47.251, -128.734)


def long_walk_sentences(count: int, seed: int) -> list[str]:
    """Invented musings for the long memo, built from word lists with a fixed seed."""
    rng = random.Random(seed)
    openers = ["Maybe", "I think", "Remember that", "Note to self,", "Okay so", "It seems",
               "Later on", "Honestly"]
    things = ["the blue notebook", "the garden shed", "the second draft", "the bicycle lamp",
              "the tea tin", "the spare key", "the old radio", "the seed packets", "the map",
              "the paint samples", "the ladder", "the recipe card"]
    verbs = ["should go", "could move", "needs to go", "might fit", "would look better"]
    places = ["by the window", "under the stairs", "on the top shelf", "near the door",
              "in the green box", "beside the kettle", "behind the sofa", "in the car"]
    tails = ["before the weekend.", "after the rain stops.", "when there is time.",
             "next month.", "if nobody minds.", "for now.", "this evening.", "first thing tomorrow."]
    return [
        f"{rng.choice(openers)} {rng.choice(things)} {rng.choice(verbs)} "
        f"{rng.choice(places)} {rng.choice(tails)}"
        for _ in range(count)
    ]


def main(out: str, work: str) -> None:
    os.makedirs(out, exist_ok=True)
    os.makedirs(work, exist_ok=True)
    memos = []

    def path(base, suffix):
        return os.path.join(out, base + suffix)

    # 1. The everyday memo: fragmented, transcript and title, no route.
    base = "2025-12-03T18-42-07"
    tl = fx.Timeline()
    cues = fx.sentence_cues(tl, [
        "Winter list, before I forget.",
        "Thick socks, two pairs, the grey ones.",
        "Candles for the hallway, and matches.",
        "Ask about the boiler service in January.",
    ])
    tl.add_silence(0.8)
    audio = fx.make_audio(path(base, "_audio.m4a"), tl, work)
    transcript = fx.write_vtt(path(base, "_transcription.vtt"), cues)
    title = "Winter shopping list"
    fx.write_title(path(base, "_title.txt"), title + "\n")
    memos.append(fx.memo_entry(
        base, "an everyday memo: fragmented audio, a transcript and a title; ISO base with '-' for ':'",
        out, audio=audio, transcript=transcript, title=title,
        recorded_at_local="2025-12-03T18:42:07"))

    # 2. Finished layout, word-level timestamps, no title (the display name is the date).
    base = "2026-01-15T07-12-40"
    tl = fx.Timeline()
    tl.add_silence(0.4)
    cues = []
    for sentence in ["Three things for the morning.", "Water the fern on the landing.",
                     "Then post the parcel to the workshop."]:
        start = tl.seconds
        tl.add_silence(0.1)  # the cue opens just before its first word, so every tag is inside it
        words = []
        for word in sentence.split():
            span = tl.speak(word, trim=True)
            words.append((word, span.start_seconds))
            tl.add_silence(0.12)
        end = tl.seconds
        cues.append(fx.Cue(start, end, fx.word_timed_text(words)))
        tl.add_silence(0.5)
    audio = fx.make_audio(path(base, "_audio.m4a"), tl, work, layout="finished")
    transcript = fx.write_vtt(path(base, "_transcription.vtt"), cues)
    memos.append(fx.memo_entry(
        base, "finished (non-fragmented, +faststart) audio with an edit list; a transcript with a "
        "timestamp tag before every word; no title, so the display name is the date",
        out, audio=audio, transcript=transcript, recorded_at_local="2026-01-15T07:12:40"))

    # 3. '.' separators in the base, a CJK title.
    base = "2026-02-09T21.05.33"
    tl = fx.Timeline()
    cues = fx.sentence_cues(tl, [
        "Names for the new cat.",
        "Biscuit, Pepper, or maybe Admiral.",
        "Admiral is winning so far.",
    ], voice="en-gb")
    audio = fx.make_audio(path(base, "_audio.m4a"), tl, work)
    transcript = fx.write_vtt(path(base, "_transcription.vtt"), cues)
    title = "猫の名前を考える"
    fx.write_title(path(base, "_title.txt"), title)  # no final newline, as the phone writes it
    memos.append(fx.memo_entry(
        base, "a base with '.' in place of ':' and a CJK title", out, audio=audio,
        transcript=transcript, title=title, recorded_at_local="2026-02-09T21:05:33"))

    # 4. YYYYMMDD HHMMSS base, emoji title, killed mid-fragment (torn tail).
    base = "20260314 080512"
    tl = fx.Timeline()
    said = ["Garden plan for spring.", "Tomatoes along the south fence.",
            "Beans where the peas were last year.", "Marigolds between everything.",
            "And a small pond, if the budget allows it."]
    cues = fx.sentence_cues(tl, said, gap=0.4)
    audio = fx.make_audio(path(base, "_audio.m4a"), tl, work, damage="insideMdat")
    # The phone transcribes what it heard; keep only cues the surviving audio still covers.
    cues = [c for c in cues if c.end <= audio["durationSeconds"]]
    transcript = fx.write_vtt(path(base, "_transcription.vtt"), cues)
    title = "🌱 Garden plan 🌻"
    fx.write_title(path(base, "_title.txt"), title + "\n")
    memos.append(fx.memo_entry(
        base, "a 'YYYYMMDD HHMMSS' base and an emoji title; the recording was killed between two "
        "flushes, so the file ends inside its last mdat (cut short, torn tail)", out, audio=audio,
        transcript=transcript, title=title, recorded_at_local="2026-03-14T08:05:12"))

    # 5. Killed inside its last moof, right-to-left title.
    base = "2026-04-22T12-30-05"
    tl = fx.Timeline()
    cues = fx.sentence_cues(tl, [
        "A tune for the chorus.", "Da da dum, da da dum, then up at the end.",
        "Slower in the second verse.", "Try it on the piano tonight.",
    ], voice="en-gb-x-rp")
    audio = fx.make_audio(path(base, "_audio.m4a"), tl, work, damage="insideMoof")
    cues = [c for c in cues if c.end <= audio["durationSeconds"]]
    transcript = fx.write_vtt(path(base, "_transcription.vtt"), cues)
    title = "רעיון לשיר חדש"
    fx.write_title(path(base, "_title.txt"), title)
    memos.append(fx.memo_entry(
        base, "a right-to-left (Hebrew) title; the recording was killed while writing a moof, so "
        "the file ends halfway through its last moof and only the earlier fragments count",
        out, audio=audio, transcript=transcript, title=title,
        recorded_at_local="2026-04-22T12:30:05"))

    # 6. A base with a zone (Z) and a one-segment route.
    base = "2026-06-01T07-30-00Z"
    start = fx.parse_utc("2026-06-01T07:30:00Z")
    tl = fx.Timeline()
    cues = fx.sentence_cues(tl, [
        "Morning loop, starting at the gate.", "The path is muddy after the bridge.",
        "Turning back at the second bench.", "Twenty minutes would be a better target.",
    ], gap=3.0)
    tl.add_silence(2.0)
    audio = fx.make_audio(path(base, "_audio.m4a"), tl, work)
    transcript = fx.write_vtt(path(base, "_transcription.vtt"), cues)
    points = fx.loop_route(ROUTE_CENTER, start, audio["durationSeconds"], every=2.0,
                           radius_m=40, seed=6)
    route = fx.write_gpx(path(base, "_track.gpx"), [points])
    fx.validate_gpx(path(base, "_track.gpx"))
    title = "Morning loop"
    fx.write_title(path(base, "_title.txt"), title + "\n")
    memos.append(fx.memo_entry(
        base, "a base with a UTC zone ('Z'); all four files; a route of one segment",
        out, audio=audio, transcript=transcript, route=route, title=title,
        recorded_at="2026-06-01T07:30:00Z"))

    # 7. The long walk: over 20 minutes, +0200 zone, a route with a gap.
    base = "2026-07-19T16-45-10+0200"
    start = fx.parse_utc("2026-07-19T14:45:10Z")
    tl = fx.Timeline()
    tl.add_silence(1.0)
    cues = []
    lines = long_walk_sentences(62, seed=7)
    for i, text in enumerate(lines):
        tl.advance_to(1.0 + i * 20.0)
        span = tl.speak(text)
        cues.append(fx.Cue(span.start_seconds, span.end_seconds, fx.escape_vtt(text)))
    tl.advance_to(20 * 60 + 45)
    audio = fx.make_audio(path(base, "_audio.m4a"), tl, work, bitrate="12k")
    transcript = fx.write_vtt(path(base, "_transcription.vtt"), cues)
    whole = fx.loop_route(ROUTE_CENTER, start, audio["durationSeconds"], every=10.0,
                          radius_m=350, seed=7)
    gap_from, gap_to = 8 * 60, 11 * 60  # a part of the route that never landed
    first = [p for p in whole if (p.time - start).total_seconds() < gap_from]
    second = [p for p in whole if (p.time - start).total_seconds() >= gap_to]
    route = fx.write_gpx(path(base, "_track.gpx"), [first, second])
    fx.validate_gpx(path(base, "_track.gpx"))
    title = "Long walk, thinking aloud"
    fx.write_title(path(base, "_title.txt"), title + "\n")
    memos.append(fx.memo_entry(
        base, "over 20 minutes at 12 kbit/s with cues across the whole length; a '+0200' zone "
        "in the base; a route in two segments with a three-minute gap", out, audio=audio,
        transcript=transcript, route=route, title=title, recorded_at="2026-07-19T14:45:10Z"))

    # 8. A base that is not a timestamp: the date comes from the audio's creation time.
    base = "kitchen idea"
    tl = fx.Timeline()
    cues = fx.sentence_cues(tl, [
        "What if the spice rack went on the inside of the cupboard door.",
        "Measure the door first.",
    ])
    audio = fx.make_audio(path(base, "_audio.m4a"), tl, work, layout="finished",
                          creation_time="2026-08-30T19:20:00Z")
    audio["creationTime"] = "2026-08-30T19:20:00Z"
    transcript = fx.write_vtt(path(base, "_transcription.vtt"), cues)
    memos.append(fx.memo_entry(
        base, "a base that is not a timestamp; the recording date comes from the audio's "
        "creation_time (mvhd); finished layout; no title", out, audio=audio,
        transcript=transcript, recorded_at="2026-08-30T19:20:00Z", date_source="audio"))

    # 9. Unconfirmed words and a missing-speech notice.
    base = "2026-09-05T10-00-00"
    tl = fx.Timeline()
    tl.add_silence(0.5)
    a = tl.speak("Phone call notes, part one.")
    tl.add_silence(0.5)
    b = tl.speak("The delivery moves to Thursday morning.")
    tl.advance_to(12.0)
    # Speech the app heard but whose transcript part never landed: audio, no cue.
    tl.speak("They also mentioned the invoice number, four four seven.")
    tl.advance_to(20.0)
    tl.add_silence(0.3)
    c = tl.speak("Call back after lunch about the crates.")
    tl.add_silence(0.6)
    d = tl.speak("Bring the blue folder.")
    tl.add_silence(1.0)
    audio = fx.make_audio(path(base, "_audio.m4a"), tl, work)
    cues = [
        fx.Cue(a.start_seconds, a.end_seconds, "Phone call notes, part one."),
        fx.Cue(b.start_seconds, b.end_seconds, "The delivery moves to Thursday morning."),
        fx.Cue(c.start_seconds, c.end_seconds,
               "Call back <c.unconfirmed>after lunch</c> about the crates."),
        fx.Cue(d.start_seconds, d.end_seconds, "<c.unconfirmed>Bring the blue folder.</c>"),
    ]
    transcript = fx.write_vtt(path(base, "_transcription.vtt"), cues,
                              missing_speech=[(12.0, 20.0)])
    memos.append(fx.memo_entry(
        base, "a transcript recovered after a crash: words the speech engine never confirmed "
        "(two <c.unconfirmed> runs) and a missing-speech notice for 12 s to 20 s, where the audio "
        "has speech but no cue", out, audio=audio, transcript=transcript,
        recorded_at_local="2026-09-05T10:00:00"))

    # 10. Damaged: no index at all.
    base = "2026-10-11T14-20-00"
    tl = fx.Timeline()
    fx.sentence_cues(tl, ["Quick thought before the train.", "The answer is the smaller box."])
    audio = fx.make_audio(path(base, "_audio.m4a"), tl, work, damage="noIndex")
    title = "Lost thought"
    fx.write_title(path(base, "_title.txt"), title + "\n")
    memos.append(fx.memo_entry(
        base, "damaged audio: ftyp and media data but no moov or moof, as when the app is killed "
        "before its first flush; nothing can be played; it has a title", out, audio=audio,
        title=title, recorded_at_local="2026-10-11T14:20:00"))

    # 11. Plays, but its length cannot be read.
    base = "2026-11-02T09-15-30"
    tl = fx.Timeline()
    fx.sentence_cues(tl, ["Testing the new microphone.", "One, two, three, four, five."])
    audio = fx.make_audio(path(base, "_audio.m4a"), tl, work, damage="zeroTimescale")
    memos.append(fx.memo_entry(
        base, "audio alone (no transcript, route or title); its mdhd timescale is 0, so its "
        "length cannot be read, yet its samples are intact and it still plays", out,
        audio=audio, recorded_at_local="2026-11-02T09:15:30"))

    memos.sort(key=lambda m: m["base"])
    fx.write_manifest(os.path.join(out, "MANIFEST.json"), {
        "folder": "demo",
        "generator": "SyntheticFixtures/generators/demo.py",
        "memos": memos,
        "others": [],
    })


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
