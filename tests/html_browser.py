#!/usr/bin/env python3
"""Opens a `watts ... --html DIR` report in a real headless browser (Debian's chromium and
chromedriver, through selenium) and checks it against the JSON document of the same run.

    html_browser.py check DIR REPORT.json SCREENSHOT.png
    html_browser.py accesses DIR REPORT.json
    html_browser.py measure DIR        # prints the time to load DIR/index.html

`check` verifies that the page's script decodes the embedded document to the JSON report, that
the summary counts equal the JSON's, that every finding has a row, that
filtering by status works, that selecting an assertion's mark shows its reason, that each
witness diagram has one lane per thread and one row per step, that selecting a step shows its
source line, that selecting a line by its number shows its invariants and keeps an open
finding open, that a race's details list every access the JSON lists, that the page reads without
JavaScript (summary, sources, a finding opened by its link), and that the page logs no error;
then it saves a screenshot of the first violated assertion's witness. `accesses` checks that a
race with more accesses than its details write as HTML lists all of them once opened (the
rest added by the script from the embedded document), each a link to its line. It exits 1 with a
message on the first failed check, 2 when the browser cannot be started.
"""

import json
import os
import pathlib
import sys
import time

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError as e:  # pragma: no cover - reported to the Rust test
    print(f"selenium is missing: {e} (Debian: apt-get install python3-selenium)")
    sys.exit(2)


def find_binary(names):
    for n in names:
        for d in os.environ.get("PATH", "").split(os.pathsep) + ["/usr/bin", "/usr/lib/chromium"]:
            p = os.path.join(d, n)
            if os.path.isfile(p) and os.access(p, os.X_OK):
                return p
    return None


def browser(javascript=True):
    chrome = find_binary(["chromium", "chromium-browser", "google-chrome"])
    driver = find_binary(["chromedriver"])
    if not chrome or not driver:
        print(f"no browser: chromium={chrome} chromedriver={driver} "
              "(Debian: apt-get install chromium chromium-driver)")
        sys.exit(2)
    opts = webdriver.ChromeOptions()
    opts.binary_location = chrome
    for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
              "--window-size=1500,950", "--allow-file-access-from-files"]:
        opts.add_argument(a)
    if not javascript:
        opts.add_experimental_option(
            "prefs", {"profile.managed_default_content_settings.javascript": 2})
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        return webdriver.Chrome(service=Service(executable_path=driver), options=opts)
    except Exception as e:  # noqa: BLE001 - any failure to start is the same answer
        print(f"cannot start chromium: {e}")
        sys.exit(2)


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def expect(cond, message):
    if not cond:
        fail(message)


def wait_for(cond, message, seconds=10):
    """Waits for `cond()` to hold (the page reads its document asynchronously); fails if not."""
    end = time.monotonic() + seconds
    while not cond():
        if time.monotonic() > end:
            fail(message())
        time.sleep(0.05)


def lanes_of(witness):
    tids = {s["tid"] for s in witness["steps"]}
    for s in witness["steps"]:
        t = (s.get("action") or {}).get("thread")
        if t is not None:
            tids.add(t)
    return len(tids)


def check(dir_, report_path, shot):
    report = json.loads(pathlib.Path(report_path).read_text())
    url = pathlib.Path(dir_, "index.html").resolve().as_uri()
    d = browser()
    try:
        d.get(url)
        # The page's script reads the document it embeds (compressed) as the JSON report.
        doc = d.execute_async_script(
            "var done = arguments[0];"
            "wattsReport().then(done, function (e) { done('error: ' + e); })")
        expect(doc == report, "the page's embedded document is the JSON report")
        # The counts of the summary line are the JSON's.
        s = report["summary"]
        keys = ["assertions", "proved", "unreachable", "may_fail", "violated"]
        if "races" in s:
            keys.append("races")
        for k in keys:
            el = d.find_element(By.CSS_SELECTOR, f".count[data-key='{k}'] b")
            expect(int(el.text) == s[k], f"count {k}: page {el.text}, JSON {s[k]}")
        findings = report["assertions"] + report.get("races", [])
        rows = d.find_elements(By.CSS_SELECTOR, "#findings tbody tr.item")
        expect(len(rows) == len(findings), f"{len(rows)} summary rows for {len(findings)} findings")
        # Filtering by status shows exactly the findings of that status.
        Select(d.find_element(By.ID, "filter-status")).select_by_value("violated")
        shown = [r for r in rows if r.is_displayed()]
        want = [f for f in findings if f["status"] == "violated"]
        expect(len(shown) == len(want), f"filter violated: {len(shown)} rows, JSON {len(want)}")
        Select(d.find_element(By.ID, "filter-status")).select_by_value("")
        # Sorting by status puts violated findings first.
        d.find_element(By.CSS_SELECTOR, "#findings th[data-sort='status']").click()
        first = d.find_element(By.CSS_SELECTOR, "#findings tbody tr.item")
        expect(first.get_attribute("data-status") == "violated", "sorting by status")
        # Selecting an assertion's mark in the source shows its reason.
        a = next((a for a in report["assertions"] if a["status"] == "violated"), None)
        expect(a is not None, "the program has a violated assertion")
        mark = d.find_element(By.CSS_SELECTOR, f"#sources a.mark[data-item='{a['id']}']:not(.aux)")
        mark.click()
        panel = d.find_element(By.ID, a["id"])
        expect(panel.is_displayed(), f"the details of {a['id']} are shown when selected")
        reason = panel.find_element(By.CSS_SELECTOR, "p.reason").text
        expect(reason == a["reason"], f"reason shown {reason!r}, JSON {a['reason']!r}")
        # Every witness: one lane per thread, one row per step.
        witnessed = [f for f in findings if f.get("witness")]
        expect(witnessed, "some finding has a witness")
        for f in witnessed:
            svg = d.find_element(By.CSS_SELECTOR, f"svg.lanes[data-owner='{f['id']}']")
            lanes = svg.find_elements(By.CSS_SELECTOR, "g.lane")
            steps = svg.find_elements(By.CSS_SELECTOR, "g.step")
            expect(len(lanes) == lanes_of(f["witness"]),
                   f"{f['id']}: {len(lanes)} lanes, {lanes_of(f['witness'])} threads")
            expect(len(steps) == len(f["witness"]["steps"]),
                   f"{f['id']}: {len(steps)} rows, {len(f['witness']['steps'])} steps")
            reads = [s for s in f["witness"]["steps"] if (s.get("action") or {}).get("reads_from")]
            arrows = svg.find_elements(By.CSS_SELECTOR, "path.rf")
            expect(len(arrows) == len(reads), f"{f['id']}: {len(arrows)} arrows, {len(reads)} reads-from")
            # A confirmed race's witness ends with its two racing accesses, marked as such.
            racing = svg.find_elements(By.CSS_SELECTOR, "g.step.racing")
            want = 2 if f in report.get("races", []) else 0
            expect(len(racing) == want, f"{f['id']}: {len(racing)} racing steps, expected {want}")
        # Selecting a step shows its source line.
        svg = d.find_element(By.CSS_SELECTOR, f"svg.lanes[data-owner='{a['id']}']")
        last = a["witness"]["steps"][-1]
        d.execute_script(
            "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))",
            svg.find_elements(By.CSS_SELECTOR, "g.step")[-1])
        box = d.find_element(By.ID, f"step-source-{a['id']}").text
        src = pathlib.Path(last["file"]).read_text().splitlines()[last["line"] - 1].strip()
        expect(f":{last['line']}:" in box and src in box,
               f"step {last['step']} shows {box!r}, expected line {last['line']}: {src!r}")
        expect(d.find_elements(By.CSS_SELECTOR, ".src li.step-hl"), "the step's line is lit in the listing")
        d.execute_script("window.scrollTo(0, 0)")
        d.save_screenshot(shot)
        # Selecting a line shows its invariants per thread (the JSON's).
        line = a["line"]
        inv = [t["name"] for t in report["invariants"]["threads"]
               if any(l["line"] == line and l["file"] == a["file"] for l in t["lines"])]
        row = d.execute_script(
            "var li = document.querySelector('.src ol.chunk').children[arguments[0] - 1];"
            "li.scrollIntoView({block: 'center'}); return li;", line)
        # A real click on the line's number (left of its row).
        ActionChains(d).move_to_element_with_offset(row, -row.size["width"] // 2 - 12, 0).click().perform()
        lp = d.find_element(By.ID, "line-panel")
        expect(lp.is_displayed(), "the line's invariants are shown")
        expect("sel" in row.get_attribute("class").split(), "the selected line is lit")
        expect(inv, f"some thread reaches line {line}")
        wait_for(lambda: all(name in lp.text for name in inv),
                 lambda: f"invariants of threads {inv} at line {line}: {lp.text!r}")
        expect(panel.is_displayed(), f"selecting a line keeps {a['id']} open")
        # A race's details list every access the JSON lists (beyond the first few, by script).
        for r in report.get("races", []):
            d.get(f"{url}#{r['id']}")
            shown = lambda: d.find_elements(By.CSS_SELECTOR, f"#{r['id']} table.accesses tbody tr")
            wait_for(lambda: len(shown()) == len(r["accesses"]),
                     lambda: f"{r['id']}: {len(shown())} accesses shown, JSON {len(r['accesses'])}")
        errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
        expect(not errors, f"the page logs errors: {errors}")
    finally:
        d.quit()
    # Without JavaScript: the summary, the sources and a finding opened by its link.
    d = browser(javascript=False)
    try:
        d.get(url)
        rows = d.find_elements(By.CSS_SELECTOR, "#findings tbody tr.item")
        expect(len(rows) == len(findings), "without JavaScript: the summary")
        expect(d.find_elements(By.CSS_SELECTOR, ".src .chunk > li"),
               "without JavaScript: the sources")
        d.find_element(By.CSS_SELECTOR, f"#findings a[href='#{a['id']}']").click()
        panel = d.find_element(By.ID, a["id"])
        expect(panel.is_displayed() and a["reason"] in panel.text,
               "without JavaScript: selecting a finding shows its reason")
        svg = panel.find_element(By.CSS_SELECTOR, "svg.lanes")
        expect(svg.is_displayed(), "without JavaScript: the witness diagram")
    finally:
        d.quit()
    print(f"ok: {len(findings)} findings, {len(witnessed)} witness diagrams, screenshot {shot}")


def accesses(dir_, report_path):
    report = json.loads(pathlib.Path(report_path).read_text())
    url = pathlib.Path(dir_, "index.html").resolve().as_uri()
    races = report.get("races", [])
    long = [r for r in races if len(r["accesses"]) > 12]
    expect(long, "some race has more accesses than the details write as HTML")
    d = browser()
    try:
        for r in races:
            d.get(f"{url}#{r['id']}")
            rows = lambda: d.find_elements(By.CSS_SELECTOR, f"#{r['id']} table.accesses tbody tr")
            wait_for(lambda: len(rows()) == len(r["accesses"]),
                     lambda: f"{r['id']}: {len(rows())} accesses shown, JSON {len(r['accesses'])}")
            for row, a in zip(rows(), r["accesses"]):
                cells = row.find_elements(By.TAG_NAME, "td")
                where = f"{a['file'].split('/')[-1]}:{a['line']}"
                expect(cells[0].text.startswith(where) and cells[2].text == a["thread"],
                       f"{r['id']}: row {cells[0].text!r} {cells[2].text!r}, JSON {where} {a['thread']}")
                link = cells[0].find_element(By.TAG_NAME, "a").get_attribute("href")
                expect(link.endswith(f"L{a['line']}"), f"{r['id']}: {where} links to {link}")
            expect(not d.find_elements(By.CSS_SELECTOR, f"#{r['id']} p.unshown"),
                   f"{r['id']}: the note on accesses not shown stays")
        errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
        expect(not errors, f"the page logs errors: {errors}")
    finally:
        d.quit()
    print(f"ok: {len(races)} races, {len(long)} with accesses added by the script")


def measure(dir_):
    url = pathlib.Path(dir_, "index.html").resolve().as_uri()
    d = browser()
    try:
        d.get("about:blank")
        t0 = time.monotonic()
        d.get(url)  # returns after the load event
        wall = time.monotonic() - t0
        nav = d.execute_script(
            "var t = performance.getEntriesByType('navigation')[0];"
            "return [t.domContentLoadedEventEnd, t.loadEventEnd];")
        size = pathlib.Path(dir_, "index.html").stat().st_size
        print(f"{size} bytes; DOMContentLoaded {nav[0]:.0f} ms, load {nav[1]:.0f} ms, "
              f"driver.get {wall * 1000:.0f} ms")
    finally:
        d.quit()


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 4 and sys.argv[1] == "accesses":
        accesses(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "measure":
        measure(sys.argv[2])
    else:
        print(__doc__)
        sys.exit(2)
