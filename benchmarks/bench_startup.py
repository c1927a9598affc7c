"""Hook start-up: a fresh process that loads the rules and answers one tool call.

A hook that runs per tool call (Claude Code's command hooks) pays Python
start-up, ruleweave's imports and ``RuleSet.load`` every time. This measures
that in fresh processes on ``examples/demo-repo``, against a naive hook run
the same way: import PyYAML and fnmatch, read every rule file under the
usual rule directories, ``yaml.safe_load`` each frontmatter, and fnmatch one
path against every glob. Run: ``python benchmarks/bench_startup.py``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

DEMO = Path(__file__).resolve().parent.parent / "examples" / "demo-repo"

RULEWEAVE = f"""
from ruleweave import RuleSet, RuleweaveConfig
ruleset = RuleSet.load(RuleweaveConfig(cwd={str(DEMO)!r}, project_root={str(DEMO)!r}))
hit = ruleset.session("hook").after_tool_call("Read", {{"file_path": "services/api/handlers.py"}})
assert hit is not None
"""

NAIVE = f"""
import fnmatch, os, yaml
root = {str(DEMO)!r}
globs = []
for dirpath, dirnames, filenames in os.walk(root):
    for name in filenames:
        if name.endswith((".md", ".mdc")):
            text = open(os.path.join(dirpath, name), encoding="utf-8").read()
            if text.startswith("---"):
                try:
                    data = yaml.safe_load(text.split("---", 2)[1]) or {{}}
                except yaml.YAMLError:
                    data = {{}}
                value = data.get("globs") if isinstance(data, dict) else None
                if isinstance(value, str):
                    globs.extend(g.strip() for g in value.split(","))
hits = [g for g in globs if fnmatch.fnmatch("services/api/handlers.py", g)]
"""


def run(code: str, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    runs = 9
    bare = run("pass", runs)
    naive = run(NAIVE, runs)
    ours = run(RULEWEAVE, runs)
    print(f"fresh-process hook start-up on examples/demo-repo (median of {runs} runs)")
    print(f"  bare python                      {bare:7.1f} ms")
    print(f"  naive hook (yaml + fnmatch)      {naive:7.1f} ms")
    print(f"  ruleweave load + one tool call   {ours:7.1f} ms")
    print(f"  ruleweave / naive: {ours / naive:.2f}x; above bare python: {ours - bare:.1f} ms")


if __name__ == "__main__":
    main()
