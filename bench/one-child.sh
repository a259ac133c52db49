#!/usr/bin/env bash
# One child of the back-to-back and CPU figures under Vigil (dev.vigil.bench.BackToBackOne), with an agent jar of your
# choice and JVM options of your own for the child: to compare two builds of the agent one child after the other,
# alternating, where the suite's medians of three are too coarse (docs/BENCHMARKS.md). It prints each measured round's
# events/s and CPU per call (and the writer thread's), the collector's pauses over the child's life, and whether the
# queue held every call's event. Build the bench jar first: ./mvnw -B -q -Pbench package -DskipTests
#
#   bench/one-child.sh AGENT_JAR fresh|objects|literal THREADS CALLS_PER_THREAD ROUNDS pinned|both [child JVM options]
#   bench/one-child.sh vigil-javaagent/target/vigil.jar objects 1 2000000 2 pinned
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/chronicle-java-options.sh
exec java "${CHRONICLE_JAVA_OPTIONS[@]}" -cp vigil-bench/target/vigil-bench.jar dev.vigil.bench.BackToBackOne "$@"
