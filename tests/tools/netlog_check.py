#!/usr/bin/env python3
"""tests/tools/netlog_check.py NET.json - the requests a page made, from
Chromium's --log-net-log: every URL request whose initiator is an origin (a
page's; the browser's own background requests, updates and the like, carry
"not an origin"). Prints them; exit status 1 if there is any."""
import json
import sys

d = json.load(open(sys.argv[1]))
names = {v: k for k, v in d["constants"]["logEventTypes"].items()}
found = []
for e in d["events"]:
    p = e.get("params", {})
    if names.get(e["type"]) == "URL_REQUEST_START_JOB" and p.get("initiator", "not an origin") != "not an origin":
        found.append("%s (initiator %s)" % (p.get("url"), p.get("initiator")))
for f in found:
    print(f)
sys.exit(1 if found else 0)
