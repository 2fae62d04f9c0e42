"""`.ci/run` runs the test command README.md gives a user ("Set up and run the tests"),
so that what CI proves is what the README promises."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_test_command() -> str:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Set up and run the tests", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if "pytest" in line][-1].strip()


def test_ci_runs_the_readme_test_command():
    command = readme_test_command()
    assert command.startswith("python -m pytest tests"), command
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
    assert command in ci_lines, f"README's test command {command!r} is not a line of .ci/run"
