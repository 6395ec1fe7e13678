"""Building blocks for stash's synthetic fixtures.

Everything here is deterministic: the same inputs and the same tool versions give the same bytes.
Speech comes from espeak-ng, resampling from sox (repeatable mode, no dither), encoding from
ffmpeg's native AAC encoder in bit-exact mode. Nothing here reads a real person's audio, words or
places.

The pieces, in the order a generator uses them:

* ``speak`` turns a sentence into 48 kHz mono signed 16-bit PCM.
* ``Timeline`` concatenates speech and silence and remembers where each piece landed, in samples,
  so cue times are exact rather than estimated.
* ``encode_aac`` writes AAC-LC in MP4, either fragmented the way the phone writes it (moov first
  with empty tables, mvex/trex, a moof+mdat every couple of seconds, no mehd) or finished
  (``+faststart``, with the edit list ffmpeg writes).
* ``tear``, ``strip_index`` and ``patch_mdhd_timescale`` damage a file the ways a killed or broken
  recorder would.
* ``audio_facts`` computes a memo's MANIFEST audio entry from ffprobe and the boxes, never from
  stash's own readers.
* ``write_vtt`` and ``write_gpx`` write transcripts and routes; ``loop_route`` invents a walk.
* ``write_manifest`` writes MANIFEST.json in a stable byte form.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import random
import struct
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Iterable, Sequence

#: The sample rate of every fixture's audio (the phone records 48 kHz mono AAC-LC).
SAMPLE_RATE = 48000
#: Samples per AAC-LC frame.
FRAME = 1024
#: What ffmpeg's AAC encoder puts in front of the audio, and what our priming rule assumes when a
#: file has no edit list.
PRIMING = 1024
#: Timelines are padded to a multiple of this many samples. A multiple of 1024 makes the last AAC
#: frame whole (so ffmpeg signals no end trim in a fragmented file's last trun, and summing trun
#: durations agrees with the priming rule); a multiple of 3 frames makes the length a whole number
#: of milliseconds, so the finished layout's edit list (movie timescale 1000) is exact too.
PAD_QUANTUM = 3 * FRAME

#: The English voice every generator uses unless it asks for another.
DEFAULT_VOICE = "en-us"

_ENV = dict(os.environ, LC_ALL="C.UTF-8", TZ="UTC")


def run(args: Sequence[str], *, stdin: bytes | None = None) -> bytes:
    """Runs a tool, returning its standard output; raises with the tool's own message on failure."""
    proc = subprocess.run(list(args), input=stdin, capture_output=True, env=_ENV)
    if proc.returncode != 0:
        raise RuntimeError(
            f"{args[0]} failed ({proc.returncode}): {' '.join(args)}\n"
            + proc.stderr.decode("utf-8", "replace")
        )
    return proc.stdout


def try_run(args: Sequence[str]) -> tuple[int, bytes, bytes]:
    """Runs a tool and returns (exit status, stdout, stderr) without raising."""
    proc = subprocess.run(list(args), capture_output=True, env=_ENV)
    return proc.returncode, proc.stdout, proc.stderr


# ---------------------------------------------------------------------------------------------
# Speech and timelines


def speak(
    text: str, voice: str = DEFAULT_VOICE, speed: int = 165, pitch: int = 50, trim: bool = False
) -> bytes:
    """Speaks ``text`` with espeak-ng and returns 48 kHz mono s16le PCM (no WAV header).

    ``trim`` cuts espeak-ng's leading and trailing silence, so a word spoken on its own starts
    and ends where its sound does (for word-level timestamps)."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = os.path.join(tmp, "speech.wav")
        run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", wav, text])
        # -R: repeatable (fixed seeds); -D: no dither, so the bytes depend only on the input.
        effects = ["rate", str(SAMPLE_RATE)]
        if trim:
            effects += ["silence", "1", "0.005", "0.5%", "reverse",
                        "silence", "1", "0.005", "0.5%", "reverse"]
        return run(
            ["sox", "-R", "-D", wav, "-c", "1", "-t", "raw", "-e", "signed", "-b", "16", "-L", "-"]
            + effects
        )


def silence(seconds: float) -> bytes:
    """Returns ``seconds`` of digital silence as s16le PCM (rounded to whole samples)."""
    return b"\0\0" * round(seconds * SAMPLE_RATE)


def tone(seconds: float, hertz: float = 440.0, level: float = 0.2) -> bytes:
    """Returns a plain sine tone as s16le PCM, for fixtures that need sound but no words."""
    n = round(seconds * SAMPLE_RATE)
    amp = int(32767 * level)
    return b"".join(
        struct.pack("<h", int(amp * math.sin(2 * math.pi * hertz * i / SAMPLE_RATE))) for i in range(n)
    )


@dataclass
class Span:
    """Where a piece of audio sits on a timeline, in samples from the start."""

    start: int
    end: int

    @property
    def start_seconds(self) -> float:
        """The start in seconds."""
        return self.start / SAMPLE_RATE

    @property
    def end_seconds(self) -> float:
        """The end in seconds."""
        return self.end / SAMPLE_RATE


class Timeline:
    """A growing PCM buffer that records the exact span of everything appended to it.

    Offsets are whole samples at 48 kHz, so a cue written from a ``Span`` matches the speech to
    the sample (once the decoder's priming is removed, as our priming rule says).
    """

    def __init__(self) -> None:
        self._chunks: list[bytes] = []
        self.samples = 0

    def add(self, pcm: bytes) -> Span:
        """Appends PCM and returns where it landed."""
        start = self.samples
        self._chunks.append(pcm)
        self.samples += len(pcm) // 2
        return Span(start, self.samples)

    def add_silence(self, seconds: float) -> Span:
        """Appends silence and returns where it landed."""
        return self.add(silence(seconds))

    def advance_to(self, seconds: float) -> Span:
        """Pads with silence up to ``seconds`` (an error if the timeline is already past it)."""
        target = round(seconds * SAMPLE_RATE)
        if target < self.samples:
            raise ValueError(f"timeline is at {self.seconds:.3f}s, past {seconds:.3f}s")
        return self.add(b"\0\0" * (target - self.samples))

    def speak(self, text: str, **voice) -> Span:
        """Speaks ``text`` and appends it; returns the span of the spoken clip."""
        return self.add(speak(text, **voice))

    def pad(self, quantum: int = PAD_QUANTUM) -> None:
        """Pads with silence to a multiple of ``quantum`` samples (see ``PAD_QUANTUM``)."""
        extra = (-self.samples) % quantum
        if extra:
            self.add(b"\0\0" * extra)

    @property
    def seconds(self) -> float:
        """The current length in seconds."""
        return self.samples / SAMPLE_RATE

    def pcm(self) -> bytes:
        """The whole timeline as s16le PCM."""
        return b"".join(self._chunks)

    def write_wav(self, path: str) -> None:
        """Writes the timeline as a 16-bit mono WAV file (a canonical 44-byte header)."""
        data = self.pcm()
        header = struct.pack(
            "<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(data), b"WAVE", b"fmt ", 16, 1, 1,
            SAMPLE_RATE, SAMPLE_RATE * 2, 2, 16, b"data", len(data),
        )
        with open(path, "wb") as f:
            f.write(header)
            f.write(data)


# ---------------------------------------------------------------------------------------------
# Encoding


def encode_aac(
    wav: str,
    out: str,
    *,
    layout: str = "fragmented",
    bitrate: str = "32k",
    creation_time: str | None = None,
    fragment_seconds: float = 2.0,
    trailer: bool = False,
) -> None:
    """Encodes a WAV file as AAC-LC mono 48 kHz in MP4.

    ``layout="fragmented"`` writes what the phone writes while recording: moov first with empty
    sample tables, mvex/trex, then a moof+mdat every ``fragment_seconds``; ffmpeg's mfra trailer is
    left off unless ``trailer`` (a killed recorder never writes one), and any mehd is neutralised.
    ``layout="finished"`` writes the non-fragmented ``+faststart`` layout with an edit list.
    ``creation_time`` (ISO 8601 UTC) is stored in mvhd/mdhd; otherwise the fields stay zero.
    """
    args = [
        # -cpuflags 0: FFmpeg's SIMD paths (AVX, FMA3) round differently from one CPU to the
        # next; the plain C paths give the same bytes on every x86-64 machine with this build.
        "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-cpuflags", "0", "-y", "-i", wav,
        # The fast coder is several times quicker than the default two-loop search and just as
        # deterministic; quality does not matter for espeak-ng speech.
        "-c:a", "aac", "-aac_coder", "fast", "-profile:a", "aac_low", "-b:a", bitrate, "-ar", str(SAMPLE_RATE), "-ac", "1",
        "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1",
    ]
    if creation_time is not None:
        args += ["-metadata", f"creation_time={creation_time}"]
    if layout == "fragmented":
        flags = "+empty_moov+default_base_moof+frag_keyframe"
        if not trailer:
            flags += "+skip_trailer"
        args += ["-movflags", flags, "-frag_duration", str(int(fragment_seconds * 1_000_000))]
    elif layout == "finished":
        args += ["-movflags", "+faststart"]
    else:
        raise ValueError(f"unknown layout {layout!r}")
    run(args + ["-f", "mp4", out])
    if layout == "fragmented":
        neutralise_mehd(out)
        if any(b.type == "mehd" for b in boxes(out)):
            raise RuntimeError(f"{out}: mehd survived")


# ---------------------------------------------------------------------------------------------
# MP4 boxes

_CONTAINERS = {"moov", "trak", "mdia", "minf", "stbl", "mvex", "moof", "traf", "edts", "dinf", "udta"}


@dataclass
class Box:
    """One MP4 box: its type, where it starts, its full size, its header size and its parents."""

    type: str
    offset: int
    size: int
    header: int
    path: str

    @property
    def end(self) -> int:
        """The offset just past the box."""
        return self.offset + self.size

    @property
    def payload(self) -> int:
        """The offset of the box's contents."""
        return self.offset + self.header


def boxes(path: str) -> list[Box]:
    """Lists every box of a well-formed (or torn) MP4 file, depth first; stops at a torn box."""
    with open(path, "rb") as f:
        data = f.read()
    out: list[Box] = []

    def walk(start: int, end: int, parent: str) -> None:
        """Appends the boxes between ``start`` and ``end``, descending into containers."""
        at = start
        while at + 8 <= end:
            size, kind = struct.unpack(">I4s", data[at:at + 8])
            header = 8
            if size == 1:
                size = struct.unpack(">Q", data[at + 8:at + 16])[0]
                header = 16
            elif size == 0:
                size = end - at
            name = kind.decode("latin-1")
            out.append(Box(name, at, size, header, f"{parent}/{name}" if parent else name))
            if at + size > end or size < header:
                return
            if name in _CONTAINERS:
                walk(at + header, at + size, out[-1].path)
            at += size

    walk(0, len(data), "")
    return out


def find_box(path: str, box_path: str) -> Box | None:
    """The first box whose slash path (e.g. ``moov/trak/mdia/mdhd``) matches, or None."""
    return next((b for b in boxes(path) if b.path == box_path), None)


def neutralise_mehd(path: str) -> bool:
    """Turns any mehd box into a ``free`` box of the same size, in place; returns whether it did."""
    found = [b for b in boxes(path) if b.type == "mehd"]
    if not found:
        return False
    with open(path, "r+b") as f:
        for b in found:
            f.seek(b.offset + 4)
            f.write(b"free")
    return True


def mdhd_timescale(path: str) -> int | None:
    """The audio track's mdhd timescale, or None without a moov."""
    b = find_box(path, "moov/trak/mdia/mdhd")
    if b is None:
        return None
    with open(path, "rb") as f:
        f.seek(b.payload)
        head = f.read(32)
    version = head[0]
    at = 4 + (16 if version == 1 else 8)
    return struct.unpack(">I", head[at:at + 4])[0]


def patch_mdhd_timescale(path: str, value: int) -> None:
    """Overwrites the audio track's mdhd timescale in place (0 makes the length unreadable)."""
    b = find_box(path, "moov/trak/mdia/mdhd")
    if b is None:
        raise RuntimeError(f"{path}: no mdhd")
    with open(path, "r+b") as f:
        f.seek(b.payload)
        version = f.read(1)[0]
        f.seek(b.payload + 4 + (16 if version == 1 else 8))
        f.write(struct.pack(">I", value))


def edit_list(path: str) -> tuple[int, int, int] | None:
    """(segment duration in movie timescale, media time in media timescale, movie timescale) of the
    first edit, or None when the file has no edit list."""
    elst = find_box(path, "moov/trak/edts/elst")
    mvhd = find_box(path, "moov/mvhd")
    if elst is None or mvhd is None:
        return None
    with open(path, "rb") as f:
        f.seek(mvhd.payload)
        mv = f.read(32)
        f.seek(elst.payload)
        el = f.read(28)
    mv_version = mv[0]
    movie_scale = struct.unpack(">I", mv[4 + (16 if mv_version == 1 else 8):][:4])[0]
    version = el[0]
    if version == 1:
        seg, media = struct.unpack(">Qq", el[8:24])
    else:
        seg, media = struct.unpack(">Ii", el[8:16])
    return seg, media, movie_scale


def tear(src: str, dst: str, length: int) -> None:
    """Copies the first ``length`` bytes of ``src`` to ``dst``: a recorder killed mid-write."""
    with open(src, "rb") as f:
        data = f.read(length)
    with open(dst, "wb") as f:
        f.write(data)


def strip_index(src: str, dst: str) -> None:
    """Writes ``src``'s ftyp and its media data as one mdat, with no moov or moof: audio the app
    was killed with before its first flush, so nothing indexes it."""
    media = b""
    ftyp = b""
    with open(src, "rb") as f:
        data = f.read()
    for b in boxes(src):
        if b.path == "ftyp":
            ftyp = data[b.offset:b.end]
        elif b.path == "mdat":
            media += data[b.payload:b.end]
    with open(dst, "wb") as f:
        f.write(ftyp)
        f.write(struct.pack(">I4s", 8 + len(media), b"mdat"))
        f.write(media)


def fragments(path: str) -> list[tuple[Box, Box | None]]:
    """The (moof, following mdat) pairs of a fragmented file, in file order."""
    top = [b for b in boxes(path) if "/" not in b.path]
    out = []
    for i, b in enumerate(top):
        if b.type == "moof":
            nxt = top[i + 1] if i + 1 < len(top) and top[i + 1].type == "mdat" else None
            out.append((b, nxt))
    return out


# ---------------------------------------------------------------------------------------------
# Facts for the MANIFEST, from ffprobe and the boxes


@dataclass
class Packet:
    """One AAC packet as ffprobe reports it: byte position, size and duration in media units."""

    pos: int
    size: int
    duration: int


def probe_packets(path: str) -> list[Packet]:
    """Every audio packet ffprobe finds in ``path`` (which should be the intact encode)."""
    out = run(
        ["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries",
         "packet=pos,size,duration", "-of", "json", path]
    )
    return [
        Packet(int(p["pos"]), int(p["size"]), int(p.get("duration", FRAME)))
        for p in json.loads(out)["packets"]
    ]


def probe_reads(path: str) -> tuple[bool, float | None]:
    """Whether ffprobe opens ``path`` without error and finds an audio stream, and the duration
    it reports for the stream (None when it reports none)."""
    status, out, err = try_run(
        ["ffprobe", "-v", "error", "-show_entries", "stream=codec_type,duration", "-of", "json", path]
    )
    if status != 0 or err.strip():
        return False, None
    streams = [s for s in json.loads(out).get("streams", []) if s.get("codec_type") == "audio"]
    if not streams:
        return False, None
    duration = streams[0].get("duration")
    return True, (float(duration) if duration not in (None, "N/A") else None)


def audio_facts(
    path: str,
    intact: str,
    *,
    layout: str,
    state: str,
    damaged_because: str | None = None,
) -> dict:
    """The MANIFEST ``audio`` entry of ``path``, which is ``intact`` or a damaged copy of it.

    Whole samples are the intact encode's ffprobe packets whose bytes lie wholly inside ``path``
    (for a cut inside a moof that is the earlier fragments' packets, since the cut moof's own
    media data comes after it). Length follows our priming rule: an edit list wins; without one,
    1024 priming samples and no end trim.
    """
    size = os.path.getsize(path)
    facts: dict = {
        "layout": layout,
        "state": state,
        "codec": "mp4a.40.2",
        "sampleRate": SAMPLE_RATE,
        "channels": 1,
        "fileBytes": size,
    }
    reads, probed = probe_reads(path)
    if state == "damaged":
        facts.update(
            timescale=None, fragmentCount=0, sampleCount=0, primingSamples=None, durationSamples=None,
            durationSeconds=None, tailBytes=None, ffprobeReads=reads,
            ffprobeDurationSeconds=probed, damagedBecause=damaged_because,
        )
        return facts
    packets = probe_packets(intact)
    whole = [p for p in packets if p.pos + p.size <= size]
    if layout == "fragmented":
        # A cut inside a moof loses that whole fragment even if some of its mdat were present,
        # which it cannot be: the moof comes first. Keep only packets before the last whole moof's end.
        frags = fragments(intact)
        torn_moofs = [m for m, _ in frags if m.offset < size < m.end]
        if torn_moofs:
            whole = [p for p in whole if p.pos < torn_moofs[0].offset]
    timescale = mdhd_timescale(path)
    facts["fragmentCount"] = sum(1 for m, _ in fragments(path) if m.end <= size)
    last_end = max((p.pos + p.size for p in whole), default=None)
    facts["timescale"] = timescale
    facts["sampleCount"] = len(whole)
    elst = edit_list(path)
    if elst is not None:
        seg, media_time, movie_scale = elst
        facts["primingSamples"] = media_time
        duration_samples = seg * SAMPLE_RATE // movie_scale if movie_scale else None
        duration_seconds = seg / movie_scale if movie_scale else None
    else:
        facts["primingSamples"] = PRIMING
        duration_samples = max(len(whole) * FRAME - PRIMING, 0)
        duration_seconds = duration_samples / SAMPLE_RATE
    if state == "lengthUnreadable" or timescale == 0:
        duration_samples = None
        duration_seconds = None
    facts["durationSamples"] = duration_samples
    facts["durationSeconds"] = duration_seconds
    facts["tailBytes"] = size - last_end if last_end is not None else None
    facts["ffprobeReads"] = reads
    facts["ffprobeDurationSeconds"] = probed
    facts["damagedBecause"] = damaged_because
    return facts


# ---------------------------------------------------------------------------------------------
# WebVTT


def vtt_time(seconds: float) -> str:
    """A WebVTT timestamp, ``HH:MM:SS.mmm`` (rounded to the millisecond)."""
    ms = round(seconds * 1000)
    h, ms = divmod(ms, 3_600_000)
    m, ms = divmod(ms, 60_000)
    s, ms = divmod(ms, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


@dataclass
class Cue:
    """A transcript cue: start and end in seconds and its payload (already WebVTT markup)."""

    start: float
    end: float
    text: str
    identifier: str | None = None


def word_timed_text(words: Iterable[tuple[str, float]]) -> str:
    """Cue text with a ``<HH:MM:SS.mmm>`` timestamp tag before each (word, start seconds)."""
    return " ".join(f"<{vtt_time(t)}>{escape_vtt(w)}" for w, t in words)


def escape_vtt(text: str) -> str:
    """Escapes the characters WebVTT cue text reserves."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_vtt(path: str, cues: Sequence[Cue], *, missing_speech: Sequence[tuple[float, float]] = ()) -> dict:
    """Writes a WebVTT file and returns the MANIFEST ``transcript`` entry describing it.

    Each missing-speech gap becomes one ``NOTE stash missing-speech <start> <end>`` block before
    the first cue (the phone's way of saying a transcript part never landed).
    """
    lines = ["WEBVTT", ""]
    for start, end in missing_speech:
        lines += [f"NOTE stash missing-speech {vtt_time(start)} {vtt_time(end)}", ""]
    for cue in cues:
        if cue.end <= cue.start:
            raise ValueError(f"cue ends before it starts: {cue}")
        if cue.identifier:
            lines.append(cue.identifier)
        lines.append(f"{vtt_time(cue.start)} --> {vtt_time(cue.end)}")
        lines.append(cue.text)
        lines.append("")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines))
    return {
        "cueCount": len(cues),
        "wordTimed": any("<0" in c.text for c in cues),
        "unconfirmedRuns": sum(c.text.count("<c.unconfirmed>") for c in cues),
        "missingSpeech": [[round(a, 3), round(b, 3)] for a, b in missing_speech],
        "firstCueStart": round(cues[0].start, 3) if cues else None,
        "lastCueEnd": round(cues[-1].end, 3) if cues else None,
    }


# ---------------------------------------------------------------------------------------------
# GPX

GPX_NS = "http://www.topografix.com/GPX/1/1"
GPXTPX_NS = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
STASH_NS = "urn:stash:gpx:1"


@dataclass
class TrackPoint:
    """A route point: position, altitude, UTC time, speed (m/s), course (degrees), accuracy (m)."""

    lat: float
    lon: float
    ele: float
    time: _dt.datetime
    speed: float
    course: float
    accuracy: float


def iso_utc(t: _dt.datetime) -> str:
    """``2026-06-01T07:30:00Z`` (whole seconds) or with milliseconds when it has them."""
    t = t.astimezone(_dt.timezone.utc)
    if t.microsecond:
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def loop_route(
    center: tuple[float, float],
    start: _dt.datetime,
    seconds: float,
    *,
    every: float = 10.0,
    radius_m: float = 300.0,
    seed: int = 1,
    base_ele: float = 12.0,
) -> list[TrackPoint]:
    """An invented walk: one loop around ``center`` over ``seconds``, a point every ``every``
    seconds, with a little seeded jitter so it looks measured rather than drawn."""
    rng = random.Random(seed)
    n = int(seconds // every) + 1
    points: list[TrackPoint] = []
    m_per_deg_lat = 111_320.0
    m_per_deg_lon = 111_320.0 * math.cos(math.radians(center[0]))
    prev = None
    for i in range(n):
        a = 2 * math.pi * i / max(n - 1, 1)
        r = radius_m * (1 + 0.15 * math.sin(3 * a)) + rng.uniform(-4, 4)
        north = r * math.cos(a) - radius_m
        east = r * math.sin(a)
        lat = center[0] + north / m_per_deg_lat
        lon = center[1] + east / m_per_deg_lon
        t = start + _dt.timedelta(seconds=i * every)
        if prev is None:
            speed, course = 0.0, 0.0
        else:
            dn = (lat - prev[0]) * m_per_deg_lat
            de = (lon - prev[1]) * m_per_deg_lon
            speed = math.hypot(dn, de) / every
            course = math.degrees(math.atan2(de, dn)) % 360
        ele = base_ele + 6 * math.sin(a) + rng.uniform(-0.5, 0.5)
        points.append(
            TrackPoint(round(lat, 7), round(lon, 7), round(ele, 1), t, round(speed, 2),
                       round(course, 1), round(rng.uniform(3, 12), 1))
        )
        prev = (lat, lon)
    return points


def write_gpx(path: str, segments: Sequence[Sequence[TrackPoint]], *, name: str | None = None) -> dict:
    """Writes a GPX 1.1 track (one trk, one trkseg per list) and returns its MANIFEST ``route``
    entry. Every point has ele and time, Garmin TrackPointExtension v2 speed and course, and the
    fix's horizontal accuracy as ``stash:horizontalAccuracy``."""
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<gpx version="1.1" creator="stash synthetic fixtures" xmlns="{GPX_NS}"',
        f'     xmlns:gpxtpx="{GPXTPX_NS}" xmlns:stash="{STASH_NS}"',
        '     xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
        f'     xsi:schemaLocation="{GPX_NS} http://www.topografix.com/GPX/1/1/gpx.xsd">',
        "  <trk>",
    ]
    if name:
        out.append(f"    <name>{name}</name>")
    for seg in segments:
        out.append("    <trkseg>")
        for p in seg:
            out += [
                f'      <trkpt lat="{p.lat:.7f}" lon="{p.lon:.7f}">',
                f"        <ele>{p.ele:.1f}</ele>",
                f"        <time>{iso_utc(p.time)}</time>",
                "        <extensions>",
                "          <gpxtpx:TrackPointExtension>",
                f"            <gpxtpx:speed>{p.speed:.2f}</gpxtpx:speed>",
                f"            <gpxtpx:course>{p.course:.1f}</gpxtpx:course>",
                "          </gpxtpx:TrackPointExtension>",
                f"          <stash:horizontalAccuracy>{p.accuracy:.1f}</stash:horizontalAccuracy>",
                "        </extensions>",
                "      </trkpt>",
            ]
        out.append("    </trkseg>")
    out += ["  </trk>", "</gpx>", ""]
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out))
    flat = [p for s in segments for p in s]
    return {
        "tracks": 1,
        "segments": len(segments),
        "points": len(flat),
        "pointsPerSegment": [len(s) for s in segments],
        "firstTime": iso_utc(flat[0].time) if flat else None,
        "lastTime": iso_utc(flat[-1].time) if flat else None,
    }


SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Schemas")


def validate_gpx(path: str, schema_dir: str = SCHEMA_DIR) -> None:
    """Checks a GPX file is well-formed and valid against the GPX 1.1 schema vendored under
    Tests/Schemas."""
    run(["xmllint", "--noout", path])
    run(["xmllint", "--noout", "--schema", os.path.join(schema_dir, "gpx.xsd"), path])


# ---------------------------------------------------------------------------------------------
# Titles and the MANIFEST


def write_title(path: str, text: str | bytes) -> None:
    """Writes a title file exactly as given (bytes are written raw, for non-UTF-8 cases)."""
    with open(path, "wb") as f:
        f.write(text if isinstance(text, bytes) else text.encode("utf-8"))


def sentence_cues(
    tl: Timeline, sentences: Sequence[str], *, gap: float = 0.6, lead: float = 0.5,
    voice: str = DEFAULT_VOICE,
) -> list[Cue]:
    """Speaks each sentence separately with ``gap`` seconds between them; returns exact cues."""
    tl.add_silence(lead)
    cues = []
    for text in sentences:
        span = tl.speak(text, voice=voice)
        cues.append(Cue(span.start_seconds, span.end_seconds, escape_vtt(text)))
        tl.add_silence(gap)
    return cues


#: The four files of a memo, by the exact, case-sensitive suffix that follows its base.
MEMO_SUFFIXES = ("_audio.m4a", "_transcription.vtt", "_track.gpx", "_title.txt")


def memo_files(folder: str, base: str) -> list[str]:
    """The names in ``folder`` that belong to ``base``: exact suffixes, plus ``<base>.parts``."""
    wanted = {base + s for s in MEMO_SUFFIXES} | {base + ".parts"}
    return sorted(n for n in os.listdir(folder) if n in wanted)


def title_fields(title: str | None) -> tuple[str | None, str | None]:
    """(title, displayName) for the MANIFEST from a title file's decoded text, by FORMAT.md §5.

    NUL characters are dropped and the text is trimmed of white space at both ends (None when
    nothing is left): that, line breaks and all, is the title. The display name is the title on
    one line, every run of white space (line breaks included) made one space. None means the memo
    is shown by its recording date."""
    if title is None:
        return None, None
    text = title.replace("\0", "").strip()
    if not text:
        return None, None
    return text, " ".join(text.split())


def memo_entry(
    base: str,
    shows: str,
    folder: str,
    *,
    audio: dict,
    transcript: dict | None = None,
    route: dict | None = None,
    title: str | None = None,
    recorded_at: str | None = None,
    recorded_at_local: str | None = None,
    date_source: str = "base",
    needs_recovery: bool = False,
    extra: dict | None = None,
) -> dict:
    """One MANIFEST memo entry; ``files`` is read back from the folder so it cannot drift.

    ``title`` is the title file's text as decoded (see ``title_fields`` for what is expected of it)."""
    title_text, display = title_fields(title)
    entry = {
        "base": base,
        "shows": shows,
        "files": memo_files(folder, base),
        "recordedAt": recorded_at,
        "recordedAtLocal": recorded_at_local,
        "dateSource": date_source,
        "title": title_text,
        "displayName": display,
        "audio": audio,
        "transcript": transcript,
        "route": route,
        "needsRecovery": needs_recovery,
    }
    if extra:
        entry.update(extra)
    return entry


def write_manifest(path: str, manifest: dict) -> None:
    """Writes MANIFEST.json: two-space indent, UTF-8 without escapes, keys in insertion order."""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")


def parse_utc(text: str) -> _dt.datetime:
    """Parses ``2026-06-01T07:30:00Z`` into an aware UTC datetime."""
    return _dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=_dt.timezone.utc)


# ---------------------------------------------------------------------------------------------
# Audio in one call

#: How ``make_audio`` can leave a file: intact, or one of the ways a kill or a fault leaves it.
DAMAGES = ("none", "insideMdat", "insideMoof", "noIndex", "zeroTimescale")


def make_audio(
    out: str,
    timeline: Timeline,
    work: str,
    *,
    layout: str = "fragmented",
    damage: str = "none",
    bitrate: str = "32k",
    creation_time: str | None = None,
) -> dict:
    """Encodes ``timeline`` to ``out``, damages it as asked, and returns its MANIFEST audio entry.

    ``damage``: ``insideMdat`` tears the file in the middle of its last mdat (a kill between
    flushes: cut short with a torn tail); ``insideMoof`` tears it halfway through its last moof;
    ``noIndex`` keeps only ftyp and the media data (killed before the first flush: damaged);
    ``zeroTimescale`` patches mdhd's timescale to 0 (plays, but its length cannot be read).
    ``work`` is a scratch folder: the intact encode stays there as ``<name>.intact.m4a`` (the
    facts are computed from it), beside ``<name>.wav``. The timeline is padded in place first (see
    ``PAD_QUANTUM``), so cue spans taken from it before the call stay valid.
    """
    if damage not in DAMAGES:
        raise ValueError(f"unknown damage {damage!r}")
    timeline.pad()
    name = os.path.basename(out)
    wav = os.path.join(work, name + ".wav")
    intact = os.path.join(work, name + ".intact.m4a")
    timeline.write_wav(wav)
    encode_aac(wav, intact, layout=layout, bitrate=bitrate, creation_time=creation_time)
    size = os.path.getsize(intact)
    if damage == "none":
        tear(intact, out, size)
        return audio_facts(out, intact, layout=layout, state="ok")
    if damage in ("insideMdat", "insideMoof"):
        if layout != "fragmented":
            raise ValueError("tearing is for fragmented recordings")
        moof, mdat = fragments(intact)[-1]
        if damage == "insideMdat":
            # Cut halfway through the sample that straddles the middle of the last mdat, so the
            # file ends with part of a sample: a torn tail, never a clean sample boundary.
            # The largest sample of the mdat's second half is torn, so the tail is more than a
            # byte or two even when the last fragment is mostly silence.
            middle = mdat.payload + (mdat.size - mdat.header) // 2
            inside = [p for p in probe_packets(intact) if mdat.payload <= p.pos < mdat.end]
            late = [p for p in inside if p.pos + p.size > middle] or inside[-1:]
            torn = max(late, key=lambda p: (p.size, -p.pos))
            cut = torn.pos + max(torn.size // 2, 1)
        else:
            cut = moof.offset + moof.size // 2
        tear(intact, out, cut)
        facts = audio_facts(out, intact, layout=layout, state="cutShort")
        facts["cut"] = damage
        return facts
    if damage == "noIndex":
        strip_index(intact, out)
        return audio_facts(
            out, intact, layout=layout, state="damaged",
            damaged_because="no index (no moov): the app was killed before its first flush",
        )
    tear(intact, out, size)
    patch_mdhd_timescale(out, 0)
    return audio_facts(out, intact, layout=layout, state="lengthUnreadable")
