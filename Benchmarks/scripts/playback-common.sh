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

# seconds COMMAND...: wall-clock seconds of one run.
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
