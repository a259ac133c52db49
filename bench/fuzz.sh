#!/usr/bin/env bash
# A fuzzing campaign over every parser's fuzz test (docs/CONTRIBUTING.md#fuzzing): Jazzer with JAZZER_FUZZ=1, one
# target at a time in its own JVM, the minutes split evenly among them. Each target starts from its committed inputs
# (src/test/resources/<package>/<Test>Inputs/<method>/) and the corpus of earlier campaigns (<module>/.cifuzz-corpus/,
# ignored by git); a crash, hang or out-of-memory is written by Jazzer into the inputs directory as crash-<sha1>
# (timeout-, oom-), where it stays as a regression input that `./mvnw verify` replays once the parser is fixed.
# Prints, per target, its seconds, executions, executions per second, coverage and findings, and the logs' folder.
#
#   bench/fuzz.sh            # 10 minutes in all
#   bench/fuzz.sh 30         # 30 minutes in all
#   bench/fuzz.sh 2 Labels   # only the targets whose name contains Labels
#
# Each target holds one core for its whole share (plus about 20 s of Maven and JVM start-up).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
only=${2:-}

# module, test class, fuzz test method, classes to instrument for coverage beside Vigil's own (the parser's library)
targets=(
  "vigil-event dev.vigil.observe.EventJsonFuzzTest readLine com.fasterxml.jackson.core.**"
  "vigil-event dev.vigil.observe.HeaderScanFuzzTest sameAsParser com.fasterxml.jackson.core.**"
  "vigil-event dev.vigil.observe.EventWireFuzzTest readExcerpt com.fasterxml.jackson.dataformat.smile.**,net.openhft.chronicle.bytes.**"
  "vigil-analyzer dev.vigil.orchestrate.RulesFuzzTest loadRules dev.cel.**,com.fasterxml.jackson.core.**"
  "vigil-analyzer dev.vigil.adapt.prompt.PromptPatchFuzzTest patchPrompt -"
  "vigil-analyzer dev.vigil.eval.LabelsFuzzTest readLabels com.fasterxml.jackson.core.**"
  "vigil-analyzer dev.vigil.learn.SessionModelFuzzTest loadModel com.fasterxml.jackson.core.**"
  "vigil-analyzer dev.vigil.kafka.KafkaRecordFuzzTest eventRecord com.fasterxml.jackson.core.**"
  "vigil-analyzer dev.vigil.kafka.KafkaRecordFuzzTest journalEntry com.fasterxml.jackson.core.**"
  "vigil-analyzer dev.vigil.ingest.otlp.OtlpFuzzTest jsonBody com.google.protobuf.**,com.fasterxml.jackson.core.**"
  "vigil-analyzer dev.vigil.ingest.otlp.OtlpFuzzTest protobufBody com.google.protobuf.**,io.opentelemetry.proto.**"
)
if [[ -n "$only" ]]; then
  kept=()
  for t in "${targets[@]}"; do [[ "$t" == *"$only"* ]] && kept+=("$t"); done
  targets=("${kept[@]}")
fi
if [[ ${#targets[@]} -eq 0 ]]; then
  echo "no fuzz test matches '$only'" >&2
  exit 2
fi
seconds=$(( minutes * 60 / ${#targets[@]} ))
if [[ $seconds -lt 10 ]]; then
  seconds=10
fi

echo "building the analyzer and what it needs (tests compiled, not run)"
# the format check is verify's business, not the campaign's
./mvnw -B -q install -DskipTests -Dspotless.check.skip=true -pl vigil-analyzer -am
logs=target/fuzz/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$logs"
echo "fuzzing ${#targets[@]} targets for ${seconds} s each (${minutes} min in all), logs in $logs"
echo

printf '%-44s %8s %12s %8s %7s  %s\n' "target" "seconds" "executions" "exec/s" "cov" "findings"
findings_total=0
for t in "${targets[@]}"; do
  read -r module class method extra <<<"$t"
  simple=${class##*.}
  inputs="$module/src/test/resources/$(dirname "${class//.//}")/${simple}Inputs/$method"
  before=$(ls "$inputs" | sort)
  instrument="dev.vigil.**"
  [[ "$extra" != "-" ]] && instrument="$instrument,$extra"
  log="$logs/$simple.$method.log"
  start=$(date +%s)
  # a finding fails the test run: that is the campaign's result, not the script's
  (cd "$module" && JAZZER_FUZZ=1 ../mvnw -B -o surefire:test -Dtest="$simple#$method" -Dsurefire.failIfNoSpecifiedTests=false \
    -Djazzer.max_duration="${seconds}s" -Djazzer.instrument="$instrument" >"../$log" 2>&1) || true
  took=$(( $(date +%s) - start ))
  # libFuzzer's last status line: "#<executions> <event> cov: <edges> ft: ... exec/s: <rate> ..."
  status=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  execs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$status")
  rate=$(sed -nE 's/.*exec\/s: ([0-9]+).*/\1/p' <<<"$status")
  cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$status")
  new=$(comm -13 <(echo "$before") <(ls "$inputs" | sort) | tr '\n' ' ')
  [[ -n "$new" ]] && findings_total=$(( findings_total + $(wc -w <<<"$new") ))
  if [[ -z "$execs" ]]; then
    new="$new(no fuzzer status: see $log)"
  fi
  printf '%-44s %8s %12s %8s %7s  %s\n' "$simple.$method" "$took" "${execs:--}" "${rate:--}" "${cov:--}" "${new:-none}"
done
echo
echo "findings: $findings_total (new files in the targets' inputs directories: fix the parser, keep the input)"
