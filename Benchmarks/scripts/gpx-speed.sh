#!/usr/bin/env bash
# GPX reading speed: StashFormat's GPXReader against the ceiling, a bare libexpat loop in C that
# only counts elements, over a generated route set (150 MB by default).
#   Benchmarks/scripts/gpx-speed.sh [MEGABYTES] [RUNS]
# Both programs are built here at run time (swiftc -O -wmo over StashFormat's sources, cc -O2), so
# the package needs no benchmark target. The best of RUNS runs is reported, each reading every
# file from the page cache.
set -euo pipefail
megabytes=${1:-150}
runs=${2:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/stash-gpx-speed.XXXXXX)
trap 'rm -f "$work"/*.gpx "$work"/main.swift "$work"/driver "$work"/count; rmdir "$work"' EXIT
export PATH="$PATH:/opt/swift/usr/bin"

echo "building (swiftc -O over Sources/StashFormat, cc -O2)..." >&2
mapfile -t sources < <(find "$root/Sources/StashFormat" -name '*.swift' | sort)
# Top-level code must sit in a file called main.swift.
cp "$root/Benchmarks/scripts/gpx-speed-driver.swift" "$work/main.swift"
swiftc -O -wmo -module-name StashFormat -I "$root/Sources/CExpat" -lexpat \
  "${sources[@]}" "$work/main.swift" -o "$work/driver" 2> >(grep -v 'prohibited flag' >&2)
cc -O2 -o "$work/count" "$root/Benchmarks/scripts/gpx-expat-count.c" -lexpat

echo "generating a ${megabytes} MB route set..." >&2
"$work/driver" generate "$work" "$megabytes" >&2
files=("$work"/*.gpx)
cat "${files[@]}" > /dev/null  # into the page cache

best() {  # best MB/s over $runs runs of "$@", which prints "<count> <bytes> <seconds>"
  local top=0 line count bytes seconds rate
  for ((i = 0; i < runs; i++)); do
    line=$("$@")
    read -r count bytes seconds <<<"$line"
    rate=$(awk -v b="$bytes" -v s="$seconds" 'BEGIN { printf "%.1f", b / s / 1e6 }')
    echo "  run $((i + 1)): $count in $bytes bytes, ${seconds}s, $rate MB/s" >&2
    top=$(awk -v a="$top" -v b="$rate" 'BEGIN { print (b > a ? b : a) }')
  done
  echo "$top"
}

echo "bare expat (counts elements):" >&2
ceiling=$(best "$work/count" "${files[@]}")
echo "GPXReader (full documents):" >&2
reader=$(best "$work/driver" read "${files[@]}")
ratio=$(awk -v a="$ceiling" -v b="$reader" 'BEGIN { printf "%.2f", a / b }')
echo "bare expat ${ceiling} MB/s; GPXReader ${reader} MB/s; the ceiling is ${ratio}x the reader"
