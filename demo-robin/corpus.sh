#!/usr/bin/env bash
# Regenerates Vigil's labelled corpus (docs/EVAL.md) under samples/corpus and measures Vigil on it:
# builds Vigil, Robin and the shop agent with the wrapper, plays 270 scripted conversations (190 with the shop
# agent, 80 with Robin; seed 18) in two child JVMs under -javaagent:vigil.jar, exports the events, writes the labels
# from what was planted, then runs `vigil-analyzer eval` on them into samples/corpus/eval.
# Options are passed to the generator: --seed N, --out DIR (then eval writes into DIR/eval). --no-build skips the
# build (the jars must exist).
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
out=samples/corpus
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0 ;;
    --out) out="$2"; args+=("$1" "$2"); shift ;;
    *) args+=("$1") ;;
  esac
  shift
done

if [ "$build" = 1 ]; then
  echo "== building Vigil, Robin and the shop agent (./mvnw -B -q -DskipTests package)"
  ./mvnw -B -q -DskipTests package -pl demo-robin -am
fi

java -cp demo-robin/target/demo-robin.jar dev.vigil.demo.corpus.CorpusGenerator --root . ${args[@]+"${args[@]}"}
java -jar vigil-analyzer/target/vigil-analyzer.jar eval --events "$out/events.jsonl" --labels "$out/labels.jsonl" \
  --rules "$out/rules.json" --out "$out/eval"
