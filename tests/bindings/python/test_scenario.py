"""payback.load / loads / scenario, overrides, errors and pickling (bindings/python/payback/scenario.py)."""

from __future__ import annotations

import pickle
import tomllib

import pytest
from conftest import HAND, ROOT, VENUS

import payback
from payback import _toml


def test_load_reads_the_file_and_its_figures(venus):
    assert venus.name
    assert venus.source == str(VENUS)
    assert venus.currency == "USD"
    assert venus.horizon_months > 0
    assert venus.cloud_names  # the file names cloud options
    assert "[scenario]" in venus.to_toml()


def test_overrides_as_keywords_a_dict_and_indices_agree():
    by_keyword = payback.load(VENUS, electricity__price_per_kwh=0.3, cloud__0__price_per_hour=1.25)
    by_dict = payback.load(VENUS, {"electricity.price_per_kwh": 0.3, "cloud[0].price_per_hour": 1.25})
    assert by_keyword.overrides == by_dict.overrides == {
        "electricity.price_per_kwh": "0.3",
        "cloud[0].price_per_hour": "1.25",
    }
    assert by_keyword.compare().report == by_dict.compare().report


def test_an_override_changes_the_answer_as_the_same_value_in_the_file():
    # The hand scenario at 0.3 $/kWh, once by override and once written in the text.
    edited = payback.loads(HAND.replace("price_per_kwh = 0.2", "price_per_kwh = 0.3"), "hand.toml")
    overridden = payback.loads(HAND, "hand.toml", electricity__price_per_kwh=0.3)
    assert overridden.compare().report == edited.compare().report


def test_hand_scenario_totals():
    c = payback.loads(HAND, "hand.toml").compare()
    # Cloud: 100 h of work a month at speedup 2 is 50 instance-hours × $2 = $100 a month; 24 months: $2,400.
    assert c.options.loc["cloud", "total_cost"] == pytest.approx(2400.0, rel=1e-12)
    # The rig at the wall: training 100 h × (300 + 100) W / 0.8 = 50 kWh, idle the other 630 h of a
    # 730-hour month × (20 + 30) W / 0.8 = 39.375 kWh; 89.375 kWh × 24 months = 2,145 kWh.
    assert c.options.iloc[0]["energy_kwh"] == pytest.approx(2145.0, rel=1e-12)


def test_a_scenario_built_from_a_dict_equals_its_file():
    tables = tomllib.loads(HAND)
    built = payback.scenario(tables, "hand.toml")
    assert built.compare().report == payback.loads(HAND, "hand.toml").compare().report


def test_with_overrides_adds_to_the_overrides(venus):
    changed = venus.with_overrides(electricity__price_per_kwh=0.5)
    assert changed.overrides == {"electricity.price_per_kwh": "0.5"}
    assert venus.overrides == {}
    assert changed.compare().report["versus"][0]["npv_savings"] < venus.compare().report["versus"][0]["npv_savings"]


def test_a_scenario_pickles_with_its_overrides():
    s = payback.load(VENUS, electricity__price_per_kwh=0.31)
    again = pickle.loads(pickle.dumps(s))
    assert again.overrides == s.overrides
    assert again.compare().report == s.compare().report


def test_bad_input_raises_input_error_with_file_line_and_key():
    text = HAND.replace("price = 1000", "price = -120")
    with pytest.raises(payback.InputError) as caught:
        payback.loads(text, "bad.toml")
    e = caught.value
    assert isinstance(e, ValueError)
    assert e.file == "bad.toml"
    assert e.line == text.splitlines().index("price = -120") + 1
    assert e.key == "rig.parts[0].price"
    assert str(e).startswith(f"bad.toml:{e.line}: rig.parts[0].price: ")
    assert pickle.loads(pickle.dumps(e)).key == e.key


def test_a_bad_override_names_its_key():
    with pytest.raises(payback.InputError) as caught:
        payback.load(VENUS, electricity__price_per_kwh="cheap")
    assert caught.value.key == "electricity.price_per_kwh"


def test_a_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(payback.InputError) as caught:
        payback.load(tmp_path / "none.toml")
    assert caught.value.file == str(tmp_path / "none.toml")
    assert caught.value.line == 0


def test_keyword_names_become_key_paths():
    assert _toml.key_path("electricity__price_per_kwh") == "electricity.price_per_kwh"
    assert _toml.key_path("rig__parts__2__resale__annual_rate") == "rig.parts[2].resale.annual_rate"
    assert _toml.key_path("plain") == "plain"


def test_html_view_names_the_scenario(venus):
    assert venus.name in venus._repr_html_()


def test_keys_is_the_key_table():
    # One row per key, as `payback docs --keys` (docs/keys.md) prints them.
    keys = payback.keys()
    assert list(keys.columns) == ["key", "type", "unit", "range", "default", "applies_to", "help"]
    price = keys.set_index("key").loc["rig.parts[].price"]
    assert price["type"] == "number"
    assert price["unit"] == "currency"
    assert price["range"].startswith("≥ 0, at most 10^9")
    assert keys.set_index("key").loc["scenario.horizon_months", "default"] == "36"
    assert keys["key"].is_unique
    page = (ROOT / "docs" / "keys.md").read_text()
    assert all(f"| `{key}` |" in page for key in keys["key"])


def test_metrics_is_the_metric_table():
    # One row per figure compare reports, as `payback docs --metrics` lists them.
    table = payback.metrics()
    assert list(table.columns) == ["name", "unit", "scope", "type", "description", "csv", "header", "decimals"]
    assert table["name"].is_unique
    npv = table.set_index("name").loc["npv_savings"]
    assert npv["scope"] == "pair"
    assert npv["unit"] == "currency"
    assert set(table["scope"]) == {"option", "pair", "job", "tokens"}
