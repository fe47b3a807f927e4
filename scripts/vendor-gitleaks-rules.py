#!/usr/bin/env python3
"""Regenerate lib/share/gitleaks-rules.json from gitleaks' default config (config/gitleaks.toml, MIT).

Usage: python3 scripts/vendor-gitleaks-rules.py path/to/gitleaks.toml <gitleaks commit> > lib/share/gitleaks-rules.json
Keeps what a text scan needs (ids, regexes, secret groups, entropy, keywords, allow-lists by regex or
stopword); rules that match only on file paths are dropped.
"""
import json, sys, tomllib

config = tomllib.load(open(sys.argv[1], "rb"))
commit = sys.argv[2]

def allow(a):
    out = {k: a[k] for k in ("condition", "regexTarget", "regexes", "stopwords") if k in a}
    return out if ("regexes" in out or "stopwords" in out) else None

rules = []
for r in config["rules"]:
    if "regex" not in r:
        continue
    rule = {"id": r["id"], "regex": r["regex"]}
    for k in ("secretGroup", "entropy", "keywords"):
        if k in r:
            rule[k] = r[k]
    lists = [x for x in (allow(a) for a in r.get("allowlists", [])) if x]
    if lists:
        rule["allowlists"] = lists
    rules.append(rule)

g = config.get("allowlist", {})
json.dump({
    "source": "https://github.com/gitleaks/gitleaks/blob/%s/config/gitleaks.toml" % commit,
    "license": "MIT License, Copyright (c) 2019 Zachary Rice (see gitleaks-rules.LICENSE)",
    "generatedBy": "scripts/vendor-gitleaks-rules.py",
    "allowlist": {k: g[k] for k in ("regexes", "stopwords") if k in g},
    "rules": rules,
}, sys.stdout, indent=0, ensure_ascii=False)
sys.stdout.write("\n")
