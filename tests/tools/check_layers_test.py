#!/usr/bin/env python3
"""tools/check_layers.py: the repository keeps the layer rule, and planted bad includes are caught.

Usage: check_layers_test.py REPOSITORY   (exit 0 when every case holds)
"""
import pathlib
import shutil
import subprocess
import sys
import tempfile

repo = pathlib.Path(sys.argv[1]).resolve()
checker = repo / "tools" / "check_layers.py"


def run(root: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(checker), str(root)], capture_output=True, text=True)


failures = []
today = run(repo)
if today.returncode != 0:
    failures.append(f"the repository breaks the rule:\n{today.stdout}")

# Each plant: (file, the include planted on its line 3, the line the checker must print).
plants = [
    ("lib/src/base/error.cpp", '#include "payback/whatif/montecarlo.hpp"',
     'lib/src/base/error.cpp:3: base includes whatif ("payback/whatif/montecarlo.hpp")'),
    ("lib/include/payback/market/catalog.hpp", '#include "payback/scenario/scenario.hpp"',
     'lib/include/payback/market/catalog.hpp:3: market includes scenario ("payback/scenario/scenario.hpp")'),
    ("lib/include/payback/model/engine.hpp", '#include "payback/energy/tariff.hpp"',
     'lib/include/payback/model/engine.hpp:3: model includes energy ("payback/energy/tariff.hpp"); '
     "engine.hpp includes only base and finance"),
    ("lib/bench/src/measure.cpp", '#include "base/csv_reader.hpp"',
     'lib/bench/src/measure.cpp:3: bench includes base\'s private header ("base/csv_reader.hpp")'),
    ("apps/main.cpp", '#include "whatif/sample_state.hpp"',
     'apps/main.cpp:3: apps includes whatif\'s private header ("whatif/sample_state.hpp")'),
    ("lib/bench/src/measure.cpp", '#include "payback/report/html_report.hpp"',
     'lib/bench/src/measure.cpp:3: bench includes report ("payback/report/html_report.hpp")'),
]
for file, include, expected in plants:
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        for top in ("lib", "apps", "bindings"):
            shutil.copytree(repo / top, root / top, ignore=shutil.ignore_patterns("__pycache__"))
        target = root / file
        lines = target.read_text().splitlines()
        target.write_text("\n".join(lines[:2] + [include] + lines[2:]) + "\n")
        result = run(root)
        if result.returncode != 1 or result.stdout.strip() != expected:
            failures.append(f"planted {include} in {file}: exit {result.returncode}, printed\n"
                            f"{result.stdout}{result.stderr}expected exit 1 and\n{expected}")

for failure in failures:
    print(failure)
print(f"check_layers: {len(plants) + 1 - len(failures)} of {len(plants) + 1} cases hold")
sys.exit(1 if failures else 0)
