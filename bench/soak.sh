#!/usr/bin/env bash
# A soak with chaos: agent processes under -javaagent:vigil.jar make tool calls at a steady rate into one
# queue while the packaged `watch` tails it and runs a pass on a timer; agent processes and watch are SIGKILLed at
# random points (every 10-60 s each) and restarted at once. Afterwards it checks that each process's seq has no gap
# and no duplicate, that every queue event is in the EmoBank exactly once, that the bank reads back (`run`) without an
# internal thorn, and that watch's heap after a full GC and its open file descriptors did not grow from its warm-up
# to the end; then prints its figures (also in vigil-analyzer/target/soak.txt). The driver is the IT
# dev.vigil.watch.SoakIT, which `./mvnw verify` runs in its short form (45 s of load).
#
#   bench/soak.sh                 # 5 minutes of load, 3,000 events/s from 3 agent processes
#   bench/soak.sh 60              # an hour: 10^7 events and more
#   SEED=42 bench/soak.sh 5       # replays the kill points of a printed seed
#   RATE=5000 AGENTS=4 bench/soak.sh 10
#   WATCH_XMX=4g bench/soak.sh 60 # watch's heap (default 1g; an hour at 3,000 events/s puts ~10^7 in its window)
#
# The queue, the bank, the outputs and every process's output are left in vigil-analyzer/target/soak-work.
# MAVEN_ARGS passes options to Maven (MAVEN_ARGS=-o to build offline).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-5}"
./mvnw -B -q install -DskipTests -Dspotless.check.skip=true -pl vigil-analyzer -am   # the format is verify's concern, not the soak's
cd vigil-analyzer
status=0
../mvnw -B -q failsafe:integration-test failsafe:verify -Dit.test=SoakIT -Dvigil.soak.minutes="$minutes" \
  ${SEED:+-Dvigil.soak.seed="$SEED"} ${RATE:+-Dvigil.soak.rate="$RATE"} ${AGENTS:+-Dvigil.soak.agents="$AGENTS"} \
  ${WATCH_XMX:+-Dvigil.soak.watch-xmx="$WATCH_XMX"} \
  || status=$?
echo
echo "soak figures (vigil-analyzer/target/soak.txt):"
cat target/soak.txt 2>/dev/null || echo "  none: the soak did not get as far as its checks (see target/failsafe-reports)"
exit "$status"
