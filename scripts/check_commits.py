"""Check that every commit since the rule was set has a subject of at most 72 characters
(CONTRIBUTING.md): ``python3 scripts/check_commits.py``. Outside a git clone, or in a
shallow one that lacks the commit where the rule starts, it says so and passes."""

from __future__ import annotations

import subprocess
import sys

#: The last commit before the rule: every later commit is checked.
SINCE = "0664c3d"
LIMIT = 72


def main() -> int:
    try:
        done = subprocess.run(["git", "log", "--format=%h %s", f"{SINCE}..HEAD"],
                              capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        print(f"   not checked: no git history back to {SINCE} here")
        return 0
    long = [line for line in done.stdout.splitlines()
            if len(line.split(" ", 1)[1]) > LIMIT]
    for line in long:
        short, subject = line.split(" ", 1)
        print(f"{short}: subject of {len(subject)} characters (at most {LIMIT}): "
              f"{subject[:LIMIT]}…")
    return 1 if long else 0


if __name__ == "__main__":
    sys.exit(main())
