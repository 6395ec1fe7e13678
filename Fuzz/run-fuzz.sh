#!/usr/bin/env bash
# Builds the libFuzzer binary (every StashFormat and StashSearch source plus Fuzz/Targets, with the
# fuzzer and address sanitizers) and runs each target for FUZZ_SECONDS (default 600), seeded from the
# fixtures. Crashes, hangs (>1 s on one input) and blow-ups (>200 MB) are saved in
# Fuzz/findings/<target>/ and make the run fail.
#   Fuzz/run-fuzz.sh [target ...]        targets: mp4 webvtt gpx title foldername search tsrp (default: all)
#   FUZZ_SECONDS=60 Fuzz/run-fuzz.sh gpx
#   Fuzz/run-fuzz.sh --build             only build
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
seconds="${FUZZ_SECONDS:-600}"
out=.build/fuzz
bin="$out/stash-fuzz"
mkdir -p "$out"

sources=$(find Sources/StashFormat Sources/StashSearch Fuzz/Targets -name '*.swift' | sort)
if [[ ! -x "$bin" ]] || [[ -n "$(find Sources/StashFormat Sources/StashSearch Fuzz/Targets -name '*.swift' -newer "$bin" | head -1)" ]]; then
  echo "building $bin"
  # One module: StashSearch's `import StashFormat` is then its own, which swiftc warns of and ignores.
  # shellcheck disable=SC2086
  swiftc -sanitize=fuzzer,address -parse-as-library -module-name StashFormat -package-name stash -O -g \
    -I Sources/CExpat -lexpat -I Sources/CICU -licuuc $sources -o "$bin" \
    2> >(grep -v -e 'Cannot export local symbol' -e 'ignoring import' -e '^ *[0-9]* |' -e '^ *|' >&2)
fi
[[ "${1:-}" == "--build" ]] && exit 0

targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(mp4 webvtt gpx title foldername search tsrp)

seed() { # target -> the fixture files that seed it
  case "$1" in
    mp4) find SyntheticFixtures -type f -name '*.m4a' -size -2M ;;
    webvtt) find SyntheticFixtures -type f -name '*.vtt' ;;
    gpx) find SyntheticFixtures -type f -name '*.gpx' ;;
    title) find SyntheticFixtures -type f -name '*.txt' ;;
    foldername | search | tsrp) ;;
  esac
}

status=0
for target in "${targets[@]}"; do
  corpus="$out/corpus/$target"
  findings="Fuzz/findings/$target"
  mkdir -p "$corpus" "$findings"
  if [[ "$target" == search ]]; then
    # A few words, each before every transcript of the fixtures (a NUL between them).
    for word in bamine "the door" Cafe strasse "bridge &amp; the" tomato; do
      find SyntheticFixtures -type f -name '*.vtt' -size -64k | while IFS= read -r file; do
        { printf '%s\0' "$word"; cat "$file"; } > "$corpus/seed-$( { printf '%s' "$word"; cat "$file"; } | md5sum | cut -c1-12)"
      done
    done
  elif [[ "$target" == tsrp ]]; then
    # The three shapes of Voice Memos' transcript JSON, written here (no Apple file is copied).
    printf '%s' '{"attributedString":["We ",{"timeRange":[3.1,3.48]},"talked… ",{"timeRange":[3.5,0.4]}],"locale":{"identifier":"en_US","current":0}}' > "$corpus/seed-interleaved"
    printf '%s' '{"attributedString":{"runs":["Um, ",0,"yes. ",{},"\u00e9",1],"attributeTable":[{"timeRange":[0,0.42]},{"timeRange":[1.5,2]}]}}' > "$corpus/seed-table"
    printf '%s' '{"attributedString":"Only words."}' > "$corpus/seed-plain"
  elif [[ "$target" == foldername ]]; then
    # Names themselves are the seeds.
    find SyntheticFixtures -mindepth 1 -printf '%f\0' | while IFS= read -r -d '' name; do
      printf '%s' "$name" > "$corpus/seed-$(printf '%s' "$name" | md5sum | cut -c1-12)"
    done
  else
    seed "$target" | while IFS= read -r file; do cp -f "$file" "$corpus/seed-$(md5sum < "$file" | cut -c1-12)"; done
  fi
  # Regression inputs found earlier seed the run too.
  [[ -d "SyntheticFixtures/regressions/$target" ]] && cp -f SyntheticFixtures/regressions/"$target"/* "$corpus/" 2>/dev/null || true
  max_len=1048576
  [[ "$target" == foldername ]] && max_len=255
  [[ "$target" == title ]] && max_len=20000
  echo "== $target: ${seconds}s"
  log="$out/$target.log"
  before=$(ls "$findings" | sort)
  # Fork mode with -ignore_crashes keeps fuzzing after a finding, so one known bug does not hide
  # the rest; each finding is still written to $findings. ASan's quarantine is kept small so the
  # 200 MB limit measures the reader, not the sanitizer.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="quarantine_size_mb=16:malloc_context_size=8:detect_leaks=0" \
    STASH_FUZZ_TARGET="$target" \
    "$bin" "$corpus" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="$seconds" -timeout=1 -rss_limit_mb=200 -malloc_limit_mb=200 \
    -max_len="$max_len" -artifact_prefix="$findings/" >"$log" 2>&1 || true
  runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
  new=$(comm -13 <(echo "$before") <(ls "$findings" | sort) | grep -v '^$' || true)
  if [[ -z "$new" ]]; then
    echo "   ok: ${runs:-0} executions, corpus $(ls "$corpus" | wc -l), no findings"
  else
    echo "   FINDINGS after ${runs:-0} executions (see $log):"
    for f in $new; do
      echo "   $findings/$f"
    done
    grep -E 'INVARIANT FAILED' "$log" | sort | uniq -c | sort -rn | head -8 | cut -c1-200 | sed 's/^/     /' || true
    grep -E '^==[0-9]+==ERROR|^SUMMARY' "$log" | sort | uniq -c | head -5 | sed 's/^/     /' || true
    status=1
  fi
done
exit $status
