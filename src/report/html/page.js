// watts --html: the page's only script, written by hand (no library, nothing fetched). It
// sorts and filters the summary, shows the invariants of a selected line from the embedded
// JSON document, and shows the source line of a selected witness step. Everything else on
// the page works without it.
(function () {
  "use strict";
  var report = JSON.parse(document.getElementById("watts-report").textContent);

  // The summary: filters by status, file and thread; sorting by a column.
  var table = document.getElementById("findings");
  var rows = Array.prototype.slice.call(table.tBodies[0].querySelectorAll("tr.item"));
  var filters = { status: "", file: "", thread: "" };
  function fill(id, values) {
    var select = document.getElementById(id);
    values.sort().forEach(function (v) {
      var o = document.createElement("option");
      o.value = v;
      o.textContent = v.split("/").pop();
      select.appendChild(o);
    });
    return select;
  }
  function distinct(f) {
    var seen = {};
    rows.forEach(function (r) { f(r).forEach(function (v) { if (v) seen[v] = true; }); });
    return Object.keys(seen);
  }
  function threadsOf(r) { return r.dataset.threads ? r.dataset.threads.split("|") : []; }
  function apply() {
    var shown = 0;
    rows.forEach(function (r) {
      var ok = (!filters.status || r.dataset.status === filters.status) &&
        (!filters.file || r.dataset.file === filters.file) &&
        (!filters.thread || threadsOf(r).indexOf(filters.thread) >= 0);
      r.hidden = !ok;
      if (ok) shown++;
    });
    document.getElementById("shown").textContent = shown + " of " + rows.length + " shown";
  }
  [["filter-status", "status", function (r) { return [r.dataset.status]; }],
   ["filter-file", "file", function (r) { return [r.dataset.file]; }],
   ["filter-thread", "thread", threadsOf]].forEach(function (f) {
    fill(f[0], distinct(f[2])).addEventListener("change", function (e) {
      filters[f[1]] = e.target.value;
      apply();
    });
  });
  document.querySelector("#summary .filters").hidden = false;
  apply();
  var order = { violated: 0, "may-fail": 1, "may-race": 1, unreachable: 3, proved: 4 };
  var keys = {
    id: function (r) { var id = r.cells[0].textContent; return [id.charAt(0), Number(id.slice(1))]; },
    status: function (r) { return [order[r.dataset.status] === undefined ? 2 : order[r.dataset.status]]; },
    location: function (r) { return [r.dataset.file, Number(r.dataset.line)]; },
    what: function (r) { return [r.cells[3].textContent]; },
    threads: function (r) { return [r.cells[4].textContent]; }
  };
  function compare(a, b) {
    for (var i = 0; i < a.length; i++) {
      if (a[i] < b[i]) return -1;
      if (a[i] > b[i]) return 1;
    }
    return 0;
  }
  Array.prototype.forEach.call(table.tHead.querySelectorAll("th[data-sort]"), function (th) {
    th.addEventListener("click", function () {
      var asc = !th.classList.contains("asc");
      Array.prototype.forEach.call(table.tHead.querySelectorAll("th"), function (h) {
        h.classList.remove("asc", "desc");
      });
      th.classList.add(asc ? "asc" : "desc");
      var key = keys[th.dataset.sort];
      rows.sort(function (a, b) { var c = compare(key(a), key(b)); return asc ? c : -c; });
      rows.forEach(function (r) { table.tBodies[0].appendChild(r); });
    });
  });

  // The invariants of a selected line (`#f0L12`), per thread, from the document.
  var byLine = null;
  function invariantsAt(path, line) {
    if (!byLine) {
      byLine = {};
      var inv = report.invariants;
      (inv ? inv.threads : []).forEach(function (t) {
        t.lines.forEach(function (l) {
          var k = l.file + ":" + l.line;
          (byLine[k] = byLine[k] || []).push({ thread: t.name, values: l.values });
        });
      });
    }
    return byLine[path + ":" + line] || [];
  }
  var panel = document.getElementById("line-panel");
  function text(tag, s, cls) {
    var e = document.createElement(tag);
    e.textContent = s;
    if (cls) e.className = cls;
    return e;
  }
  function showLine() {
    var m = /^#f(\d+)L(\d+)$/.exec(location.hash);
    if (!m) { panel.hidden = true; return; }
    var file = document.querySelector(".src[data-file='" + m[1] + "']");
    if (!file) return;
    var path = file.dataset.path, line = Number(m[2]);
    panel.textContent = "";
    panel.appendChild(text("strong", path.split("/").pop() + ":" + line));
    if (!report.invariants) {
      panel.appendChild(text("p", "no invariants in this report (the analysis did not finish)"));
    } else {
      var found = invariantsAt(path, line);
      panel.appendChild(text("span", " invariants before the line (" + report.invariants.config.mode +
        ", " + report.invariants.config.domain + ")"));
      if (!found.length) panel.appendChild(text("p", "no thread reaches this line"));
      var t = document.createElement("table");
      t.className = "invariants";
      found.forEach(function (f) {
        var tr = t.insertRow();
        tr.appendChild(text("td", f.thread));
        var parts = Object.keys(f.values).map(function (k) { return k + " ∈ " + f.values[k]; });
        tr.appendChild(document.createElement("td")).appendChild(
          text("code", parts.length ? parts.join(", ") : "reached"));
      });
      panel.appendChild(t);
      if (report.invariants.unconstrained_omitted) {
        panel.appendChild(text("p", "variables not listed may have any value of their type", "hint"));
      }
    }
    panel.hidden = false;
  }
  // A click on a line number selects the line (its row's id is the fragment).
  Array.prototype.forEach.call(document.querySelectorAll(".src"), function (t) {
    t.addEventListener("click", function (e) {
      if (e.target.tagName === "I" && e.target.parentNode.id) location.hash = e.target.parentNode.id;
    });
  });
  // Opening a finding's details (a `#A1` link, CSS :target) keeps the page where it was:
  // the panel is fixed, and the line that was clicked stays in view.
  var kept = null;
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[href^='#']");
    var target = a && document.getElementById(a.getAttribute("href").slice(1));
    kept = target && target.classList.contains("detail") ? window.scrollY : null;
  }, true);
  window.addEventListener("hashchange", function () {
    if (kept !== null) window.scrollTo(0, kept);
    kept = null;
  });
  window.addEventListener("hashchange", showLine);
  showLine();

  // A selected step of a witness: its source line, under the diagram and in the listing.
  var lit = null;
  function selectStep(g) {
    var svg = g.ownerSVGElement;
    Array.prototype.forEach.call(svg.querySelectorAll(".step.sel"), function (s) { s.classList.remove("sel"); });
    g.classList.add("sel");
    var box = document.getElementById("step-source-" + svg.dataset.owner);
    var title = g.querySelector("title").textContent;
    if (lit) lit.classList.remove("step-hl");
    lit = null;
    var row = g.dataset.file !== "" ? document.getElementById("f" + g.dataset.file + "L" + g.dataset.line) : null;
    if (!row) { box.textContent = title + " (no source line)"; return; }
    var path = row.closest(".src").dataset.path.split("/").pop();
    var code = row.cloneNode(true);
    Array.prototype.forEach.call(code.querySelectorAll(".marks, i"), function (e) { e.remove(); });
    box.textContent = title + "\n" + path + ":" + g.dataset.line + ":  " + code.textContent.trim();
    row.classList.add("step-hl");
    lit = row;
    row.scrollIntoView({ block: "center" });
  }
  Array.prototype.forEach.call(document.querySelectorAll("svg.lanes .step"), function (g) {
    g.addEventListener("click", function () { selectStep(g); });
    g.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") selectStep(g); });
  });
})();
