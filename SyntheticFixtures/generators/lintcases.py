"""Builds SyntheticFixtures/lint/cases: a memo folder holding an instance of every `stash lint`
rule the main lint folder cannot hold (its MANIFEST follows the memo schema, which a broken route
or a patched audio file would not fit). Called by lint.py; MANIFEST.json here maps each rule code
to the files that show it, and is not a memo MANIFEST.
"""

from __future__ import annotations

import os
import shutil
import struct

import fixturelib as fx

MINUTE = 60


def build(out: str, work: str, make_audio) -> dict:
    """Writes the cases into ``out``; ``make_audio(path, words, **kw)`` encodes a short memo.
    Returns the MANIFEST (rule code -> what shows it)."""
    os.makedirs(out, exist_ok=True)
    os.makedirs(work, exist_ok=True)
    rules: dict[str, list[str]] = {}
    plain = os.path.join(work, "plain_audio.m4a")
    finished = os.path.join(work, "finished_audio.m4a")
    facts = make_audio(plain, "A plain memo.")
    make_audio(finished, "A finished memo.", layout="finished")

    def path(name: str) -> str:
        return os.path.join(out, name)

    def shows(code: str, name: str) -> None:
        rules.setdefault(code, []).append(name)

    def audio_from(src: str, base: str, patch=None) -> str:
        name = base + "_audio.m4a"
        with open(src, "rb") as f:
            data = bytearray(f.read())
        if patch:
            data = patch(data, src)
        with open(path(name), "wb") as f:
            f.write(data)
        return name

    def day(n: int) -> str:
        return f"2026-07-{n:02d}T10-00-00"

    # --- Audio -----------------------------------------------------------------------------------
    base = day(1)
    make_audio(path(base + "_audio.m4a"), "No index.", damage="noIndex")
    shows("mp4-no-index", base + "_audio.m4a")

    base = day(2)
    make_audio(path(base + "_audio.m4a"), "No clock.", damage="zeroTimescale")
    shows("mp4-length-unreadable", base + "_audio.m4a")

    def handler(data: bytearray, src: str) -> bytearray:
        box = fx.find_box(src, "moov/trak/mdia/hdlr")
        at = box.payload + 8  # version and flags, pre_defined
        assert data[at:at + 4] == b"soun"
        data[at:at + 4] = b"vide"
        return data

    shows("mp4-no-audio-track", audio_from(plain, day(3), handler))

    def codec(data: bytearray, src: str) -> bytearray:
        stsd = fx.find_box(src, "moov/trak/mdia/minf/stbl/stsd")
        at = data.index(b"mp4a", stsd.payload)
        data[at:at + 4] = b"alac"
        return data

    shows("mp4-not-aac", audio_from(plain, day(4), codec))

    def config(data: bytearray, src: str) -> bytearray:
        esds = data.index(b"esds")
        # The DecoderSpecificInfo (tag 5): its length, then the AudioSpecificConfig, zeroed.
        tag = data.index(b"\x05", esds + 8 + 4 + 2 + 3 + 2 + 13)
        length = data[tag + 1]
        data[tag + 2:tag + 2 + length] = bytes(length)
        return data

    shows("mp4-bad-audio-config", audio_from(plain, day(5), config))

    def no_sample(data: bytearray, src: str) -> bytearray:
        moof, mdat = fx.fragments(src)[0]
        return data[:mdat.payload + 2]

    name = audio_from(plain, day(6), no_sample)
    shows("mp4-no-audio", name)
    shows("mp4-torn-tail", name)

    def mid_mdat(data: bytearray, src: str) -> bytearray:
        # Cut halfway into the media data, and make the mdat's size say so: every box is whole,
        # but the index still lists the samples that were cut off.
        mdat = fx.find_box(src, "mdat")
        cut = mdat.payload + (mdat.size - mdat.header) // 2
        data = data[:cut]
        assert mdat.header == 8
        data[mdat.offset:mdat.offset + 4] = struct.pack(">I", cut - mdat.offset)
        return data

    shows("mp4-missing-samples", audio_from(finished, day(7), mid_mdat))

    def sample_table(data: bytearray, src: str) -> bytearray:
        stsz = fx.find_box(src, "moov/trak/mdia/minf/stbl/stsz")
        at = stsz.payload + 8  # version and flags, sample_size, then sample_count
        count = struct.unpack(">I", data[at:at + 4])[0]
        data[at:at + 4] = struct.pack(">I", count + 1000)
        return data

    shows("mp4-bad-sample-table", audio_from(finished, day(8), sample_table))

    def fragment(data: bytearray, src: str) -> bytearray:
        trun = [b for b in fx.boxes(src) if b.path == "moof/traf/trun"][-1]
        at = trun.payload + 4  # version and flags, then sample_count
        count = struct.unpack(">I", data[at:at + 4])[0]
        data[at:at + 4] = struct.pack(">I", count + 100000)
        return data

    shows("mp4-bad-fragment", audio_from(plain, day(9), fragment))

    def box_size(data: bytearray, src: str) -> bytearray:
        mvhd = fx.find_box(src, "moov/mvhd")
        moov = fx.find_box(src, "moov")
        data[mvhd.offset:mvhd.offset + 4] = struct.pack(">I", moov.size + 64)
        return data

    name = audio_from(plain, day(10), box_size)
    shows("mp4-bad-box-size", name)
    shows("mp4-no-audio-track", name)  # the cut-short moov loses its track

    # What other writers leave: an index whose media data is absent, one cut off, encrypted AAC.
    def august(n: int) -> str:
        return f"2026-08-{n:02d}T10-00-00"

    def media_absent(data: bytearray, src: str) -> bytearray:
        # The index is whole and lists every sample; the file ends where its mdat would begin.
        mdat = fx.find_box(src, "mdat")
        assert mdat.offset > fx.find_box(src, "moov").offset
        return data[:mdat.offset]

    shows("mp4-audio-outside-file", audio_from(finished, august(1), media_absent))

    def index_cut(data: bytearray, src: str) -> bytearray:
        # The file ends inside the sample tables, before the index is whole.
        stbl = fx.find_box(src, "moov/trak/mdia/minf/stbl")
        return data[:stbl.payload + 40]

    name = audio_from(finished, august(2), index_cut)
    shows("mp4-index-cut-off", name)

    def encrypted(data: bytearray, src: str) -> bytearray:
        # The sample entry becomes `enca` with a protection scheme (`sinf`: the original format,
        # scheme cbcs, an empty track encryption box) after its esds, as encrypting writers do.
        def box(kind: bytes, body: bytes) -> bytes:
            return struct.pack(">I", 8 + len(body)) + kind + body

        sinf = box(b"sinf", box(b"frma", b"mp4a") + box(b"schm", bytes(4) + b"cbcs" + struct.pack(">I", 0x10000))
                   + box(b"schi", box(b"tenc", bytes(24))))
        stsd = fx.find_box(src, "moov/trak/mdia/minf/stbl/stsd")
        entry = data.index(b"mp4a", stsd.payload) - 4
        entry_end = entry + struct.unpack(">I", data[entry:entry + 4])[0]
        data[entry + 4:entry + 8] = b"enca"
        data[entry_end:entry_end] = sinf
        grown = [entry] + [b.offset for b in fx.boxes(src) if b.offset < entry < b.end]
        for at in grown:
            data[at:at + 4] = struct.pack(">I", struct.unpack(">I", data[at:at + 4])[0] + len(sinf))
        # The media data moved by as much: the chunk offsets follow it.
        stco = fx.find_box(src, "moov/trak/mdia/minf/stbl/stco")
        at = stco.payload + 4
        if stco.offset > entry:
            at += len(sinf)
        (count,) = struct.unpack(">I", data[at:at + 4])
        for i in range(count):
            field = at + 4 + 4 * i
            data[field:field + 4] = struct.pack(">I", struct.unpack(">I", data[field:field + 4])[0] + len(sinf))
        return data

    shows("mp4-encrypted", audio_from(finished, august(3), encrypted))

    # --- Titles ----------------------------------------------------------------------------------
    base = day(11)
    audio_from(plain, base)
    fx.write_title(path(base + "_title.txt"), "A walk " * 40 + "\n")
    shows("title-too-long", base + "_title.txt")

    base = day(12)
    audio_from(plain, base)
    fx.write_title(path(base + "_title.txt"), "Bell\x07 ringing\n")
    shows("title-control-character", base + "_title.txt")

    base = day(13)
    audio_from(plain, base)
    fx.write_title(path(base + "_title.txt"), b"\xef\xbb\xbfWith a byte order mark\n")
    shows("title-byte-order-mark", base + "_title.txt")

    # --- Transcripts -----------------------------------------------------------------------------
    def transcript(base: str, body: bytes, codes: list[str]) -> None:
        audio_from(plain, base)
        with open(path(base + "_transcription.vtt"), "wb") as f:
            f.write(body)
        for code in codes:
            shows(code, base + "_transcription.vtt")

    transcript(day(14), b"Not a transcript at all.\n", ["vtt-no-signature"])

    deep = b"<b>" * 70 + b"deep" + b"</b>" * 70
    body = b"\n".join([
        b"WEBVTT",
        b"Header text",
        b"",
        b"STYLE",
        b"::cue { color: yellow }",
        b"",
        b"REGION",
        b"id:r1",
        b"width:40%",
        b"bogus:1",
        b"width:50%",
        b"",
        b"REGION",
        b"width:10%",
        b"",
        b"NOTE stash missing-speech soon later",
        b"",
        b"1",
        b"00:00:00.000 --> 00:00:01.000 region:r1 line:0",
        b"Salt & pepper <x>tag</x> <rt>r</rt> <v>nobody</v> <i.loud spoken>a</i> <b>bold</i></b> </u>",
        b"<c>left open",
        b"",
        b"2",
        b"00:00:00.500 --> 00:00:02.000 align:middle align:start region:nowhere",
        b"Overlap <00:00:00.100> early <00:00:01.800> on time <00:00:01.700> back <00:00:0x.000> bad",
        b"",
        b"3",
        b"0:00:03.000 --> 00:00:04.000",
        b"One digit hour",
        b"00:00:04.500 --> 00:00:05.000",
        b"",
        b"4",
        b"00:00:06.000-->00:00:07.000",
        b"No spaces",
        b"",
        b"5",
        b"00:00:08.000 --> 00:00:07.500",
        b"Ends before it starts",
        b"",
        b"6",
        b"00:00:01.000 --> 00:00:12.000",
        b"Out of order, and long after the audio ends",
        b"",
        b"NOTE stash missing-speech 00:00:01.000 00:00:02.000",
        b"",
        b"STYLE",
        b"::cue { color: red }",
        b"",
        b"REGION",
        b"id:late",
        b"",
        b"stray words with no timing line",
        b"",
        b"NOTE",
        b"00:00:13.000 --> 00:00:14.000",
        b"",
        b"7",
        b"00:00:xx.000 --> 00:00:13.000",
        b"Bad time",
        b"",
        b"8",
        b"00:00:14.000 --- 00:00:15.000 -->",
        b"No arrow",
        b"",
        b"9",
        b"00:00:16.000 --> 00:00:17.000",
        b"A NUL \x00 and Latin-1 caf\xe9 " + deep,
        b"",
    ])
    transcript(day(15), body, [
        "vtt-header-no-blank-line", "vtt-bad-region-setting", "vtt-duplicate-region-setting",
        "vtt-bad-region-id", "vtt-bad-stash-note", "vtt-region-conflict",
        "vtt-bad-character-reference", "vtt-unknown-tag", "vtt-rt-outside-ruby", "vtt-bad-annotation",
        "vtt-misnested-tag", "vtt-stray-end-tag", "vtt-unclosed-tag", "vtt-bad-setting",
        "vtt-duplicate-setting", "vtt-unknown-region", "vtt-timestamp-outside-cue",
        "vtt-timestamp-not-increasing", "vtt-bad-inline-timestamp", "vtt-timestamp-form",
        "vtt-missing-blank-line", "vtt-arrow-spacing", "vtt-end-not-after-start", "vtt-cue-out-of-order",
        "vtt-stash-note-after-cue", "vtt-style-after-cue", "vtt-region-after-cue", "vtt-stray-text",
        "vtt-note-with-arrow", "vtt-bad-timestamp", "vtt-bad-arrow", "vtt-null-character",
        "vtt-not-utf8", "vtt-nesting-too-deep", "lint-cue-past-audio", "lint-cue-overlap",
    ])

    # Header lines other writers put there (YouTube's Kind and Language): info, not a warning.
    transcript(august(4), b"WEBVTT\nKind: captions\nLanguage: en\n\n00:00:00.500 --> 00:00:01.500\nA header.\n\n",
               ["vtt-header-metadata"])

    shows("folder-unrecognised", "MANIFEST.json")

    many = b"WEBVTT\n\n" + b"".join(b"00:00:%02d.000 --> 00:00:0x.000\nbroken\n\n" % (i % 60) for i in range(1005))
    transcript(day(16), many, ["vtt-too-many-diagnostics", "vtt-bad-timestamp"])

    # --- Bookmarks (FORMAT.md §8) -----------------------------------------------------------------
    def bookmarks(base: str, body: bytes, codes: list[str]) -> None:
        audio_from(plain, base)
        with open(path(base + "_bookmarks.vtt"), "wb") as f:
            f.write(body)
        for code in codes:
            shows(code, base + "_bookmarks.vtt")

    bookmarks(day(31), b"WEBVTT stash bookmarks\n\n00:00.0x0 --> 00:01.000\nbroken\n", ["bookmarks-broken"])
    bookmarks(august(5), b"WEBVTT stash bookmarks\n\n00:01.000 --> 00:01.536\nlater\n\n"
              b"00:00.200 --> 00:00.500\nearlier\n\n00:05.000 --> 00:06.000\npast the end\n",
              ["bookmarks-out-of-order", "bookmarks-not-chained", "bookmarks-past-end"])

    # --- Routes ----------------------------------------------------------------------------------
    def route(base: str, body: bytes, codes: list[str]) -> None:
        audio_from(plain, base)
        with open(path(base + "_track.gpx"), "wb") as f:
            f.write(body)
        for code in codes:
            shows(code, base + "_track.gpx")

    gpx = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
           b'<gpx version="1.1" creator="lint cases" xmlns="http://www.topografix.com/GPX/1/1"'
           b' xmlns:stash="urn:stash:gpx:1"'
           b' xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">\n')
    route(day(17), b"", ["gpx-empty"])
    route(day(18), b"this is not XML\n", ["gpx-not-xml"])
    route(day(19), b'<?xml version="1.0"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"></kml>\n', ["gpx-not-gpx"])
    point = b'<trkpt lat="-47.25" lon="-128.73"><ele>3</ele><time>%s</time></trkpt>\n'
    start = day(20).replace("T10-00-00", "T10:00:00Z").encode()
    route(day(20), gpx + b"<trk><trkseg>\n" + point % start + b'<trkpt lat="-47.2', ["gpx-truncated"])
    route(day(21), gpx + b"<trk><trkseg>\n" + (point % day(21).replace("T10-00-00", "T10:00:00Z").encode())
          + b"<ele>1</ele></oops>\n</trkseg></trk></gpx>\n", ["gpx-malformed"])
    bomb = b'<?xml version="1.0"?>\n<!DOCTYPE gpx [\n<!ENTITY a0 "0123456789">\n'
    for i in range(1, 10):
        bomb += b'<!ENTITY a%d "%s">\n' % (i, b"".join(b"&a%d;" % (i - 1) for _ in range(10)))
    bomb += b']>\n<gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><metadata><name>&a9;</name></metadata></gpx>\n'
    route(day(22), bomb, ["gpx-entity-refused"])
    route(day(23), gpx + b"<trk>" * 1100 + b"</trk>" * 1100 + b"</gpx>\n", ["gpx-too-deep", "gpx-misplaced-element"])
    route(day(24), b'<?xml version="1.0"?>\n<gpx version="1.1" creator="x"><trk><trkseg>\n'
          + point % day(24).replace("T10-00-00", "T10:00:00Z").encode() + b"</trkseg></trk></gpx>\n",
          ["gpx-no-namespace"])

    t0 = "2026-07-25T10:00:0"
    body = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
            b'<!DOCTYPE gpx [ <!ENTITY outside SYSTEM "file:///etc/hostname"> ]>\n'
            + gpx.split(b"\n", 1)[1]
            + b'<metadata><bounds minlat="x" minlon="1" maxlat="2"/></metadata>\n'
            + b'<trkpt lat="1" lon="2"><time>2026-07-25T10:00:00Z</time></trkpt>\n'
            + b"<trk><name>" + b"n" * (65 * 1024) + b"</name><trkseg>\n"
            + (b'<trkpt lat="-47.25" lon="-128.73"><ele>3</ele><time>' + t0.encode() + b'0Z</time>'
               b'<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>-1</gpxtpx:speed>'
               b'<gpxtpx:course>-1</gpxtpx:course></gpxtpx:TrackPointExtension>'
               b'<stash:horizontalAccuracy>-1</stash:horizontalAccuracy></extensions></trkpt>\n')
            + b'<trkpt lat="95" lon="-128.73"><ele>high</ele><time>' + t0.encode() + b'1Z</time></trkpt>\n'
            + b'<trkpt lat="-47.25" lon="-128.73"><ele>3</ele><time>2026-07-25T12:00:02+02:00</time></trkpt>\n'
            + b'<trkpt lat="-47.25" lon="-128.73"><ele>3</ele><time>' + t0.encode() + b'0Z</time></trkpt>\n'
            + b'<trkpt lat="-47.25" lon="-128.73"><ele>3</ele><time>2026-07-25T10:00:03</time></trkpt>\n'
            + b'<trkpt lat="-47.25" lon="-128.73"><ele>3</ele><time>yesterday</time></trkpt>\n'
            + b'<trkpt lat="-47.25" lon="-128.73"><ele>3</ele></trkpt>\n'
            + b'<trkpt lat="-47.25" lon="-128.73"><ele>3</ele><time>2026-07-25T11:00:00Z</time>'
              b'<hdop>4.5</hdop></trkpt>\n'
            + b'<trkpt lat="north" lon="-128.73"><ele>3</ele><time>' + t0.encode() + b'4Z</time></trkpt>\n'
            + b"</trkseg></trk></gpx>\ntrailing\n")
    route(day(25), body, [
        "gpx-external-entity", "gpx-bad-bounds", "gpx-misplaced-element", "gpx-text-too-long",
        "gpx-invalid-speed", "gpx-invalid-course", "gpx-invalid-accuracy", "gpx-coordinate-out-of-range",
        "gpx-bad-number", "gpx-time-without-zone", "gpx-bad-time", "gpx-bad-coordinate",
        "gpx-trailing-data", "lint-gpx-time-not-utc", "lint-gpx-time-backwards", "lint-gpx-time-missing",
        "lint-gpx-point-outside-recording", "lint-gpx-hdop-as-accuracy",
    ])

    # --- Names and parts -------------------------------------------------------------------------
    base = day(26)
    audio_from(plain, base)
    os.mkdir(path(base + "_transcription.vtt"))
    fx.write_title(path(base + "_transcription.vtt/README"), "A folder where a transcript belongs.\n")
    shows("folder-not-a-file", base + "_transcription.vtt")

    base = day(27)
    os.mkdir(path(base + ".parts"))
    tl = fx.Timeline()
    fx.write_vtt(path(base + ".parts/transcription.0001.vtt"), fx.sentence_cues(tl, ["Audio gone."], lead=0.2))
    shows("folder-capture-without-audio", base + ".parts")
    shows("folder-needs-recovery", base + ".parts")

    base = day(28)
    audio_from(plain, base)
    tl = fx.Timeline()
    fx.write_vtt(path(base + "_transcription.vtt"), fx.sentence_cues(tl, ["Assembled with a gap."], lead=0.2))
    os.mkdir(path(base + ".parts"))
    tl = fx.Timeline()
    fx.write_vtt(path(base + ".parts/transcription.0003.vtt"), fx.sentence_cues(tl, ["Kept part."], lead=0.2))
    shows("folder-parts-beside-finished", base + ".parts")

    base = day(29)
    audio_from(plain, base)
    os.mkdir(path(base + ".parts"))
    with open(path(base + ".parts/track.withdrawn"), "wb"):
        pass
    shows("folder-route-withdrawn", base + ".parts")

    base = day(30)
    audio_from(plain, base)
    os.mkdir(path(base + ".parts"))
    fx.write_title(path(base + ".parts/shopping list.txt"), "Milk.\n")
    shows("folder-parts-strangers", base + ".parts")

    return {
        "folder": "lint/cases",
        "generator": "SyntheticFixtures/generators/lintcases.py",
        "shows": "one instance of each lint rule the memo-schema folder above cannot hold; "
                 "`rules` maps each code to the files that show it",
        "audioSeconds": facts["durationSeconds"],
        "rules": dict(sorted(rules.items())),
    }
