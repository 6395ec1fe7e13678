#!/usr/bin/env bash
# Drives stash-tui in tmux over copies of the demo, crash and lint folders for MINUTES (default 10)
# each: random keys, mouse clicks and resizes while a background loop adds, grows, cuts and removes
# files underneath. Fails if the browser dies (printing its standard error, with Swift's
# backtrace of a crash), or if after `q` it did not exit 0 or left the terminal settings changed.
# Not part of `make test` (it takes minutes).
#   Fuzz/tui-stress.sh [minutes] [folder ...]      (folders: demo crash lint)
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
minutes="${1:-10}"
shift || true
folders=("$@")
[[ ${#folders[@]} -eq 0 ]] && folders=(demo crash lint)
swift build --product stash-tui >/dev/null || exit 2
tui="$(swift build --show-bin-path)/stash-tui"
seed="${STRESS_SEED:-$RANDOM}"
RANDOM=$seed
echo "seed $seed (STRESS_SEED=$seed to replay the key choices)"

# No `q` (or C-c) among the inputs: that quits, which is tested at the end.
keys=(Up Down Left Right PageUp PageDown Home End Enter Escape Tab BTab Space BSpace j k g G h l / S n N '?' t e r s a 1 2 x y u i o p)
status=0
for name in "${folders[@]}"; do
  scratch=$(mktemp -d /tmp/stash-stress.XXXXXX)
  cp -R "SyntheticFixtures/$name" "$scratch/memos"
  rm -f "$scratch/memos/MANIFEST.json"
  sock="stash-stress-$$-$name"
  cmd="stty -g > '$scratch/stty.before'; SWIFT_BACKTRACE=enable=yes,interactive=no,color=no,output-to=stderr LC_ALL=C.UTF-8 TERM=xterm-256color TZ=UTC XDG_STATE_HOME='$scratch/state' '$tui' '$scratch/memos' 2>'$scratch/stderr'; printf '\\033[2J\\033[HEXITED:%s.\\n' \$?; stty -g > '$scratch/stty.after'; sleep 3600"
  tmux -L "$sock" -f /dev/null new-session -d -x 100 -y 30 "$cmd" </dev/null >/dev/null 2>&1
  # Files changing underneath: appear, grow, get cut, vanish.
  (
    audio=$(find "$scratch/memos" -name '*_audio.m4a' | head -1)
    n=0
    while [[ -d "$scratch/memos" ]]; do
      n=$((n + 1))
      base="$scratch/memos/2027-01-01T00-00-$(printf %02d $((n % 30)))"
      cp "$audio" "${base}_audio.m4a" 2>/dev/null
      printf 'WEBVTT\n\n00:00.000 --> 00:01.000\nchurn %d\n' "$n" > "${base}_transcription.vtt"
      head -c $((RANDOM * 8)) /dev/urandom >> "${base}_audio.m4a"
      ((n % 3 == 0)) && truncate -s $((RANDOM)) "${base}_audio.m4a"
      ((n % 4 == 0)) && rm -f "$scratch/memos/2027-01-01T00-00-$(printf %02d $(((n + 11) % 30)))"_*
      ((n % 5 == 0)) && printf 'Title %d\n' "$n" > "${base}_title.txt"
      sleep 0.2
    done
  ) &
  churn=$!
  end=$((SECONDS + minutes * 60))
  sent=0
  alive=1
  while ((SECONDS < end)); do
    case $((RANDOM % 20)) in
      0) tmux -L "$sock" resize-window -x $((20 + RANDOM % 180)) -y $((5 + RANDOM % 60)) 2>/dev/null ;;
      1) # An SGR mouse click at a random cell, press and release.
        x=$((1 + RANDOM % 100)); y=$((1 + RANDOM % 30))
        tmux -L "$sock" send-keys -l $'\e'"[<0;$x;${y}M"$'\e'"[<0;$x;${y}m" ;;
      2) tmux -L "$sock" send-keys -l "$(head -c 4 /dev/urandom | tr -dc 'a-pr-zA-Z0-9 ')" ;;
      *) tmux -L "$sock" send-keys "${keys[RANDOM % ${#keys[@]}]}" ;;
    esac
    sent=$((sent + 1))
    if ((sent % 50 == 0)); then
      if tmux -L "$sock" capture-pane -p 2>/dev/null | grep -q 'EXITED:'; then alive=0; break; fi
    fi
    sleep 0.02
  done
  kill "$churn" 2>/dev/null; wait "$churn" 2>/dev/null
  if ((alive)); then
    # Leave any prompt, then quit.
    for _ in 1 2 3; do tmux -L "$sock" send-keys Escape; sleep 0.3; done
    tmux -L "$sock" send-keys q
    for _ in $(seq 1 50); do tmux -L "$sock" capture-pane -p | grep -q 'EXITED:' && break; sleep 0.2; done
  fi
  screen=$(tmux -L "$sock" capture-pane -p)
  exitline=$(grep -o 'EXITED:[0-9]*\.' <<<"$screen" | head -1)
  exitline=${exitline%.}
  sleep 0.5
  if ((alive == 0)); then
    echo "$name: FAILED: stash-tui exited by itself after $sent inputs ($exitline)"; status=1
    printf '%s\n' "--- its standard error:" "$(head -60 "$scratch/stderr")" "---"
  elif [[ "$exitline" != "EXITED:0" ]]; then
    echo "$name: FAILED: after q: ${exitline:-still running}"; status=1
    printf '%s\n' "--- the screen:" "$screen" "---"
  elif ! cmp -s "$scratch/stty.before" "$scratch/stty.after"; then
    echo "$name: FAILED: terminal settings not restored"; status=1
  else
    echo "$name: ok: $sent inputs over $minutes min, exited 0, terminal restored"
  fi
  tmux -L "$sock" kill-server 2>/dev/null
  rm -rf "$scratch"
done
exit $status
