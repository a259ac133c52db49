#!/usr/bin/env bash
# Vigil's demo, first version: builds Vigil with the wrapper, then runs one reflective pass over a bundled trace
# shaped like the paper's Robin-A case study (12 reminders, receipts ~97 s late, toasts shown before their
# receipt, naive and UTC timestamps mixed) and prints the diagnosis. The Robin before/after demo replaces it.
set -euo pipefail
cd "$(dirname "$0")"

echo "== building Vigil (./mvnw -B -q -DskipTests package)"
./mvnw -B -q -DskipTests package

work=target/demo
rm -rf "$work"
mkdir -p "$work"

pass() {
  java -jar vigil-analyzer/target/vigil-analyzer.jar run \
    --events samples/robin-a.jsonl \
    --now 2025-11-01T00:00:00Z \
    --emobank "$work/emobank" \
    --out "$work/output"
}

echo
echo "== one reflective pass over samples/robin-a.jsonl"
pass

echo
echo "== the same pass again: every event was deposited already, nothing is counted twice"
pass | sed -n 1p

echo
echo "report: $work/output/report.md   EmoBank: $work/emobank"
