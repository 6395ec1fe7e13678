# Shared by the playback-* benchmarks: the release binary and synthetic memos made by ffmpeg.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
swift=${SWIFT:-swift}
work=${STASH_BENCH_DIR:-/tmp/stash-bench-playback}
mkdir -p "$work"
bin=$(cd "$root" && $swift build -c release --product stash-tui >&2 && $swift build -c release --show-bin-path)/stash-tui

# memo NAME SECONDS: a fragmented mono 48 kHz AAC memo like the phone's, speech-like noise bursts
# over a tone (synthetic), made once and kept in $work.
memo() {
  local path="$work/$1_audio.m4a"
  if [ ! -s "$path" ]; then
    ffmpeg -hide_banner -loglevel error -y -f lavfi \
      -i "aevalsrc=0.3*sin(2*PI*220*t)*(0.5+0.5*sin(2*PI*0.7*t))+0.05*random(0):s=48000:d=$2" \
      -ac 1 -c:a aac -b:a 64k -movflags +frag_keyframe+empty_moov+default_base_moof "$path"
  fi
  echo "$path"
}

# measure COMMAND...: runs it and prints "wall user system" seconds (bash's own `time`, so no
# extra package is needed); the command's output is discarded.
measure() {
  local TIMEFORMAT='%R %U %S' status=0
  { time "$@" >/dev/null 2>&1 || status=$?; } 2>&1
  if [ "$status" -ne 0 ]; then echo "benchmark: '$*' failed with status $status" >&2; exit 1; fi
}

# calc EXPRESSION: floating-point arithmetic through awk.
calc() { awk "BEGIN { print $1 }"; }
