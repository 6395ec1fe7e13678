#!/usr/bin/env python3
"""Builds SyntheticFixtures/twins: one recording in both MP4 layouts the app produces.

Usage: twins.py OUTPUT_FOLDER WORK_FOLDER

The same timeline is encoded fragmented (as the phone writes while recording) and finished
(``+faststart``, with an edit list). Under our priming rule both must give the same length:
the fragmented file by 1024 priming samples and no end trim, the finished one by its edit list.
The timeline is padded to whole frames (see ``fixturelib.PAD_QUANTUM``) so the two agree exactly.
MANIFEST.json pairs them with ``twin``.
"""

from __future__ import annotations

import os
import sys

import fixturelib as fx


def main(out: str, work: str) -> None:
    os.makedirs(out, exist_ok=True)
    os.makedirs(work, exist_ok=True)
    tl = fx.Timeline()
    cues = fx.sentence_cues(tl, [
        "One recording, written twice.",
        "First in fragments, the way the phone writes it.",
        "Then finished, with an index at the front.",
        "Both should last exactly as long.",
    ], gap=1.2)
    tl.add_silence(1.5)
    tl.pad()
    memos = []
    pair = {"fragmented": "twin fragmented", "finished": "twin finished"}
    when = {"fragmented": "2026-05-20T10:00:00Z", "finished": "2026-05-20T10:01:00Z"}
    for layout, base in pair.items():
        # Each encode gets its own copy of the timeline so padding and speech are identical.
        audio = fx.make_audio(os.path.join(out, base + "_audio.m4a"), tl, work, layout=layout,
                              creation_time=when[layout])
        audio["creationTime"] = when[layout]
        transcript = fx.write_vtt(os.path.join(out, base + "_transcription.vtt"), cues)
        other = pair["finished" if layout == "fragmented" else "fragmented"]
        memos.append(fx.memo_entry(
            base, f"the {layout} twin of '{other}': same samples, same length under the priming "
            "rule; the base is no timestamp, so it is dated by the audio's creation_time",
            out, audio=audio, transcript=transcript, recorded_at=when[layout], date_source="audio",
            extra={"twin": other}))
    if memos[0]["audio"]["durationSamples"] != memos[1]["audio"]["durationSamples"]:
        raise RuntimeError("the twins' lengths differ: " + repr([m["audio"] for m in memos]))
    memos.sort(key=lambda m: m["base"])
    fx.write_manifest(os.path.join(out, "MANIFEST.json"), {
        "folder": "twins",
        "generator": "SyntheticFixtures/generators/twins.py",
        "memos": memos,
        "others": [],
    })


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
