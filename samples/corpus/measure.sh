#!/usr/bin/env bash
# The corpus's honest figures (docs/EVAL.md, "Honest figures"): measured on the measuring part of the split
# (split.json, made once by split.py), never on the part the word lists and the model are tuned on.
# Needs the analyzer's jar: ./mvnw -B -q package -DskipTests -pl vigil-analyzer -am
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=${VIGIL_JAR:-vigil-analyzer/target/vigil-analyzer.jar}
c=samples/corpus
out=${1:-output/corpus}
echo "== the rules' alarm on the measuring part"
java -jar "$jar" eval --events $c/events.jsonl --labels $c/labels-measure.jsonl --rules $c/rules.json \
  --out "$out/measure-rules" 2>/dev/null | sed -n 2p
echo "== fit on the tuning part, groups by scenario"
java -jar "$jar" fit --events $c/events.jsonl --labels $c/labels-tune.jsonl --rules $c/rules.json \
  --out "$out/fit-tune" 2>/dev/null | sed -n 2p
echo "== that model on the measuring part"
java -jar "$jar" eval --events $c/events.jsonl --labels $c/labels-measure.jsonl --rules $c/rules.json \
  --model "$out/fit-tune/model.json" --out "$out/measure-model" 2>/dev/null | sed -n 2,3p
