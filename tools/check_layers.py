#!/usr/bin/env python3
"""The layer rule (docs/architecture.md, "Layers"), checked on every #include in lib/, apps/ and bindings/.

The core's layers, in order: a file in one includes only its own layer and the layers before it.
  base finance energy market workload scenario model whatif
model/engine.hpp and model/metrics.hpp, the month model everything else drives, include only base/ and
finance/ (and metrics.hpp the engine). Beside the core: report/ (lib/report) and bench/ (lib/bench) include the core's public headers
and their own; apps/ and bindings/ include any public header. Only the core's own sources include its
private headers (lib/src/<layer>/*.hpp, written "<layer>/name.hpp").

Usage: tools/check_layers.py [ROOT]   (ROOT: the repository, by default this script's)
Prints one line per broken include, "file:line: <layer> includes <layer> (\"path\")", and exits 1;
exits 0 when every include keeps the rule.
"""
from __future__ import annotations

import pathlib
import re
import sys

CORE = ["base", "finance", "energy", "market", "workload", "scenario", "model", "whatif"]
# The month model takes nothing from markets or scenarios (metrics.hpp reads the engine's months).
NARROW = {"lib/include/payback/model/engine.hpp": {"base", "finance"},
          "lib/include/payback/model/metrics.hpp": {"base", "finance", "payback/model/engine.hpp"}}
SUFFIXES = {".cpp", ".hpp", ".cu", ".cuh", ".h"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of_file(rel: str) -> str | None:
    """The layer a source file belongs to, from its path; None for files the rule does not cover."""
    parts = rel.split("/")
    if rel.startswith("lib/report/"):
        return "report"
    if rel.startswith("lib/bench/"):
        return "bench"
    if rel.startswith(("lib/include/payback/", "lib/src/")):
        layer = parts[3] if parts[1] == "include" else parts[2]
        return layer if layer in CORE and len(parts) > (4 if parts[1] == "include" else 3) else "?"
    if parts[0] in ("apps", "bindings"):
        return parts[0]
    return None


def target_of_include(path: str) -> tuple[str, bool] | None:
    """(layer, private) of an include path; None for a file of the includer's own folder."""
    parts = path.split("/")
    if parts[0] == "payback" and len(parts) > 2:
        return parts[1], False
    if parts[0] in CORE and len(parts) > 1:
        return parts[0], True
    return None


def problems(root: pathlib.Path) -> list[str]:
    found: list[str] = []
    for top in ("lib", "apps", "bindings"):
        for file in sorted((root / top).rglob("*")):
            if file.suffix not in SUFFIXES or not file.is_file():
                continue
            rel = file.relative_to(root).as_posix()
            layer = layer_of_file(rel)
            if layer is None:
                continue
            if layer == "?":
                found.append(f"{rel}:1: not in a layer's folder (lib/include/payback/<layer>/, lib/src/<layer>/)")
                continue
            for number, line in enumerate(file.read_text(errors="replace").splitlines(), start=1):
                match = INCLUDE.match(line)
                if not match or (target := target_of_include(match.group(1))) is None:
                    continue
                to, private = target
                if to not in CORE + ["report", "bench"]:
                    found.append(f'{rel}:{number}: {layer} includes "{match.group(1)}", no layer of that name')
                elif private and not rel.startswith("lib/src/"):
                    found.append(f'{rel}:{number}: {layer} includes {to}\'s private header ("{match.group(1)}")')
                elif rel in NARROW and to not in NARROW[rel] and match.group(1) not in NARROW[rel]:
                    found.append(f'{rel}:{number}: model includes {to} ("{match.group(1)}"); '
                                 f"{rel.rsplit('/', 1)[1]} includes only base and finance")
                elif not allowed(layer, to):
                    found.append(f'{rel}:{number}: {layer} includes {to} ("{match.group(1)}")')
    return found


def allowed(layer: str, to: str) -> bool:
    if layer in CORE:
        return to in CORE and CORE.index(to) <= CORE.index(layer)
    if layer in ("report", "bench"):
        return to in CORE or to == layer
    return True  # apps and bindings: any public header


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    if not (root / "lib").is_dir():
        print(f"check_layers: {root} has no lib/ folder", file=sys.stderr)
        return 2
    found = problems(root)
    for line in found:
        print(line)
    if found:
        print(f"check_layers: {len(found)} include(s) break the layer rule (docs/architecture.md, \"Layers\")",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
