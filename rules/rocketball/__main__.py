"""`python -m rules.rocketball replay|verify FILE`: the one command line (python -m rules, see
rules/__main__.py) for Rocketball's records."""

from __future__ import annotations

import sys

from rules.__main__ import main as records_main


def main(argv: list[str] | None = None) -> int:
    return records_main(argv, game="rocketball")


if __name__ == "__main__":
    sys.exit(main())
