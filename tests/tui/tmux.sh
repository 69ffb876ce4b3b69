# tests/tui/tmux.sh — what every full-screen client test shares: croupier
# run in tmux at 80x24 as a player would run it, keys sent by send-keys, the
# screen read by capture-pane, every wait polling the screen.  Sourced, not
# run:
#
#   . "$(dirname "$0")/tmux.sh" CROUPIER NAME
#
# CROUPIER is the program; NAME names this test's tmux server (one per run,
# with the process id).  It leaves the test in a fresh temporary directory,
# removed at the exit with the tmux server, with a UTF-8 locale and
# TERM=xterm-256color, and defines:
#
#   start SESSION ARGS...  croupier ARGS in a new 80x24 window (no shell
#                          reads the arguments: tmux runs sh with them as its
#                          argv); the pane stays after the exit and shows
#                          "[exit status N]".  START_ENV=VAR=VALUE sets one
#                          more variable for it.
#   screen / keys K...     the window SESSION now / keys sent to it
#   wait_for TEXT [S]      polls until the screen shows TEXT (a fixed
#                          string), at most S seconds (WAIT_SECONDS, 20)
#   dead / wait_dead       whether the program has ended / waits until it
#                          has, failing unless its status was 0
#   exit_status            the status the pane shows
#   fail MESSAGE           says FAIL with the screen, and exits 1
BIN=$(readlink -f "$1")
command -v tmux >/dev/null || { echo "FAIL: tmux is not installed (scripts/setup.sh installs it)"; exit 1; }
TMP=$(mktemp -d)
SOCK="croupier-$2-$$"
cleanup() {
    tmux -L "$SOCK" kill-server 2>/dev/null || true
    rm -rf "$TMP"
}
trap cleanup EXIT
cd "$TMP"
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color

fail() {
    echo "FAIL: $*"
    [ -n "${SESSION:-}" ] && { echo "--- screen ---"; screen || true; echo "--------------"; }
    exit 1
}

start() {
    SESSION=$1
    shift
    if ! tmux -L "$SOCK" has-session 2>/dev/null; then
        # a window that outlives the tests' own keeps the server up between them
        tmux -L "$SOCK" new-session -d -x 80 -y 24 -s idle sleep 3600
        tmux -L "$SOCK" set-option -g remain-on-exit on
    fi
    # sh prints the exit status after the program; the arguments reach it as
    # its argv ("$0" "$@"), never as script text
    tmux -L "$SOCK" new-session -d -x 80 -y 24 -s "$SESSION" \
        sh -c '"$0" "$@"; echo "[exit status $?]"' env ${START_ENV:-} "$BIN" "$@"
}
screen() { tmux -L "$SOCK" capture-pane -p -t "$SESSION"; }
keys() { tmux -L "$SOCK" send-keys -t "$SESSION" "$@"; }
dead() { [ "$(tmux -L "$SOCK" display-message -p -t "$SESSION" '#{pane_dead}')" = 1 ]; }

wait_for() {
    local text=$1 limit=${2:-${WAIT_SECONDS:-20}} i
    for ((i = 0; i < limit * 20; i++)); do
        screen | grep -qF -- "$text" && return 0
        sleep 0.05
    done
    fail "'$text' did not appear within ${limit}s"
}

exit_status() { screen | grep -oE '\[exit status [0-9]+\]|Pane is dead \(status [0-9]+' | head -1 | grep -oE '[0-9]+'; }
wait_dead() {
    local i st
    for ((i = 0; i < 400; i++)); do dead && break; sleep 0.05; done
    dead || fail "the program did not exit"
    st=$(exit_status)
    [ "$st" = 0 ] || fail "the program ended with status '$st'"
}
