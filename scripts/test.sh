#!/usr/bin/env bash
# The README's test command: the type checks and the tests side by side (the checks take half a
# minute of one core while the first test files start), failing if either fails.
set -uo pipefail
cd "$(dirname "$0")/.."
npm run --silent typecheck &
checks=$!
npx vitest run "$@"
tests=$?
wait "$checks"
types=$?
[ "$types" -eq 0 ] || echo "typecheck failed (exit $types)"
exit $(( tests != 0 || types != 0 ))
