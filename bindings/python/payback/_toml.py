"""Python values as TOML: override values (``--set key=VALUE``) and whole scenarios from dicts."""

from __future__ import annotations

import json
import math
import numbers
import re
from collections.abc import Mapping, Sequence
from typing import TypeGuard

# fullmatch, not match with $: "$" also matches before a final newline ("0\n" is no bare key).
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _string(text: str) -> str:
    # JSON's escapes are TOML's, but TOML also wants DEL escaped.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def key(name: str) -> str:
    """A TOML key: bare when it can be, quoted otherwise (``"electricity.price_per_kwh"``)."""
    return name if _BARE_KEY.fullmatch(name) else _string(name)


def value(v: object) -> str:
    """One TOML value: a number, a string, a boolean, an array or an inline table."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        x = float(v)
        if math.isnan(x):
            return "nan"  # TOML reads it; the scenario's checks then reject it with the key's name
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return repr(x)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{key(str(k))} = {value(x)}" for k, x in v.items()) + " }" if v else "{}"
    if isinstance(v, Sequence):
        return "[" + ", ".join(value(x) for x in v) + "]"
    raise TypeError(f"cannot write a {type(v).__name__} as TOML: {v!r}")


def _is_table_array(v: object) -> TypeGuard[Sequence[Mapping[object, object]]]:
    return isinstance(v, Sequence) and not isinstance(v, str) and len(v) > 0 and all(isinstance(x, Mapping) for x in v)


def document(tables: Mapping[str, object]) -> str:
    """A TOML document from nested dicts: dicts become tables, lists of dicts arrays of tables."""
    lines: list[str] = []

    def emit(path: list[str], table: Mapping[str, object]) -> None:
        simple = {k: v for k, v in table.items() if not isinstance(v, Mapping) and not _is_table_array(v)}
        if path and (simple or not table):
            lines.append("[" + ".".join(key(p) for p in path) + "]")
        for k, v in simple.items():
            lines.append(f"{key(str(k))} = {value(v)}")
        for k, v in table.items():
            if isinstance(v, Mapping):
                emit(path + [str(k)], v)
            elif _is_table_array(v):
                for item in v:
                    lines.append("[[" + ".".join(key(p) for p in path + [str(k)]) + "]]")
                    lines.extend(f"{key(str(ik))} = {value(iv)}" for ik, iv in item.items())

    emit([], tables)
    return "\n".join(lines) + "\n"


def key_path(name: str) -> str:
    """A keyword argument's name as a key path: ``electricity__price_per_kwh`` is
    ``electricity.price_per_kwh`` and ``cloud__0__price_per_hour`` is ``cloud[0].price_per_hour``."""
    if "__" not in name:
        return name
    out = ""
    for part in name.split("__"):
        if part.isdigit():
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out
