"""Print the commands of the README's Quickstart block, one a line, without their comments.

`.ci/run` runs them as written, so the README's commands cannot drift from what CI proves.
"""

import pathlib
import re
import sys

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def quickstart_commands(text: str) -> list[str]:
    """The shell lines of the first ```bash block after the `## Quickstart` heading."""
    section = text.split("\n## Quickstart\n", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    if block is None:
        raise SystemExit("README.md: no ```bash block under ## Quickstart")
    return [line.split("  #", 1)[0].strip() for line in block.group(1).splitlines() if line.strip()]


if __name__ == "__main__":
    sys.stdout.write("".join(command + "\n" for command in quickstart_commands(README.read_text(encoding="utf-8"))))
