#!/usr/bin/env bash
# tests/sim/test_mpi.sh CROUPIER HAVE_MPI [MPIRUN] — the lab on MPI
# (docs/lab.md, "The lab on MPI"): `mpirun --oversubscribe -n 3 croupier
# sim ...` on this one machine prints the report, and writes the JSON and
# the CSV, of the same run in one process, byte for byte once the timing
# is taken out (the text's "X s (N games/s, M actions/s)", the sweep's
# games/s column, the JSON's "seconds"); without --csv (no result per game
# kept: the processes' tallies are added up) the report, the JSON and the
# plots' data files.  DML and 18Dracula runs, a DML
# sweep over seat 0's bot, sweeps over a table option and over 18Dracula's
# board (its phase chart, bank, starting money and an associate's price),
# a run with more processes than games, and an error that is reported
# once, by rank 0.
#
# Skipped (exit 77) when the program was built without MPI (HAVE_MPI is
# not ON: CMake found no MPI) or mpirun is missing; failed instead when
# CROUPIER_REQUIRE_MPI=1 (CI).
set -euo pipefail
croupier="$1"
have_mpi="${2:-OFF}"
mpirun="${3:-mpirun}"

need() { # need MESSAGE: skip, or fail where MPI is required
    if [ "${CROUPIER_REQUIRE_MPI:-}" = 1 ]; then
        echo "test_mpi: FAILED (CROUPIER_REQUIRE_MPI=1): $1" >&2
        exit 1
    fi
    echo "test_mpi: SKIPPED: $1"
    exit 77
}
[ "$have_mpi" = ON ] ||
    need "croupier was built without MPI (Debian: apt-get install libopenmpi-dev openmpi-bin, then configure again)"
command -v "$mpirun" >/dev/null || need "$mpirun is not installed (Debian: apt-get install openmpi-bin)"

# Open MPI refuses to run as root unless told (CI runs as root).
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# In a container, processes may not read each other's memory (ptrace), and
# Open MPI's shared-memory transport then fails its single-copy transfers
# ("Read -1, expected N, errno = 1"): copy through its buffers instead.
export OMPI_MCA_btl_vader_single_copy_mechanism="${OMPI_MCA_btl_vader_single_copy_mechanism:-none}"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/croupier-mpi-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
errors=0
fail() {
    echo "FAIL: $*" >&2
    errors=$((errors + 1))
}

# The timing out of a text report and of a JSON report.
untimed_text() { sed -E 's/^(.* threads), [0-9.]+ s \(.*\)$/\1/; /^Sweep over/,$ s/ +[0-9]+$//' "$1"; }
untimed_json() { sed -E 's/"seconds": [0-9.]+, //' "$1"; }

# same NAME PROCESSES ARGS...: the run in one process, then on PROCESSES
# processes; report, JSON and CSV compared.
same() {
    local name="$1" np="$2"
    shift 2
    local one="$tmp/$name.1" many="$tmp/$name.$np" before=$errors
    "$croupier" sim "$@" --json "$one.json" --csv "$one.csv" >"$one.txt" 2>"$one.err" ||
        { fail "$name: the one-process run failed: $(cat "$one.err")"; return; }
    "$mpirun" --oversubscribe -n "$np" "$croupier" sim "$@" --json "$many.json" --csv "$many.csv" \
        >"$many.txt" 2>"$many.err" || { fail "$name: mpirun -n $np failed: $(cat "$many.err")"; return; }
    if ! [ -s "$one.txt" ] || ! [ -s "$one.json" ] || ! [ -s "$one.csv" ]; then
        fail "$name: an empty report"
    fi
    # three processes each playing the whole run on its own would print three reports
    if ! diff <(untimed_text "$one.txt") <(untimed_text "$many.txt") >"$tmp/$name.diff"; then
        fail "$name: the report on $np processes differs:"
        head -n 20 "$tmp/$name.diff" >&2
    fi
    if ! diff <(untimed_json "$one.json") <(untimed_json "$many.json") >"$tmp/$name.diff"; then
        fail "$name: the JSON on $np processes differs:"
        head -n 20 "$tmp/$name.diff" >&2
    fi
    cmp -s "$one.csv" "$many.csv" || fail "$name: the CSV on $np processes differs"
    [ "$errors" -eq "$before" ] && echo "ok: $name on $np processes ($(wc -l <"$one.csv") CSV lines)"
    return 0
}

# flat NAME PROCESSES ARGS...: as same, without --csv, so no process keeps
# a result per game (rank 0 adds up the processes' tallies), and with
# --plots, whose data files (the length histogram) are compared too.
flat() {
    local name="$1" np="$2"
    shift 2
    local one="$tmp/$name.1" many="$tmp/$name.$np" before=$errors
    "$croupier" sim "$@" --json "$one.json" --plots "$one.plots" >"$one.txt" 2>"$one.err" ||
        { fail "$name: the one-process run failed: $(cat "$one.err")"; return; }
    "$mpirun" --oversubscribe -n "$np" "$croupier" sim "$@" --json "$many.json" \
        --plots "$many.plots" >"$many.txt" 2>"$many.err" ||
        { fail "$name: mpirun -n $np failed: $(cat "$many.err")"; return; }
    [ -s "$one.txt" ] && [ -s "$one.json" ] || fail "$name: an empty report"
    diff <(untimed_text "$one.txt") <(untimed_text "$many.txt") >/dev/null ||
        fail "$name: the report on $np processes differs"
    diff <(untimed_json "$one.json") <(untimed_json "$many.json") >/dev/null ||
        fail "$name: the JSON on $np processes differs"
    for f in length.dat winrates.dat; do
        [ -s "$one.plots/$f" ] || { fail "$name: no $f"; continue; }
        cmp -s "$one.plots/$f" "$many.plots/$f" || fail "$name: $f on $np processes differs"
    done
    [ "$errors" -eq "$before" ] && echo "ok: $name on $np processes, without --csv"
    return 0
}

same dml 3 dml --games 3000 --seed 5 --threads 2
# more games per process than one message of CSV rows carries (4,096)
same chunks 2 dml --games 9001 --seed 4 --threads 1
flat dml-flat 3 dml --games 3000 --seed 5 --threads 2
flat 18dracula-flat 2 18dracula --games 60 --seed 7 --threads 1 --seats heuristic,random,random
flat sweep-flat 3 dml --games 1000 --seed 3 --threads 1 --seats heuristic \
    --vary seat0=random,heuristic
same 18dracula 3 18dracula --games 240 --seed 7 --threads 2 --seats heuristic,random,random
same sweep 3 dml --games 1000 --seed 3 --threads 1 --seats heuristic \
    --vary seat0=random,heuristic,ismcts:iters=4
# sweeps over the rules: a table option, and a number of the board file
same option-sweep 2 dml --variant dml-2015 --games 600 --seed 3 --threads 1 \
    --vary option.bm-wager=no,yes
same board-sweep 3 18dracula --games 24 --seed 7 --threads 1 --vary board.phase.2.limit=3,5
# the rules' money and prices, which the bundled board leaves out
same bank-sweep 2 18dracula --games 12 --seed 7 --threads 1 --seats heuristic,random,heuristic,random \
    --vary board.bank=8000,16000
same cash-sweep 3 18dracula --games 12 --seed 8 --threads 1 --seats heuristic,random,heuristic,random \
    --vary board.cash.4=400,900
same assoc-sweep 2 18dracula --games 12 --seed 9 --threads 1 --seats heuristic \
    --vary board.assoc.FD.price=180,400
same smackdown 2 dml --variant smackdown --games 1001 --seed 11 --threads 2 \
    --seats heuristic,random,random
same few 3 dml --games 2 --seed 9 --threads 1

# An error is reported once, by rank 0, and the job fails.
if "$mpirun" --oversubscribe -n 3 "$croupier" sim dml --games 10 --seats nobody \
    >"$tmp/err.out" 2>"$tmp/err.err"; then
    fail "an unknown bot did not fail the job"
fi
n="$(grep -c '^croupier: error: unknown bot' "$tmp/err.err" || true)"
[ "$n" = 1 ] || fail "the error was printed $n times, not once: $(cat "$tmp/err.err")"

if [ "$errors" -ne 0 ]; then
    echo "test_mpi: $errors failure(s)" >&2
    exit 1
fi
echo "test_mpi: all passed"
