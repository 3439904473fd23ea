"""``python -m payback`` and the ``payback`` console script: the command-line program that ships
inside the package (payback/bin/payback), run with the same arguments, exit code and terminal."""

from __future__ import annotations

import os
import sys
from importlib.resources import files
from typing import NoReturn


def main() -> NoReturn:
    program = str(files("payback") / "bin" / "payback")
    if not os.access(program, os.X_OK):
        sys.stderr.write(f"payback: the program is not in this package ({program}): reinstall it with `pip install .`\n")
        sys.exit(2)
    os.execv(program, ["payback", *sys.argv[1:]])


if __name__ == "__main__":
    main()
