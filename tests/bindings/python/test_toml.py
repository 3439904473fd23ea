"""Python values written as TOML (bindings/python/payback/_toml.py): read back by Python's own TOML
reader, every value is the one written."""

from __future__ import annotations

import math
import tomllib

from hypothesis import given
from hypothesis import strategies as st

from payback import _toml

scalars = (
    st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text()
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(min_size=1), inner, max_size=4),
    max_leaves=12,
)


@given(values)
def test_a_value_reads_back_as_written(v):
    assert tomllib.loads(f"x = {_toml.value(v)}")["x"] == v


@given(st.dictionaries(st.text(min_size=1), st.dictionaries(st.text(min_size=1), scalars, max_size=3), max_size=3))
def test_a_document_of_tables_reads_back_as_written(tables):
    assert tomllib.loads(_toml.document(tables)) == tables


def test_a_nan_is_written_for_the_scenario_checks_to_reject():
    assert math.isnan(tomllib.loads(f"x = {_toml.value(float('nan'))}")["x"])


def test_arrays_of_tables():
    tables = {"rig": {"name": "r", "parts": [{"kind": "gpu", "price": 1.5}, {"kind": "cpu", "price": 2}]}}
    assert tomllib.loads(_toml.document(tables)) == tables


def test_a_key_ending_in_a_newline_is_quoted():
    # Hypothesis found it: a regex "$" matches before a final newline, so "0\n" was written bare.
    assert _toml.key("0\n") == '"0\\n"'
    assert tomllib.loads(f"{_toml.key('0' + chr(10))} = 1") == {"0\n": 1}
    assert _toml.key("gpu_hours") == "gpu_hours"
