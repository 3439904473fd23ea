#!/usr/bin/env python3
"""`payback report` in a real browser: Debian's headless Chromium loads each page from disk.

For each scenario: the page loads without console errors, the key numbers in it are those of
`payback compare --json` (and `payback montecarlo --json` with [uncertainty], `payback breakeven
--json` for a token scenario's break-even volumes, and the token rates of its assumptions table) for the
same scenario, and a screenshot is not blank. Each check is first run on a page made to fail it, so a
check that cannot fail is caught. Standard library only.

Usage: report_in_browser.py PAYBACK_BINARY SOURCE_DIR
Exit 0: passed; 1: failed; 77: no Chromium here (CTest reports the test as skipped).
"""
import html.parser
import json
import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

SCENARIOS = ["venus-2019-uncertain.toml", "venus-2019.toml", "llm-4090-vs-api.toml"]
TOKENS_KEY = "workload.tokens.output_tokens_per_month"
SAMPLES = 10000  # the report's default, so the Monte Carlo figures match `montecarlo --samples 10000`
WINDOW = "1000,1600"  # CSS pixels: the answer, the options and the first chart
SCALE = "0.5"  # screenshots at half resolution: 500 × 800 pixels, quick to decode in pure Python


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def chromium(browser, profile, *args):
    """Runs headless Chromium; returns (stdout, stderr)."""
    command = [browser, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
               "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
               *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    return done.stdout, done.stderr


def console_messages(stderr):
    """What the page wrote to its console. Chromium logs each message, an uncaught exception too, as
    `[...:INFO:CONSOLE:1] "Uncaught Error: ...", source: file:///... (1)`; the report has no
    scripts, so any message at all is a fault."""
    return [line for line in stderr.splitlines() if re.search(r":CONSOLE[:(]", line)]


class Figures(html.parser.HTMLParser):
    """The page's key figures: (data-metric, data-option, data-rig) -> the text of each element
    that shows it (a figure may appear twice: in the answer and in a table)."""

    def __init__(self):
        super().__init__()
        self.figures = {}
        self.text = []
        self._open = []  # for each open element: its figure's key and the index of its text, or None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-metric" not in a:
            self._open.append(None)
            return
        key = (a["data-metric"], a.get("data-option", ""), a.get("data-rig", ""))
        self.figures.setdefault(key, []).append("")
        self._open.append((key, len(self.figures[key]) - 1))

    def handle_endtag(self, tag):
        if self._open:
            self._open.pop()

    def handle_data(self, data):
        self.text.append(data)
        for entry in self._open:
            if entry is not None:
                key, index = entry
                self.figures[key][index] += data


class TableRows(html.parser.HTMLParser):
    """Every table row's cell texts, by the text of its first cell (the assumptions table's key)."""

    def __init__(self):
        super().__init__()
        self.rows = {}
        self._cells = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self._cells = []
        elif tag in ("td", "th") and self._cells is not None:
            self._cells.append("")

    def handle_endtag(self, tag):
        if tag == "tr" and self._cells:
            self.rows[self._cells[0].strip()] = [cell.strip() for cell in self._cells]
            self._cells = None

    def handle_data(self, data):
        if self._cells:
            self._cells[-1] += data


def shown_number(text):
    return float(text.replace(",", ""))


def png_pixels(path):
    """The RGB(A) pixels of an 8-bit PNG as (width, height, channels, bytes)."""
    data = pathlib.Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"unexpected PNG format {header}"
    channels = 4 if colour == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * channels
    out = bytearray(height * stride)
    previous = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, previous))
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b = previous[i]
                c = previous[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y * stride:(y + 1) * stride] = line
        previous = line
    return width, height, channels, bytes(out)


def not_blank(path):
    """(passed, why): a page with charts has many colours and a fair share of non-white pixels."""
    width, height, channels, pixels = png_pixels(path)
    colours = set()
    inked = 0
    for i in range(0, len(pixels), channels):
        rgb = pixels[i:i + 3]
        colours.add(rgb)
        inked += rgb != b"\xff\xff\xff"
    share = inked / (width * height)
    return len(colours) > 50 and share > 0.02, f"{len(colours)} colours, {100 * share:.1f} % not white"


def run_payback(binary, *args, cwd):
    done = subprocess.run([binary, *args], capture_output=True, text=True, cwd=cwd, timeout=300)
    if done.returncode != 0:
        raise SystemExit(f"payback {' '.join(args)} failed ({done.returncode}): {done.stderr}")
    return done.stdout


class Checks:
    def __init__(self):
        self.failures = []

    def expect(self, condition, message):
        if not condition:
            self.failures.append(message)

    def number(self, figures, key, value, decimals, scale=1.0):
        """Every element of the figure `key` shows `value` × scale rounded to `decimals`."""
        if key not in figures:
            self.failures.append(f"{key}: not in the page")
            return
        for text in figures[key]:  # shown rounded to `decimals`: within half a unit of the last digit
            self.expect(abs(shown_number(text) - value * scale) <= 0.5 * 10 ** -decimals + 1e-9,
                        f"{key}: the page shows {text}, payback says {value * scale}")


def check_token_numbers(checks, figures, compare, breakevens):
    """A token scenario's cost per million tokens, and its break-even volumes (shown in millions)
    as `payback breakeven --for workload.tokens.output_tokens_per_month --against NAME` solves them."""
    for option in compare["options"]:
        checks.number(figures, ("cost_per_million_tokens", option["name"], ""),
                      option["tokens"]["cost_per_million_tokens"], 3)
    for cloud, value in breakevens.items():
        if value is None:
            checks.expect(("breakeven_output_tokens_per_month", cloud, "") not in figures,
                          f"{cloud}: a break-even volume shown where breakeven finds none")
        else:
            checks.number(figures, ("breakeven_output_tokens_per_month", cloud, ""), value, 2, 1e-6)


def check_token_rates(checks, rows, compare):
    """The assumptions table lists the rates each serving option runs at (given, or predicted and then
    not in the scenario as written), as `payback compare --json` has them, with their origin."""
    clouds = 0
    for option in compare["options"]:
        tokens = option["tokens"]
        if option["kind"] == "api" or tokens["tokens_per_second"] is None:
            continue
        path = "rig" if option["kind"] == "diy" else f"cloud[{clouds}]"
        clouds += option["kind"] == "cloud"
        for key, value in (("decode", tokens["tokens_per_second"]), ("prefill", tokens["prefill_tokens_per_second"])):
            row = rows.get(f"{path}.tokens_per_second.{key}")
            if row is None:
                checks.failures.append(f"{path}.tokens_per_second.{key}: not in the assumptions table")
                continue
            checks.expect(abs(float(row[1]) - value) <= 1e-9 * value,
                          f"{path}.tokens_per_second.{key}: the table shows {row[1]}, payback says {value}")
            origin = tokens["tokens_per_second_origin"]
            if not origin.startswith("measured (given by hand)"):  # a given rate cites its line instead
                checks.expect(row[3] == origin, f"{path}.tokens_per_second.{key}: source {row[3]!r}, origin {origin!r}")


def check_numbers(checks, figures, text, compare, montecarlo):
    for option in compare["options"]:
        checks.number(figures, ("total_cost", option["name"], ""), option["total_cost"], 0)
        checks.number(figures, ("npv_cost", option["name"], ""), option["npv_cost"], 0)
        checks.number(figures, ("monthly_cost", option["name"], ""),
                      option["total_cost"] / compare["horizon_months"], 0)
        if option["co2_kg_total"] > 0:
            checks.number(figures, ("co2_kg_total", option["name"], ""), option["co2_kg_total"], 0)
    for v in compare["versus"]:
        checks.number(figures, ("npv_savings", v["cloud"], v["rig"]), v["npv_savings"], 0)
        if v["payback_months"] is not None:
            checks.number(figures, ("payback_months", v["cloud"], v["rig"]), v["payback_months"], 1)
    rig = compare["rig"]
    checks.number(figures, ("peak_wall_watts", "", ""), rig["peak_wall_watts"], 0)
    checks.number(figures, ("energy_kwh_per_month", "", ""), rig["energy_kwh_per_month"], 0)
    checks.number(figures, ("circuit_load_fraction", "", ""), rig["circuit_load_fraction"], 0, 100.0)
    decision = compare["verdict"].split(":")[0].split(" ")[0]
    checks.expect(figures.get(("decision", "", "")) == [decision],
                  f"decision: the page says {figures.get(('decision', '', ''))}, the verdict {decision}")
    checks.expect(compare["verdict"] in " ".join("".join(text).split()), "the verdict is not in the page")
    if montecarlo is None:
        return
    # The answer shows the chance against the cloud option it is about (the only one in a one-cloud scenario).
    shown = [cloud for cloud in montecarlo["probability_build_wins"] if ("probability_build_wins", cloud, "") in figures]
    checks.expect(len(shown) == 1, f"probability_build_wins shown for {shown}, expected one cloud option")
    for cloud in shown:
        checks.number(figures, ("probability_build_wins", cloud, ""), montecarlo["probability_build_wins"][cloud], 1, 100.0)
    for m in montecarlo["metrics"]:
        for p in ("p10", "p50", "p90"):
            if m[p] is not None:
                checks.number(figures, (f"{m['metric']}.{p}", m["option"], ""), m[p], 1)


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    binary, source = os.path.abspath(sys.argv[1]), sys.argv[2]
    browser = find_chromium()
    if browser is None:
        print("SKIP: no chromium on PATH (./dev test installs Debian's)")
        return 77
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="payback-browser-") as tmp:
        profile = os.path.join(tmp, "profile")

        # The checks must be able to fail: a page that throws, and a blank page.
        probe = pathlib.Path(tmp, "probe.html")
        probe.write_text("<!DOCTYPE html><title>probe</title><script>throw new Error('probe');</script>")
        _, err = chromium(browser, profile, "--dump-dom", probe.as_uri())
        checks.expect(console_messages(err), "the console check missed an uncaught error in a probe page")
        blank = pathlib.Path(tmp, "blank.html")
        blank.write_text("<!DOCTYPE html><title>blank</title>")
        shot = os.path.join(tmp, "blank.png")
        chromium(browser, profile, f"--screenshot={shot}", f"--window-size={WINDOW}", f"--force-device-scale-factor={SCALE}",
                 "--hide-scrollbars",
                 blank.as_uri())
        checks.expect(os.path.exists(shot) and not not_blank(shot)[0], "the screenshot check passed a blank page")

        for name in SCENARIOS:
            scenario = os.path.join("scenarios", name)
            page = pathlib.Path(tmp, name.replace(".toml", ".html"))
            start = time.perf_counter()
            run_payback(binary, "report", scenario, "-o", str(page), "--samples", str(SAMPLES), cwd=source)
            seconds = time.perf_counter() - start
            print(f"{name}: report in {seconds:.2f} s, {page.stat().st_size / 1024:.0f} KiB")
            compare = json.loads(run_payback(binary, "compare", scenario, "--json", cwd=source))
            text = pathlib.Path(source, scenario).read_text()
            uncertain = "[uncertainty]" in text
            tokens = "tokens = {" in text
            montecarlo = (json.loads(run_payback(binary, "montecarlo", scenario, "--json", "--samples",
                                                 str(SAMPLES), "--seed", "1", cwd=source))
                          if uncertain else None)

            dom, err = chromium(browser, profile, "--dump-dom", page.as_uri())
            errors = console_messages(err)
            checks.expect(not errors, f"{name}: console errors: {errors}")
            parsed = Figures()
            parsed.feed(dom)
            checks.expect(len(parsed.figures) > 10, f"{name}: only {len(parsed.figures)} key figures in the DOM")
            check_numbers(checks, parsed.figures, parsed.text, compare, montecarlo)
            if tokens:
                breakevens = {o["name"]: json.loads(run_payback(binary, "breakeven", scenario, "--for", TOKENS_KEY,
                                                                "--against", o["name"], "--json", cwd=source))["value"]
                              for o in compare["options"] if o["kind"] != "diy"}
                check_token_numbers(checks, parsed.figures, compare, breakevens)
                table = TableRows()
                table.feed(dom)
                check_token_rates(checks, table.rows, compare)
            # The cumulative cost, the breakdown and the break-even chart; a token scenario's cost per
            # million tokens; the histogram and the tornado with [uncertainty].
            charts = 3 + (1 if tokens else 0) + (2 if uncertain else 0)
            checks.expect(dom.count("<svg") == charts, f"{name}: {dom.count('<svg')} charts, expected {charts}")

            shot = os.path.join(tmp, name.replace(".toml", ".png"))
            chromium(browser, profile, f"--screenshot={shot}", f"--window-size={WINDOW}", f"--force-device-scale-factor={SCALE}",
                 "--hide-scrollbars",
                     page.as_uri())
            if not os.path.exists(shot):
                checks.failures.append(f"{name}: no screenshot")
                continue
            passed, why = not_blank(shot)
            print(f"{name}: screenshot {why}")
            checks.expect(passed, f"{name}: the screenshot looks blank ({why})")
    for failure in checks.failures:
        print("FAIL:", failure)
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
