#!/usr/bin/env python3
"""payback catalog update against a real HTTP server on 127.0.0.1 (tests never reach the internet): each
source's fetch, its import, Azure's paging by NextPageLink, and the failures (no server, HTTP 404, a missing
--provider), each one line on stderr, exit 2, and the output file left as it was.

Usage: catalog_update.py PAYBACK_BINARY SOURCE_DIR   (exit 77, a skip, for a build without libcurl)
"""
from __future__ import annotations

import csv
import http.server
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

BINARY, SOURCE = sys.argv[1], Path(sys.argv[2])
FIXTURES = SOURCE / "tests" / "fixtures" / "market" / "import"
failures: list[str] = []


def check(condition: bool, what: str) -> None:
    if not condition:
        failures.append(what)


def payback(*args: str) -> subprocess.CompletedProcess[str]:
    # Every import also appends to the price history: a temporary one, never the user's.
    env = {**os.environ, "PAYBACK_DB": str(Path(tmp) / "prices.sqlite"), "PAYBACK_TODAY": "2026-12-01"}
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=120, env=env)


def rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text())))


class Files(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:  # quiet: the test prints what failed
        pass


with tempfile.TemporaryDirectory() as tmp:
    served = Path(tmp) / "served"
    served.mkdir()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: Files(*a, directory=str(served)))
    base = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()

    if "without libcurl" in payback("catalog", "update", "--source", "skypilot", "--provider", "aws", "--url",
                                     base + "/none", "-o", str(Path(tmp) / "probe.csv")).stderr:
        print("skipped: this build has no libcurl")
        sys.exit(77)

    for name in ("skypilot_v7_aws_vms_gpu_excerpt.csv", "ec2instances_info_instances_2017-11-12_p3_excerpt.json"):
        (served / name).write_bytes((FIXTURES / name).read_bytes())
    # Azure's real page, served as two pages: the first's NextPageLink points at the second, whose link is null.
    page = json.loads((FIXTURES / "azure_retail_prices_page_excerpt_2022-06-06.json").read_text())
    (served / "page2.json").write_text(json.dumps({**page, "NextPageLink": None}))
    (served / "page1.json").write_text(json.dumps({**page, "NextPageLink": base + "/page2.json"}))

    # SkyPilot, AWS: the same rows as `catalog import` of the same file (19 rows, one skipped: p5e.48xlarge
    # in ap-southeast-2 has no price); p3.16xlarge in us-east-1 is $24.48 on demand and $4.8549 spot
    # (its lowest SpotPrice across the region's zones), as in the excerpt.
    out = Path(tmp) / "aws.csv"
    url = base + "/skypilot_v7_aws_vms_gpu_excerpt.csv"
    r = payback("catalog", "update", "--source", "skypilot", "--provider", "aws", "--url", url, "--as-of", "2026-11-29",
                "-o", str(out), "--json")
    check(r.returncode == 0, f"skypilot update: exit {r.returncode}: {r.stderr}")
    if r.returncode == 0:
        summary = json.loads(r.stdout)
        check(summary["rows"] == 19 and len(summary["skipped"]) == 1, f"skypilot summary: {summary}")
        got = rows(out)
        p3 = [row for row in got if row["instance"] == "p3.16xlarge" and row["region"] == "us-east-1"]
        check(len(p3) == 1 and p3[0]["on_demand_per_hour"] == "24.48" and p3[0]["spot_per_hour"] == "4.8549",
              f"p3.16xlarge us-east-1: {p3}")
        check(all(row["as_of"] == "2026-11-29" for row in got), "as_of is --as-of")
        check(all(row["source"].startswith(url + " fetched ") for row in got), f"source names the URL: {got[0]['source']}")
        imported = Path(tmp) / "imported.csv"
        i = payback("catalog", "import", "--format", "skypilot", "--provider", "aws", "--as-of", "2026-11-29",
                    "--source", got[0]["source"], str(served / "skypilot_v7_aws_vms_gpu_excerpt.csv"), "-o", str(imported))
        check(i.returncode == 0 and imported.read_text() == out.read_text(), "update writes what import writes")

    # ec2instances.info: the GPU types kept before importing give the rows import gives from the whole file.
    out = Path(tmp) / "ec2.csv"
    name = "ec2instances_info_instances_2017-11-12_p3_excerpt.json"
    r = payback("catalog", "update", "--source", "aws-ec2", "--url", f"{base}/{name}", "--as-of", "2017-11-12",
                "-o", str(out))
    check(r.returncode == 0, f"aws-ec2 update: exit {r.returncode}: {r.stderr}")
    imported = Path(tmp) / "ec2-imported.csv"
    i = payback("catalog", "import", "--format", "aws-ec2", "--as-of", "2017-11-12", str(FIXTURES / name), "-o",
                str(imported))
    strip = lambda table: [{k: v for k, v in row.items() if k != "source"} for row in table]  # noqa: E731
    check(i.returncode == 0 and r.returncode == 0 and len(rows(out)) == 8 and strip(rows(out)) == strip(rows(imported)),
          "aws-ec2: the GPU types give import's 8 rows")

    # Without --as-of, the prices held on the day fetched ($PAYBACK_TODAY here), and the source says so.
    out = Path(tmp) / "today.csv"
    r = payback("catalog", "update", "--source", "skypilot", "--provider", "aws", "--url", url, "-o", str(out))
    check(r.returncode == 0 and {row["as_of"] for row in rows(out)} == {"2026-12-01"}, f"as_of today: {r.stderr}")
    check(r.returncode == 0 and rows(out)[0]["source"] == url + " fetched 2026-12-01", "source: the URL and the day")

    # Azure: both pages fetched (every skipped record names the page it was on; the excerpt holds no
    # N-series item, so nothing is written but the header).
    out = Path(tmp) / "azure.csv"
    r = payback("catalog", "update", "--source", "azure-retail", "--url", base + "/page1.json", "-o", str(out), "--json")
    check(r.returncode == 0, f"azure update: exit {r.returncode}: {r.stderr}")
    if r.returncode == 0:
        files = {s["file"] for s in json.loads(r.stdout)["skipped"]}
        check(files == {base + "/page1.json", base + "/page2.json"}, f"azure pages: {files}")

    # Failures: one line, exit 2, the existing output untouched.
    kept = Path(tmp) / "kept.csv"
    kept.write_text("left as it was\n")
    server.shutdown()
    server.server_close()
    for args, words in [
        (["--source", "skypilot", "--provider", "aws", "--url", base + "/gone.csv"], "could not fetch it"),
        (["--source", "skypilot"], "--provider"),
    ]:
        r = payback("catalog", "update", *args, "-o", str(kept))
        check(r.returncode == 2 and len(r.stderr.splitlines()) == 1 and words in r.stderr,
              f"{args}: exit {r.returncode}, stderr {r.stderr!r}")
        check(kept.read_text() == "left as it was\n", f"{args}: the output was changed")

    # HTTP 404 from a live server.
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: Files(*a, directory=str(served)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    r = payback("catalog", "update", "--source", "skypilot", "--provider", "aws", "--url",
                f"http://127.0.0.1:{server.server_address[1]}/missing.csv", "-o", str(kept))
    check(r.returncode == 2 and "HTTP 404" in r.stderr and kept.read_text() == "left as it was\n", f"404: {r.stderr!r}")
    server.shutdown()

for f in failures:
    print("FAIL:", f)
print(f"catalog update: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
