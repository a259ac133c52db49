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
# the child's queue is read back in this JVM: Chronicle's module access on Java 17+
exec java --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED \
  --add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED \
  --add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED \
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED \
  --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED \
  -Dchronicle.analytics.disable=true -cp vigil-bench/target/vigil-bench.jar dev.vigil.bench.BackToBackOne "$@"
