// watts --html: the page's only script, written by hand (no library, nothing fetched). It
// sorts and filters the summary, shows the invariants of a selected line and the accesses of
// a race beyond the first few from the embedded JSON document, and shows the source line of a
// selected witness step. Everything else on the page works without it.
(function () {
  "use strict";
  // The document, gzip-compressed in base64 (the report of a large program stays small),
  // decoded on first use.
  var loaded = null;
  function report() {
    if (!loaded) {
      var text = document.getElementById("watts-report").textContent.trim();
      loaded = typeof DecompressionStream === "undefined"
        ? Promise.reject(new Error("this browser cannot decompress the embedded report"))
        : new Response(new Blob([Uint8Array.from(atob(text), function (c) { return c.charCodeAt(0); })])
          .stream().pipeThrough(new DecompressionStream("gzip"))).json();
    }
    return loaded;
  }
  window.wattsReport = report;

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

  // A source line's row: by its id when a link points to it, else by its position (a file's
  // lines are the items of its chunks, `data-chunk` lines each); it gets its id then.
  function lineRow(f, l) {
    var id = "f" + f + "L" + l, row = document.getElementById(id);
    if (row) return row;
    var src = document.querySelector(".src[data-file='" + f + "']");
    if (!src || !src.dataset.chunk || !(l >= 1)) return null;
    var n = Number(src.dataset.chunk), ol = src.querySelectorAll("ol.chunk")[Math.floor((l - 1) / n)];
    row = ol ? ol.children[(l - 1) % n] : null;
    if (row) row.id = id;
    return row || null;
  }
  function text(tag, s, cls) {
    var e = document.createElement(tag);
    e.textContent = s;
    if (cls) e.className = cls;
    return e;
  }

  // The invariants of a selected line, per thread, from the document.
  var byLine = null;
  function invariantsAt(doc, path, line) {
    if (!byLine) {
      byLine = {};
      (doc.invariants ? doc.invariants.threads : []).forEach(function (t) {
        t.lines.forEach(function (l) {
          var k = l.file + ":" + l.line;
          (byLine[k] = byLine[k] || []).push({ thread: t.name, values: l.values });
        });
      });
    }
    return byLine[path + ":" + line] || [];
  }
  var panel = document.getElementById("line-panel");
  function showInvariants(path, line) {
    panel.textContent = "";
    var close = text("a", "×", "close");
    close.href = "#";
    close.title = "close";
    close.addEventListener("click", function (e) { e.preventDefault(); selectLine(null); });
    panel.appendChild(close);
    panel.appendChild(text("strong", path.split("/").pop() + ":" + line));
    panel.hidden = false;
    var body = panel.appendChild(text("div", "reading the report…"));
    report().then(function (doc) {
      body.textContent = "";
      if (!doc.invariants) {
        body.appendChild(text("p", "no invariants in this report (the analysis did not finish)"));
        return;
      }
      var found = invariantsAt(doc, path, line);
      body.appendChild(text("span", " invariants before the line (" + doc.invariants.config.mode +
        ", " + doc.invariants.config.domain + ")"));
      if (!found.length) body.appendChild(text("p", "no thread reaches this line"));
      var t = document.createElement("table");
      t.className = "invariants";
      found.forEach(function (f) {
        var tr = t.insertRow();
        tr.appendChild(text("td", f.thread));
        var parts = Object.keys(f.values).map(function (k) { return k + " ∈ " + f.values[k]; });
        tr.appendChild(document.createElement("td")).appendChild(
          text("code", parts.length ? parts.join(", ") : "reached"));
      });
      body.appendChild(t);
      if (doc.invariants.unconstrained_omitted) {
        body.appendChild(text("p", "variables not listed may have any value of their type", "hint"));
      }
    }, function (err) { body.textContent = String(err.message || err); });
  }
  // The selected line: lit, its invariants shown; `null` clears the selection.
  var selected = null;
  function selectLine(row, scroll) {
    if (selected) selected.classList.remove("sel");
    selected = row;
    if (!row) { panel.hidden = true; return; }
    row.classList.add("sel");
    var m = /^f(\d+)L(\d+)$/.exec(row.id);
    var src = row.closest(".src");
    showInvariants(src.dataset.path, Number(m[2]));
    if (scroll) row.scrollIntoView({ block: "center" });
  }
  function lineOfHash(hash) {
    var m = /^#f(\d+)L(\d+)$/.exec(hash);
    return m ? lineRow(m[1], Number(m[2])) : null;
  }
  // A click on a line's number (left of its row) selects the line; the address stays, so an
  // open finding stays open.
  Array.prototype.forEach.call(document.querySelectorAll(".src"), function (src) {
    src.addEventListener("click", function (e) {
      var li = e.target.closest("li");
      if (!li || e.clientX >= li.getBoundingClientRect().left) return;
      var f = src.dataset.file, ol = li.parentNode;
      if (!li.id && ol.classList.contains("chunk")) {
        lineRow(f, Number(ol.getAttribute("start")) + Array.prototype.indexOf.call(ol.children, li));
      }
      if (li.id) selectLine(li, false);
    });
  });
  // A link to a line from an open finding selects the line and keeps the finding open;
  // opening a finding's details (a `#A1` link, CSS :target) keeps the page where it was.
  var kept = null;
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[href^='#']");
    if (!a) return;
    var row = lineOfHash(a.getAttribute("href"));
    if (row && document.querySelector(".detail:target")) {
      e.preventDefault();
      selectLine(row, true);
      return;
    }
    var target = document.getElementById(a.getAttribute("href").slice(1));
    kept = target && target.classList.contains("detail") ? window.scrollY : null;
  }, true);
  function onHash() {
    if (kept !== null) window.scrollTo(0, kept);
    kept = null;
    var row = lineOfHash(location.hash);
    if (row) selectLine(row, true);
    var detail = location.hash.length > 1 ? document.getElementById(location.hash.slice(1)) : null;
    if (detail && detail.classList.contains("detail")) moreAccesses(detail);
  }
  window.addEventListener("hashchange", onHash);

  // A race's accesses beyond those written in its details, from the document, when it opens.
  var paths = {};
  Array.prototype.forEach.call(document.querySelectorAll(".src"), function (s) { paths[s.dataset.path] = s.dataset.file; });
  function moreAccesses(detail) {
    var note = detail.querySelector("p.unshown");
    if (!note) return;
    var table = detail.querySelector("table.accesses");
    report().then(function (doc) {
      var race = (doc.races || []).filter(function (r) { return r.id === note.dataset.race; })[0];
      if (!race || !note.parentNode) return;
      // Every access: `access_ids` into the document's table (`accesses` lists the first).
      var all = race.access_ids && doc.race_accesses
        ? race.access_ids.map(function (i) { return doc.race_accesses[i]; })
        : race.accesses;
      all.slice(table.tBodies[0].rows.length).forEach(function (a) {
        var tr = table.tBodies[0].insertRow();
        var short = a.file.split("/").pop() + (a.line ? ":" + a.line + (a.column ? ":" + a.column : "") : "");
        var f = paths[a.file], where = tr.insertCell();
        if (f !== undefined && a.line) {
          where.appendChild(text("a", short)).href = "#f" + f + "L" + a.line;
        } else {
          where.textContent = short;
        }
        tr.insertCell().textContent = a.kind + (a.atomic ? " (atomic)" : "") + (a.how ? " (" + a.how + ")" : "");
        tr.insertCell().textContent = a.thread;
        tr.insertCell().appendChild(text("code", a.function));
        tr.insertCell().textContent = a.locks.length ? a.locks.join(", ") : "none";
      });
      note.remove();
    }, function (err) { note.textContent += " (" + String(err.message || err) + ")"; });
  }
  onHash();

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
    var row = g.dataset.file !== "" ? lineRow(g.dataset.file, Number(g.dataset.line)) : null;
    if (!row) { box.textContent = title + " (no source line)"; return; }
    var path = row.closest(".src").dataset.path.split("/").pop();
    var code = row.cloneNode(true);
    Array.prototype.forEach.call(code.querySelectorAll(".marks"), function (e) { e.remove(); });
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
