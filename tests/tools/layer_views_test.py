#!/usr/bin/env python3
"""The build's layer views (lib/CMakeLists.txt, payback_core_layer): each layer's sources compile
against a folder that holds its own layer and the layers before it, and nothing after it, so an
include that breaks the layer rule fails to compile.

Usage: layer_views_test.py COMPILER VIEWS REPOSITORY
  COMPILER: the C++ compiler; VIEWS: the build's layers/ folder; REPOSITORY: the source tree.
Each layer's view is asked with __has_include for one public and one private header of every core
layer (the compiler answers as it would for the layer's own sources); exit 0 when every answer is the
rule's.
"""
import pathlib
import subprocess
import sys
import tempfile

compiler, views, repo = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
LAYERS = ["base", "finance", "energy", "market", "workload", "scenario", "model", "whatif"]


def probes(layer: str) -> list[str]:
    """One public and (where the layer has one) one private header of a layer, as sources write them."""
    public = sorted((repo / "lib/include/payback" / layer).glob("*.hpp"))[0].name
    found = [f"payback/{layer}/{public}"]
    private = sorted((repo / "lib/src" / layer).glob("*.hpp"))
    if private:
        found.append(f"{layer}/{private[0].name}")
    return found


failures = []
with tempfile.TemporaryDirectory() as tmp:
    for position, layer in enumerate(LAYERS):
        view = views / layer
        lines = []
        for other_position, other in enumerate(LAYERS):
            visible = other_position <= position
            for header in probes(other):
                lines += [f'#if {"!" if visible else ""}__has_include("{header}")',
                          f'#error "{layer} {"does not see" if visible else "sees"} {header}"', "#endif"]
        probe = pathlib.Path(tmp) / f"{layer}.cpp"
        probe.write_text("\n".join(lines) + "\n")
        run = subprocess.run([compiler, "-std=c++20", "-fsyntax-only", f"-I{view}/include", f"-I{view}/src", str(probe)],
                             capture_output=True, text=True)
        if run.returncode != 0:
            failures.append(f"{layer}'s view:\n{run.stderr}")

for failure in failures:
    print(failure)
print(f"layer_views: {len(LAYERS) - len(failures)} of {len(LAYERS)} layers see exactly the layers the rule allows")
sys.exit(1 if failures else 0)
