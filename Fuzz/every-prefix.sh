#!/usr/bin/env bash
# Reads every prefix of each FILE (0 bytes up to the whole) with the fuzz target its suffix names,
# in one process per file, under the address sanitizer: a crash, a failed invariant or a
# sanitizer report fails the file and names the prefix's length, and so does a file still being
# read after an hour (a hang: the length is the prefix it stuck on). For files other software wrote
# (kept out of `make test`, since they are not ours); scripts/check-realworld does the same
# through the CLI, a process per read, on a sample of the prefixes.
#   Fuzz/every-prefix.sh FILE...
set -euo pipefail
cd "$(dirname "$0")/.."
Fuzz/run-fuzz.sh --build
status=0
for file in "$@"; do
  case "$file" in
    *.m4a | *.mp4) target=mp4 ;;
    *.vtt) target=webvtt ;;
    *.gpx) target=gpx ;;
    *.txt) target=title ;;
    *) echo "$file: no target reads this kind of file" >&2; status=1; continue ;;
  esac
  size=$(stat -c %s "$file")
  start=$(date +%s)
  mark=.build/fuzz/every-prefix.length
  log=".build/fuzz/every-prefix-$(basename "$file").log"
  # A small quarantine: each prefix frees what it read, and ASan's default keeps 256 MB of that.
  if ASAN_OPTIONS=quarantine_size_mb=16 STASH_FUZZ_TARGET=$target STASH_FUZZ_EVERY_PREFIX=1 STASH_FUZZ_PREFIX_MARK=$mark .build/fuzz/stash-fuzz -timeout=3600 \
    -rss_limit_mb=2048 "$file" > "$log" 2>&1; then
    echo "$file: all $((size + 1)) prefixes read by the $target target ($(($(date +%s) - start)) s)"
  else
    echo "$file: FAILED at the prefix of $(cat "$mark") bytes; see $log" >&2
    grep -m1 -B2 -A12 "ERROR\|INVARIANT\|Fatal" "$log" >&2 || tail -20 "$log" >&2
    status=1
  fi
done
exit $status
