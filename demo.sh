#!/usr/bin/env bash
# Vigil's demo. For now it builds Vigil and shows the analyzer's commands; the reflective pass over a sample
# trace and, later, the Robin before/after demo replace this as they land.
set -euo pipefail
cd "$(dirname "$0")"
./mvnw -B -q -DskipTests package
java -jar vigil-analyzer/target/vigil-analyzer.jar --help
