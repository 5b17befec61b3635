#!/usr/bin/env bash
# Run one test tier's command and say how long it took (make test prints one line a tier).
#
#   bash scripts/test-tier.sh fast .venv/bin/pytest -n 2
#
# pytest's exit status 5 means "no tests selected". In a full run that is a failure: every
# tier has tests, so an empty one has lost its markers. With TIER_MAY_BE_EMPTY=1 (make sets
# it when PYTEST_ARGS narrows the run, e.g. to one file) an empty tier passes.
set -uo pipefail
tier="$1"
shift
[ -n "${TIER_TIMES:-}" ] && mkdir -p "$(dirname "$TIER_TIMES")"
start=$(date +%s)
"$@"
status=$?
took=$(($(date +%s) - start))
# CPU time of everything the tier ran (pytest, its workers, servers, Chromium): unlike the
# wall time, it hardly depends on what else the machine is doing.
usage="$(mktemp)"
times >"$usage" # not in a pipe: a subshell would report its own (zero) times
cpu=$(tail -n 1 "$usage" | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/);
    printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
rm -f "$usage"
printf 'tier %s: %dm%02ds wall, %dm%02ds CPU, pytest exit %d\n' "$tier" $((took / 60)) \
    $((took % 60)) $((cpu / 60)) $((cpu % 60)) "$status" | tee -a "${TIER_TIMES:-/dev/null}"
if [ "$status" -eq 5 ]; then
    if [ "${TIER_MAY_BE_EMPTY:-}" = 1 ]; then
        echo "tier $tier: nothing selected by PYTEST_ARGS" >&2
        exit 0
    fi
    echo "tier $tier: no tests selected; has the tier lost its markers?" >&2
fi
exit "$status"
