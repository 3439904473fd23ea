#!/usr/bin/env python3
"""Write tests/fixtures/finance/numpy_financial.json: reference values from numpy-financial that
tests/lib/finance/finance_test.cpp checks payback::finance against (to a relative 1e-9).

Run it with the pinned versions, from the repository root:
    ./dev fixtures
or by hand:
    python3 -m venv .venv && .venv/bin/pip install -r tools/requirements-fixtures.txt
    .venv/bin/python tools/finance_fixture.py

Sign conventions follow payback, not numpy-financial: a loan's principal, payment, interest and principal
parts are all positive (we call npf.pmt(rate, n, -principal) and so on). irr cases have exactly one sign
change in their flows, so by Descartes' rule of signs exactly one rate r > -1 makes npv zero: the one
npf.irr returns.
The output is deterministic: fixed cases plus random ones from a fixed seed.
"""

import json
import pathlib

import numpy as np
import numpy_financial as npf

SEED = 20240601
ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "finance" / "numpy_financial.json"


def sign_changes(flows):
    signs = [v > 0 for v in flows if v != 0]
    return sum(1 for a, b in zip(signs, signs[1:]) if a != b)


def rig_flows(capex, monthly, months, resale=0.0):
    """Buy now, earn `monthly` at the end of each month, sell for `resale` with the last month."""
    flows = [-capex] + [monthly] * months
    flows[-1] += resale
    return flows


def to_json(fixture):
    """Indented, but each case on one line, so that diffs of the fixture read case by case."""
    lines = []
    for key, value in fixture.items():
        if isinstance(value, list):
            cases = ",\n".join("  " + json.dumps(case) for case in value)
            lines.append(f" {json.dumps(key)}: [\n{cases}\n ]")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main():
    rng = np.random.default_rng(SEED)

    def cents(x):
        return round(float(x), 2)

    # npv: numpy-financial's docstring example, flows in months, negative rates, mixed signs, random.
    npv_cases = [
        (0.08, [-40_000, 5_000, 8_000, 12_000, 30_000]),  # docstring: 3065.22267
        (0.0, [-100, 20, 30, 60]),
        (-0.05, [-100, 50, 60]),
        (0.01, rig_flows(3000, 110.0, 36, resale=900)),
        (0.004, rig_flows(12_000, 180.5, 120, resale=1500)),
        (0.1, [100, -230, 140]),  # mixed signs: 100 - 209.09 + 115.70
        (0.0075, rig_flows(2e12, 3e10, 600)),
    ]
    for _ in range(12):
        n = int(rng.integers(2, 150))
        rate = float(rng.uniform(-0.3, 0.5))
        flows = [cents(v) for v in rng.normal(0, 1000, n)]
        npv_cases.append((rate, flows))

    # irr: one sign change each. Docstring examples, rig-like monthly flows, random.
    irr_flows = [
        [-100, 39, 59, 55, 20],  # docstring: 0.28095
        [-100, 0, 0, 74],  # docstring: -0.0955
        [-100, 100, 0, 7],  # docstring: 0.06206
        [-1000, 300, 400, 500],
        rig_flows(3000, 110.0, 36, resale=900),
        rig_flows(12_000, 180.5, 120, resale=1500),
        rig_flows(5000, 40.0, 120),  # loses money: a negative rate
        [0, 0, -500, 0, 200, 200, 200, 0],  # leading and trailing zeros
    ]
    for _ in range(12):
        n = int(rng.integers(2, 121))
        capex = cents(rng.uniform(500, 20_000))
        income = [cents(v) for v in rng.uniform(0, 2 * capex / n, n)]
        irr_flows.append([-capex] + income)
    irr_cases = []
    for flows in irr_flows:
        assert sign_changes(flows) == 1, flows
        value = float(npf.irr(flows))
        assert np.isfinite(value), flows
        irr_cases.append({"flows": flows, "value": value})

    # Loans: pmt for each; ipmt and ppmt for the first, a middle and the last payment.
    loans = [
        (0.01, 12, 1000.0),  # 88.8488 a month
        (0.075 / 12, 180, 200_000.0),  # docstring: 1854.02472
        (0.0, 24, 4800.0),
        (0.005, 36, 25_000.0),
        (0.0125, 120, 9000.0),
        (0.05, 1, 100.0),
        (-0.01, 10, 1000.0),
    ]
    for _ in range(8):
        rate, n, principal = rng.uniform(0.0005, 0.03), rng.integers(1, 601), rng.uniform(100, 1e6)
        loans.append((float(rate), int(n), cents(principal)))
    pmt_cases, ipmt_cases, ppmt_cases = [], [], []
    for rate, n, principal in loans:
        loan = {"rate": rate, "periods": n, "principal": principal}
        # npf.pmt divides by the rate on both branches of its np.where; the rate-0 branch is still right.
        with np.errstate(invalid="ignore", divide="ignore"):
            pmt_cases.append({**loan, "value": float(npf.pmt(rate, n, -principal))})
            for k in sorted({1, (n + 1) // 2, n}):
                ipmt_cases.append({**loan, "period": k, "value": float(npf.ipmt(rate, k, n, -principal))})
                ppmt_cases.append({**loan, "period": k, "value": float(npf.ppmt(rate, k, n, -principal))})

    fixture = {
        "generator": "tools/finance_fixture.py",
        "numpy": np.__version__,
        "numpy_financial": npf.__version__,
        "seed": SEED,
        "npv": [{"rate": r, "flows": f, "value": float(npf.npv(r, f))} for r, f in npv_cases],
        "irr": irr_cases,
        "pmt": pmt_cases,
        "ipmt": ipmt_cases,
        "ppmt": ppmt_cases,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    assert all(np.isfinite(case["value"]) for key in ("npv", "pmt", "ipmt", "ppmt") for case in fixture[key])
    OUT.write_text(to_json(fixture))
    counts = ", ".join(f"{len(fixture[k])} {k}" for k in ("npv", "irr", "pmt", "ipmt", "ppmt"))
    print(f"wrote {OUT.relative_to(ROOT)}: {counts}")


if __name__ == "__main__":
    main()
