"""Running impact from a benchmark: an environment without the caller's IMPACT_* settings or CI
markers (so that a benchmark run inside CI measures the same thing as one at a desk), a timed run
that stops the benchmark on failure, and a fresh clone."""
import os
import shutil
import subprocess
import sys
import time


def clean_env(system_path_first=False):
    out = {k: v for k, v in os.environ.items() if not k.startswith("IMPACT_")}
    for var in ("CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE"):
        out.pop(var, None)
    if system_path_first:
        out["PATH"] = "/usr/bin:" + out.get("PATH", "")
    return out


def timed_run(who, argv, cwd, system_path_first=False):
    """(seconds, completed process); exits naming `who` and the command when it fails."""
    start = time.perf_counter()
    result = subprocess.run([str(a) for a in argv], cwd=cwd, env=clean_env(system_path_first), capture_output=True,
                            text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"{who}: {' '.join(map(str, argv))} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return elapsed, result


def clone(source, where):
    if where.exists():
        shutil.rmtree(where)
    subprocess.run(["git", "clone", "-q", str(source), str(where)], check=True)
    return where
