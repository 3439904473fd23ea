#!/usr/bin/env python3
"""The wheel stands alone (./dev test runs this; docs/install.md, "Python").

Builds the wheel with `pip wheel` (build isolation: scikit-build-core and pybind11 come from the
package registry), installs it into a new virtual environment outside the repository and, from a
directory outside it with $PAYBACK_PRICING_DIR and $PYTHONPATH unset: imports payback, compares a
scenario, lists a catalog and runs the console script and `python -m payback`. Each of those runs
under strace, and touching any path of the source tree (the build tree included) fails the check.
The wheel's version must be the CMake project's.

usage: check_wheel.py SOURCE_DIR PAYBACK_BINARY
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

# A scenario that reads the catalogs: a cloud instance, a grid region and a rental market.
SCENARIO = "rtx3080-rental.toml"

PYTHON_CHECKS = """
import importlib.metadata, json, sys
import payback
from pathlib import Path
venv = Path(sys.prefix)
assert Path(payback.__file__).is_relative_to(venv), payback.__file__
assert payback.__version__ == importlib.metadata.version("payback") == sys.argv[1], payback.__version__
directory, reason = payback.catalog_directory()
assert Path(directory).is_relative_to(venv) and reason == "the Python package's data", (directory, reason)
gpus = payback.catalog("gpus")
assert len(gpus) > 10 and "RTX 3080 10GB" in set(gpus["name"]), len(gpus)
print(json.dumps(payback.load(sys.argv[2]).compare().report))
"""


def fail(message: str, work: Path) -> None:
    sys.exit(f"check_wheel: {message} (left in {work})")


def run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    result: subprocess.CompletedProcess[str] = subprocess.run(command, text=True, capture_output=True, **kwargs)  # type: ignore[call-overload]
    if result.returncode != 0:
        sys.exit(f"check_wheel: {' '.join(command)} exited {result.returncode}:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return result


def traced(command: list[str], work: Path, source: Path, env: dict[str, str]) -> str:
    """stdout of `command`, run under strace; fails when any file call names a path in `source`."""
    trace = work / "strace.log"
    result = subprocess.run(["strace", "-f", "-qq", "-e", "trace=%file", "-o", str(trace), *command],
                            cwd=work, env=env, text=True, capture_output=True)
    if result.returncode != 0:
        fail(f"{' '.join(command)} exited {result.returncode}: {result.stderr.strip()}", work)
    touched = [line for line in trace.read_text().splitlines() if f'"{source}/' in line or f'"{source}"' in line]
    if touched:
        fail(f"{' '.join(command)} touched the source tree:\n  " + "\n  ".join(touched[:5]), work)
    return result.stdout


def main() -> None:
    source, binary = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    version = re.search(r"project\(payback VERSION ([0-9.]+)", (source / "CMakeLists.txt").read_text())
    assert version is not None
    version_text = version.group(1)
    work = Path(tempfile.mkdtemp(prefix="payback-wheel-"))
    print(f"check_wheel: building the wheel in {work}", flush=True)

    env = dict(os.environ, CMAKE_BUILD_PARALLEL_LEVEL=os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2"))
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(work / "dist"), str(source)],
        env=env)
    wheels = list((work / "dist").glob("payback-*.whl"))
    if len(wheels) != 1:
        fail(f"expected one wheel, found {wheels}", work)
    wheel = wheels[0]
    if not wheel.name.startswith(f"payback-{version_text}-"):
        fail(f"the wheel {wheel.name} is not version {version_text}", work)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        entry_points = next((archive.read(n).decode() for n in names if n.endswith("entry_points.txt")), "")
    # The module's stubs: one per submodule (bindings/python/payback/_core/*.pyi), all of them.
    stubs = sorted(f"payback/_core/{p.name}" for p in (source / "bindings/python/payback/_core").glob("*.pyi"))
    for expected in ["payback/__init__.py", "payback/__main__.py", "payback/bin/payback", "payback/py.typed",
                     "payback/_core/__init__.pyi", *stubs, "payback/share/payback/pricing/gpus.csv",
                     "payback/share/payback/pricing/tariffs", "payback/share/payback/scenarios/venus-2019.toml"]:
        if not any(n == expected or n.startswith(expected + "/") for n in names):
            fail(f"the wheel has no {expected}", work)
    if not any(re.fullmatch(r"payback/_core\..*\.so", n) for n in names):
        fail("the wheel has no payback/_core module", work)
    if "payback = payback.__main__:main" not in entry_points:
        fail(f"the wheel's console script is missing: {entry_points!r}", work)
    print(f"check_wheel: {wheel.name}, {wheel.stat().st_size / 1e6:.1f} MB, {len(names)} files", flush=True)

    # A new environment outside the repository; the package's own dependencies come from the registry.
    venv = work / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    run([str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", str(wheel)])

    shutil.copy(source / "scenarios" / SCENARIO, work / SCENARIO)
    clean = {k: v for k, v in os.environ.items()
             if k not in ("PAYBACK_PRICING_DIR", "PAYBACK_DEFAULT_SCENARIO", "PYTHONPATH", "VIRTUAL_ENV")}
    clean["MPLBACKEND"] = "Agg"
    clean["MPLCONFIGDIR"] = str(work / "matplotlib")
    scenario = str(work / SCENARIO)
    expected = run([str(binary), "compare", scenario, "--json"], cwd=work, env=clean).stdout

    from_python = traced([str(venv / "bin" / "python"), "-c", PYTHON_CHECKS, version_text, scenario], work, source, clean)
    if json.loads(from_python) != json.loads(expected):
        fail("the installed package's comparison differs from the program's", work)
    from_script = traced([str(venv / "bin" / "payback"), "compare", scenario, "--json"], work, source, clean)
    if from_script != expected:
        fail("the console script's comparison differs from the program's", work)
    where = traced([str(venv / "bin" / "python"), "-m", "payback", "catalog", "--where"], work, source, clean).splitlines()
    if not (Path(where[0]).is_relative_to(venv) and where[1].startswith("beside ")):
        fail(f"python -m payback found its catalogs elsewhere: {where}", work)
    listed = traced([str(venv / "bin" / "payback"), "catalog", "gpus", "--csv"], work, source, clean)
    if "RTX 3080" not in listed:
        fail("the console script's catalog has no RTX 3080", work)
    shown = traced([str(venv / "bin" / "payback"), "--version"], work, source, clean).splitlines()[0]
    if shown != f"payback {version_text}":
        fail(f"the console script says {shown!r}", work)

    print(f"check_wheel: the installed wheel compares, lists and runs without the source tree ({where[0]})")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
