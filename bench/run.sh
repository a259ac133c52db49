#!/usr/bin/env bash
# Prints every benchmark figure of docs/BENCHMARKS.md in one run, each with its unit and what it
# is compared to: per-call time added by Vigil and by the OpenTelemetry Java agent (JMH), start-up as a user sees it
# (plain, Vigil, OpenTelemetry: a process whose main calls a tool and exits, and a Spring Boot LangChain4j application,
# vigil-bench/support-agent, until it has served its first chat request), the analyzer's run throughput and heap at 10^4, 10^5, 10^6 events
# (and over a conversation trace that the labelled corpus's generator, demo-robin, plays with seed 7), and watch's
# append-to-appraisal delay, and events per second through Kafka (ship, and a group of two watch --bootstrap
# instances, against a KRaft broker started in the benchmark's JVM). About 21-33 minutes on 2 cores, build included; the per-call figure paired in one JVM takes about 3 of them.
#
#   bench/run.sh                        # everything
#   bench/run.sh --quick                # fewer iterations and sizes, to check the command itself
#   bench/run.sh --only analyzer,watch  # some of: calls, backtoback, cpu, startup, analyzer, watch, kafka, fit
#   bench/run.sh --only cpu --work-root /dev/shm   # the queues on a tmpfs: without the file system's share
#
# The OpenTelemetry agent is resolved from Maven Central by the bench profile only (vigil-bench/pom.xml).
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -Pbench package -DskipTests
source bench/chronicle-java-options.sh
exec java "${CHRONICLE_JAVA_OPTIONS[@]}" -cp vigil-bench/target/vigil-bench.jar dev.vigil.bench.BenchmarkSuite \
  --vigil vigil-javaagent/target/vigil.jar \
  --otel vigil-bench/target/otel/opentelemetry-javaagent.jar \
  --analyzer vigil-analyzer/target/vigil-analyzer.jar --boot-app vigil-bench/support-agent/target/support-agent.jar \
  --corpus-jar demo-robin/target/demo-robin.jar "$@"
