"""pricing/: every CSV opens unchanged in the common readers, and the Frictionless descriptor
pricing/datapackage.json describes it (columns in order, types, constraints, keys) and validates."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest
from frictionless import validate

PRICING = Path(__file__).resolve().parents[2] / "pricing"
DESCRIPTOR = json.loads((PRICING / "datapackage.json").read_text(encoding="utf-8"))
RESOURCES = {resource["name"]: resource for resource in DESCRIPTOR["resources"]}


def field_names(resource: dict[str, Any]) -> list[str]:
    return [field["name"] for field in resource["schema"]["fields"]]


def errors_of(descriptor: Path) -> list[tuple[str, str, str]]:
    report = validate(str(descriptor))
    return [(task.name, error.type, error.message) for task in report.tasks for error in task.errors] + [
        ("package", error.type, error.message) for error in report.errors
    ]


def test_the_descriptor_covers_every_csv_and_nothing_else() -> None:
    assert DESCRIPTOR["profile"] == "tabular-data-package"
    assert sorted(f"{name}.csv" for name in RESOURCES) == sorted(p.name for p in PRICING.glob("*.csv"))
    for name, resource in RESOURCES.items():
        assert resource["path"] == f"{name}.csv"
        assert resource["format"] == "csv" and resource["mediatype"] == "text/csv"
        assert resource["encoding"] == "utf-8"
        assert resource["title"] and resource["description"]
        for field in resource["schema"]["fields"]:
            assert field["type"] and field["description"], f"{name}.{field['name']}"


def test_every_csv_validates_against_the_descriptor() -> None:
    assert errors_of(PRICING / "datapackage.json") == []


def test_validation_catches_a_bad_type_a_missing_required_cell_and_a_dangling_foreign_key(tmp_path: Path) -> None:
    # The same package with three cells broken: frictionless must name each, so the test above
    # cannot pass by checking nothing.
    copy = tmp_path / "pricing"
    shutil.copytree(PRICING, copy, ignore=shutil.ignore_patterns("tariffs"))
    instances = (copy / "cloud-instances.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    instances[1] = instances[1].replace(",V100 16GB,1,", ",V100 17GB,one,", 1)
    (copy / "cloud-instances.csv").write_text("".join(instances), encoding="utf-8")
    discounts = (copy / "rental-discounts.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    discounts[1] = discounts[1].replace("vast,1,0.2,", "vast,1,,", 1)
    (copy / "rental-discounts.csv").write_text("".join(discounts), encoding="utf-8")
    found = {(name, kind) for name, kind, _ in errors_of(copy / "datapackage.json")}
    assert found == {
        ("cloud-instances", "type-error"),
        ("cloud-instances", "foreign-key"),
        ("rental-discounts", "constraint-error"),
    }


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_the_file_is_plain_utf8_csv_with_the_header_first(name: str) -> None:
    raw = (PRICING / f"{name}.csv").read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf"), "no byte order mark"
    text = raw.decode("utf-8")
    assert text.endswith("\n") and "\r" not in text
    lines = text.split("\n")[:-1]
    assert lines[0] == ",".join(field_names(RESOURCES[name]))
    assert [n for n, line in enumerate(lines, 1) if line.startswith("#") or not line.strip()] == []


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_pandas_csv_and_duckdb_read_the_same_columns_and_rows(name: str) -> None:
    path = PRICING / f"{name}.csv"
    fields = field_names(RESOURCES[name])
    with path.open(newline="", encoding="utf-8") as file:
        reader = csv.DictReader(file)
        rows = list(reader)
        assert reader.fieldnames == fields
    assert rows and all(None not in row and len(row) == len(fields) for row in rows)

    frame = pd.read_csv(path)
    assert list(frame.columns) == fields
    assert len(frame) == len(rows)

    table = duckdb.read_csv(str(path))
    assert table.columns == fields
    assert table.shape == (len(rows), len(fields))
    # Cell for cell, the text of the first column is the same in all three readers.
    first = fields[0]
    assert [str(v) for v in frame[first]] == [row[first] for row in rows]
    assert [str(v[0]) for v in table.project(f'"{first}"').fetchall()] == [row[first] for row in rows]
