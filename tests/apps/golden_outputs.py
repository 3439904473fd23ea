#!/usr/bin/env python3
"""Every command's output for every ready scenario, against captures kept in tests/golden/.

The refactors of the layers issue must keep behaviour: `payback compare --json`, `cashflow --csv`,
`montecarlo --json --samples 10000` (scenarios with [uncertainty]) and `report` of each file in
scenarios/ must stay byte for byte what tests/golden/ holds. One field is left out, the Monte
Carlo's wall time ("seconds"). The hot paths run the baseline instruction set (PAYBACK_ISA=baseline),
so that the outputs are the same on every x86-64 machine, and today is fixed (PAYBACK_TODAY), so that
the prices' staleness ("stale", the report's warning) is the same on every day.

    golden_outputs.py PAYBACK SOURCE_DIR            check (exit 1 naming every file that differs)
    golden_outputs.py PAYBACK SOURCE_DIR --capture  write tests/golden/ anew (say why in the commit)
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile


def outputs(payback, source, scenario):
    """(file name, bytes) of each command's output for one scenario. The outputs name the scenario's
    file, so every command runs in the source directory with the path scenarios/NAME.toml."""
    env = dict(os.environ, PAYBACK_ISA="baseline", NO_COLOR="1", PAYBACK_TODAY="2026-12-01")
    env.pop("PAYBACK_DB", None)  # a price history named there would put its prices in the answers
    name = scenario.stem
    scenario = scenario.relative_to(source)

    def run(*args):
        done = subprocess.run([payback, *args], capture_output=True, env=env, cwd=source, timeout=300)
        return done.returncode, done.stdout

    yield f"{name}.compare.json", run("compare", str(scenario), "--json")[1]
    yield f"{name}.cashflow.csv", run("cashflow", str(scenario), "--csv")[1]
    code, text = run("montecarlo", str(scenario), "--json", "--samples", "10000")
    if code == 0:  # exit 2 without [uncertainty]
        result = json.loads(text)
        del result["seconds"]
        yield f"{name}.montecarlo.json", (json.dumps(result, indent=2) + "\n").encode()
    with tempfile.TemporaryDirectory() as tmp:
        page = pathlib.Path(tmp) / "report.html"
        run("report", str(scenario), "-o", str(page))
        yield f"{name}.report.html", page.read_bytes()


def main():
    payback, source = os.path.abspath(sys.argv[1]), pathlib.Path(sys.argv[2]).resolve()
    golden = source / "tests" / "golden"
    capture = "--capture" in sys.argv[3:]
    scenarios = sorted((source / "scenarios").glob("*.toml"))
    differing, seen = [], set()
    if capture:
        golden.mkdir(exist_ok=True)
    for scenario in scenarios:
        for file, data in outputs(payback, source, scenario):
            seen.add(file)
            if capture:
                (golden / file).write_bytes(data)
            elif not (golden / file).exists() or (golden / file).read_bytes() != data:
                differing.append(file)
    if capture:
        print(f"captured {len(seen)} files of {len(scenarios)} scenarios into {golden}")
        return 0
    missing = sorted(p.name for p in golden.iterdir() if p.name not in seen)
    for file in differing:
        print(f"differs from tests/golden/{file}", file=sys.stderr)
    for file in missing:
        print(f"tests/golden/{file} has no scenario any more", file=sys.stderr)
    print(f"{len(seen) - len(differing)} of {len(seen)} outputs as captured")
    return 1 if differing or missing else 0


if __name__ == "__main__":
    sys.exit(main())
