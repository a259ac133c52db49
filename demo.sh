#!/usr/bin/env bash
# Vigil's demo (demo-robin/README.md): builds Vigil and Robin with the wrapper, runs Robin (a LangChain4j reminder agent)
# under -javaagent:vigil.jar over the reminder requests, lets Vigil diagnose the run and propose a new prompt and
# code changes, applies them to a copy of Robin with git apply, rebuilds that copy, runs the same requests again and
# prints the before/after table. Everything it writes goes under demo-robin/target/demo (wiped on each run);
# summary.json there holds the figures. Options are passed on, e.g. ./demo.sh --time-scale 1.0 for real time.
set -euo pipefail
cd "$(dirname "$0")"

echo "== building Vigil and Robin (./mvnw -B -q -DskipTests package)"
./mvnw -B -q -DskipTests package

java -jar demo-robin/target/demo-robin.jar --root . "$@"
