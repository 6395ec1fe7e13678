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

# Best MB/s over $runs runs of "$@" (which prints "<count> <bytes> <wall s> <CPU s>"), by wall
# clock and by CPU time: on a shared machine the CPU figure is the one that means something.
best() {
  local wall=0 cpu=0 line count bytes seconds used w c
  for ((i = 0; i < runs; i++)); do
    line=$("$@")
    read -r count bytes seconds used <<<"$line"
    w=$(awk -v b="$bytes" -v s="$seconds" 'BEGIN { printf "%.1f", b / s / 1e6 }')
    c=$(awk -v b="$bytes" -v s="$used" 'BEGIN { printf "%.1f", b / s / 1e6 }')
    echo "  run $((i + 1)): $count in $bytes bytes, wall ${seconds}s ($w MB/s), CPU ${used}s ($c MB/s)" >&2
    wall=$(awk -v a="$wall" -v b="$w" 'BEGIN { print (b > a ? b : a) }')
    cpu=$(awk -v a="$cpu" -v b="$c" 'BEGIN { print (b > a ? b : a) }')
  done
  echo "$wall $cpu"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "bare expat (counts elements):" >&2
read -r ceiling_wall ceiling_cpu <<<"$(best "$work/count" "${files[@]}")"
echo "GPXReader (full documents):" >&2
read -r reader_wall reader_cpu <<<"$(best "$work/driver" read "${files[@]}")"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "wall clock: bare expat ${ceiling_wall} MB/s, GPXReader ${reader_wall} MB/s, ratio $(ratio "$ceiling_wall" "$reader_wall")x"
echo "CPU time:   bare expat ${ceiling_cpu} MB/s, GPXReader ${reader_cpu} MB/s, ratio $(ratio "$ceiling_cpu" "$reader_cpu")x"
