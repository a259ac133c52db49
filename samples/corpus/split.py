#!/usr/bin/env python3
"""Splits the corpus once, by scenario, into a tuning part and a measuring part (docs/EVAL.md, "Honest figures").

A scenario (agent/kind in manifest.jsonl) goes to the measuring part when the first byte of the SHA-256 of its name
is odd: a rule fixed before any figure was seen, that no tuning can move. Writes split.json and, with each session's
scenario as its group, labels-tune.jsonl and labels-measure.jsonl.
"""
import hashlib, json, os

here = os.path.dirname(os.path.abspath(__file__))
rows = [json.loads(l) for l in open(os.path.join(here, "manifest.jsonl"))]
parts = {}
for r in rows:
    scenario = r["agent"] + "/" + r["kind"]
    parts[scenario] = "measure" if hashlib.sha256(scenario.encode()).digest()[0] % 2 else "tune"
with open(os.path.join(here, "split.json"), "w") as f:
    json.dump({"rule": "measure when the first byte of SHA-256(agent/kind) is odd",
               "scenarios": dict(sorted(parts.items()))}, f, indent=1)
    f.write("\n")
for part in ("tune", "measure"):
    with open(os.path.join(here, "labels-" + part + ".jsonl"), "w") as f:
        for r in rows:
            scenario = r["agent"] + "/" + r["kind"]
            if parts[scenario] == part:
                f.write(json.dumps({"session": r["session"], "failed": r["failed"], "group": scenario},
                                   separators=(",", ":")) + "\n")
