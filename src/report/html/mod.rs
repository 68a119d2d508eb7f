//! `--html DIR`: a static, self-contained report (`DIR/index.html`, opened from disk): the
//! summary of assertions and races, each shown source annotated with every finding, the
//! details of a finding (reason, values, notes, the stores its explanation names, accesses)
//! and its witness as an SVG swim-lane diagram, and the invariants of each line on selection.
//!
//! Invariant: the page is a view of the JSON v1 document of the run, which it embeds once
//! (compressed: `embed`): everything shown is read from that document (`page::Doc`) or from a
//! source text, never from the analysis. The summary, the sources and the details are HTML
//! written here (readable without JavaScript; a finding opens through a `#A1` link and CSS
//! `:target`, and every line a link points to has an id); the small hand-written script of
//! `page.js` only sorts and filters the summary, shows the invariants of a selected line and
//! the accesses of a race beyond the first few from the embedded document, and shows the
//! source line of a selected step. Nothing is fetched.
//!
//! The HTML is plain string building (D45): the summary and the details first, collecting the lines
//! their links point to, then each source as ordered lists of `CHUNK` (400) lines (`<li>` per line,
//! an id only on linked lines) that the browser lays out only when they come into view
//! (`content-visibility: auto`), and of a race the first `ACCESSES_SHOWN` (12) accesses (D47).
//! `page.css` and the hand-written `page.js` (sorting, filters, line invariants, the rest of a
//! race's accesses, step selection; lines found by position) are included in the page. `page` reads
//! the document into the page's data (one `Diagram` per witness, of an assertion or a confirmed
//! race alike), `highlight` colours C, `svg` draws a witness as swim lanes (one lane per thread,
//! one row per step).

pub mod embed;
mod highlight;
pub mod page;
mod svg;

use super::Report;
use highlight::{escape, escaped};
use page::{MarkKind, Page, Place};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

const CSS: &str = include_str!("page.css");
/// Source lines per chunk (`page.css` gives a chunk its height before it is laid out).
const CHUNK: usize = 400;
use crate::limits::HTML_ACCESSES_SHOWN as ACCESSES_SHOWN;
const SCRIPT: &str = include_str!("page.js");

/// Writes `DIR/index.html` for `report` (creating `DIR`; a file or a symbolic link there is
/// replaced, never written through).
pub fn write(report: &Report, dir: &Path) -> std::io::Result<()> {
    let json = super::json::value(report);
    let sources: Vec<(String, Option<String>)> = (report.program.files.iter())
        .map(|f| (f.path.clone(), f.text.clone()))
        .collect();
    let html = render(&json, &sources);
    // Not through a symbolic link a checked-out tree may have planted at `DIR/index.html`.
    crate::confine::write_in("--html", dir, "index.html", html.as_bytes())
}

/// The JSON document a page embeds, or `None` when `html` is no page of ours.
pub fn embedded(html: &str) -> Option<serde_json::Value> {
    let start = html.find(REPORT_OPEN)? + REPORT_OPEN.len();
    let end = start + html[start..].find("</script>")?;
    serde_json::from_str(&embed::decode(&html[start..end])?).ok()
}

const REPORT_OPEN: &str = "<script type=\"application/gzip;base64\" id=\"watts-report\">";

/// The page of the JSON document `json` over `sources` (path, text).
pub fn render(json: &serde_json::Value, sources: &[(String, Option<String>)]) -> String {
    let doc: page::Doc = serde_json::from_value(json.clone()).unwrap_or_default();
    let page = Page::new(doc, sources);
    // The summary and the details first: the lines their links point to get ids.
    let mut linked = BTreeSet::new();
    let mut summary_html = String::new();
    summary(&page, &mut linked, &mut summary_html);
    let mut details_html = String::new();
    details(&page, &mut linked, &mut details_html);
    let mut out = String::with_capacity(
        sources
            .iter()
            .map(|(_, t)| t.as_ref().map_or(0, |t| t.len() * 3 / 2))
            .sum::<usize>()
            + summary_html.len()
            + details_html.len()
            + 64 * 1024,
    );
    head(&page, &mut out);
    out.push_str(&summary_html);
    files(&page, &linked, &mut out);
    out.push_str(&details_html);
    out.push_str("<aside id=\"line-panel\" hidden></aside>\n");
    // The document, once, compressed (base64 cannot end the script element).
    out.push_str(REPORT_OPEN);
    out.push_str(&embed::encode(
        &serde_json::to_string(json).expect("a JSON value serialises"),
    ));
    out.push_str("</script>\n<script>");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

fn head(page: &Page, out: &mut String) {
    let doc = &page.doc;
    let inputs = doc.inputs.join(" ");
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>watts: {}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<header>\n\
         <h1>watts report <small>{}</small></h1>\n<p class=\"config\">mode {}, domain {}, \
         checks: {}</p>\n<p class=\"counts\" id=\"counts\">",
        escaped(&inputs),
        escaped(&inputs),
        escaped(&doc.config.mode),
        escaped(&doc.config.domain),
        escaped(&doc.config.checks.join(", "))
    );
    let s = &doc.summary;
    let mut counts = vec![
        (
            "assertions",
            s.assertions,
            if s.assertions == 1 {
                "assertion"
            } else {
                "assertions"
            },
        ),
        ("proved", s.proved, "proved"),
        ("unreachable", s.unreachable, "unreachable"),
        ("may_fail", s.may_fail, "may fail"),
        ("violated", s.violated, "violated"),
    ];
    if let Some(r) = s.races {
        counts.push(("races", r, if r == 1 { "data race" } else { "data races" }));
    }
    for (key, n, label) in counts {
        let _ = write!(
            out,
            "<span class=\"count c-{key}\" data-key=\"{key}\"><b>{n}</b> {label}</span> "
        );
    }
    if let Some(why) = &s.races_incomplete {
        let _ = writeln!(
            out,
            "<span class=\"incomplete\">data races not checked: {}</span>",
            escaped(why)
        );
    }
    out.push_str("</p>\n</header>\n<main>\n");
}

/// A link to `place`, its text `file:line:column` with the file's last name (and the full path
/// on hover, unless `short`: a race's access rows are hundreds per page), or the text alone
/// for a line the page does not show; `linked` collects the lines links point to.
fn location(
    linked: &mut BTreeSet<Place>,
    file: &str,
    place: Option<Place>,
    (line, column): (Option<u32>, Option<u32>),
    short: bool,
) -> String {
    let name = file.rsplit('/').next().unwrap_or(file);
    let text = escaped(&match (line, column) {
        (Some(l), Some(c)) => format!("{name}:{l}:{c}"),
        (Some(l), None) => format!("{name}:{l}"),
        _ => name.to_string(),
    });
    let title = if short {
        String::new()
    } else {
        format!(" title=\"{}\"", escaped(file))
    };
    match place {
        Some((f, l)) => {
            linked.insert((f, l));
            format!("<a href=\"#f{f}L{l}\"{title}>{text}</a>")
        }
        None if short => text,
        None => format!("<span{title}>{text}</span>"),
    }
}

fn summary(page: &Page, linked: &mut BTreeSet<Place>, out: &mut String) {
    out.push_str(
        "<section id=\"summary\">\n<h2>Findings</h2>\n<div class=\"filters\" hidden>\
         <label>status <select id=\"filter-status\"><option value=\"\">all</option></select></label> \
         <label>file <select id=\"filter-file\"><option value=\"\">all</option></select></label> \
         <label>thread <select id=\"filter-thread\"><option value=\"\">all</option></select></label> \
         <span id=\"shown\"></span></div>\n<table id=\"findings\">\n<thead><tr>\
         <th data-sort=\"id\">id</th><th data-sort=\"status\">status</th>\
         <th data-sort=\"location\">location</th><th data-sort=\"what\">what</th>\
         <th data-sort=\"threads\">threads</th><th>reason</th></tr></thead>\n<tbody>",
    );
    for (i, item) in page.items.iter().enumerate() {
        let kind = if item.is_race { "race" } else { "assertion" };
        let what = if item.is_race {
            format!("race on <code>{}</code>", escaped(&item.title))
        } else {
            format!("<code>{}</code>", escaped(&item.title))
        };
        let _ = writeln!(
            out,
            "<tr class=\"item st-{st}\" data-index=\"{i}\" data-kind=\"{kind}\" \
             data-status=\"{st}\" data-file=\"{file}\" data-line=\"{line}\" \
             data-threads=\"{threads}\"><td><a href=\"#{id}\">{id}</a></td>\
             <td><span class=\"badge st-{st}\">{st}</span></td><td>{loc}</td><td>{what}</td>\
             <td>{threads_text}</td><td class=\"reason\">{reason}</td></tr>",
            st = escaped(&item.status),
            file = escaped(&item.file),
            line = item.line.unwrap_or(0),
            threads = escaped(&item.threads.join("|")),
            id = escaped(&item.id),
            loc = location(
                linked,
                &item.file,
                item.place,
                (item.line, item.column),
                false
            ),
            threads_text = escaped(&item.threads.join(", ")),
            reason = escaped(&item.reason),
        );
    }
    if page.items.is_empty() {
        out.push_str("<tr><td colspan=\"6\">no assertion and no data race</td></tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

/// The rank of a status on a line's background: the worst one wins.
fn rank(status: &str) -> u8 {
    match status {
        "violated" => 4,
        "may-fail" | "may-race" => 3,
        "unreachable" => 1,
        "proved" => 2,
        _ => 0,
    }
}

fn files(page: &Page, linked: &BTreeSet<Place>, out: &mut String) {
    out.push_str("<section id=\"sources\">\n<h2>Sources</h2>\n");
    for (f, file) in page.files.iter().enumerate() {
        let _ = writeln!(
            out,
            "<section class=\"file\" id=\"f{f}\">\n<h3>{}</h3>\n\
             <div class=\"src\" data-file=\"{f}\" data-path=\"{}\" data-chunk=\"{CHUNK}\">",
            escaped(&file.path),
            escaped(&file.path)
        );
        match &file.text {
            Some(text) => {
                for (i, code) in highlight::lines(text).iter().enumerate() {
                    let l = i as u32 + 1;
                    // Lines in chunks that the browser lays out only when they come into view
                    // (`content-visibility: auto`): a 40,000-line file opens in a quarter of
                    // the time. An ordered list numbers the lines; a line has an id only when
                    // a link points to it (the script finds the others by position).
                    if i % CHUNK == 0 {
                        if i > 0 {
                            out.push_str("</ol>\n");
                        }
                        let _ = write!(out, "<ol class=\"chunk\" start=\"{l}\">");
                    }
                    line_open(page, f, l, linked.contains(&(f, l)), None, out);
                    out.push_str(code);
                    line_marks(page, file, l, out);
                }
                if !text.is_empty() {
                    out.push_str("</ol>\n");
                }
            }
            None => {
                // No text to show: the lines something names, with their marks.
                out.push_str("<p class=\"no-text\">the source text is not shown: it could not be read, or it is no regular file under the directories of the inputs and include paths</p>\n<ol class=\"lines\">");
                for &l in file
                    .marks
                    .keys()
                    .chain(linked.range((f, 0)..(f + 1, 0)).map(|(_, l)| l))
                    .collect::<BTreeSet<_>>()
                {
                    line_open(page, f, l, true, Some(l), out);
                    line_marks(page, file, l, out);
                }
                out.push_str("</ol>\n");
            }
        }
        out.push_str("</div>\n</section>\n");
    }
    out.push_str("</section>\n</main>\n");
}

/// Opens line `l` of file `f` (an `<li>`, closed by the next one): its id when `with_id`, its
/// number when it is not the list's next, the worst status of the findings on it.
fn line_open(page: &Page, f: usize, l: u32, with_id: bool, number: Option<u32>, out: &mut String) {
    let worst = (page.files[f].marks.get(&l).into_iter().flatten())
        .filter(|m| matches!(m.kind, MarkKind::Assertion | MarkKind::Access(_)))
        .map(|m| page.items[m.item].status.as_str())
        .max_by_key(|s| rank(s));
    // Compact rows (a large program has tens of thousands): unquoted ids, no white space.
    out.push_str("<li");
    if with_id {
        let _ = write!(out, " id=f{f}L{l}");
    }
    if let Some(n) = number {
        let _ = write!(out, " value={n}");
    }
    if let Some(st) = worst {
        let _ = write!(out, " class=\"marked st-{}\"", escaped(st));
    }
    out.push('>');
}

fn line_marks(page: &Page, file: &page::File, l: u32, out: &mut String) {
    if let Some(marks) = file.marks.get(&l) {
        out.push_str("<span class=\"marks\">");
        marks_html(page, marks, out);
        out.push_str("</span>");
    }
}

/// Findings marked alike on one line: the mark's class, their status, the mark's text.
struct MarkGroup<'a> {
    class: &'static str,
    status: &'a str,
    text: String,
    ids: Vec<&'a str>,
}

/// The marks of one line: per finding, the assertion or its accesses, its stores, its steps.
/// Findings marked alike on the line share one mark (`R3 R4 R9 may-race write`): a line of a
/// real program may be touched by a hundred races.
fn marks_html(page: &Page, marks: &[page::Mark], out: &mut String) {
    // The findings marked alike, in the order of the marks.
    let mut groups: Vec<MarkGroup> = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    for m in marks {
        if seen.contains(&m.item) {
            continue;
        }
        seen.push(m.item);
        let item = &page.items[m.item];
        let mine: Vec<&MarkKind> = (marks.iter())
            .filter(|o| o.item == m.item)
            .map(|o| &o.kind)
            .collect();
        let mut parts: Vec<String> = Vec::new();
        if mine.contains(&&MarkKind::Assertion) {
            parts.push(item.status.clone());
        }
        let mut accesses: Vec<String> = Vec::new();
        for k in &mine {
            if let MarkKind::Access(a) = k {
                let kind = &item.accesses[*a].0.kind;
                if !accesses.contains(kind) {
                    accesses.push(kind.clone());
                }
            }
        }
        if !accesses.is_empty() {
            parts.push(format!("{} {}", item.status, accesses.join(", ")));
        }
        if mine.iter().any(|k| matches!(k, MarkKind::Store(_))) {
            parts.push("store read".to_string());
        }
        let steps: Vec<String> = (mine.iter())
            .filter_map(|k| match k {
                MarkKind::Step(n) => Some(format!("({n})")),
                _ => None,
            })
            .collect();
        if !steps.is_empty() {
            parts.push(format!("step {}", steps.join(" ")));
        }
        let primary = mine
            .iter()
            .any(|k| matches!(k, MarkKind::Assertion | MarkKind::Access(_)));
        let class = if primary { "mark" } else { "mark aux" };
        let text = parts.join("; ");
        let alike =
            |g: &&mut MarkGroup| g.class == class && g.status == item.status && g.text == text;
        match groups.iter_mut().find(alike) {
            Some(g) => g.ids.push(&item.id),
            None => groups.push(MarkGroup {
                class,
                status: &item.status,
                text,
                ids: vec![&item.id],
            }),
        }
    }
    for MarkGroup {
        class,
        status: st,
        text,
        ids,
    } in groups
    {
        if let [id] = ids[..] {
            let _ = write!(
                out,
                "<a class=\"{class} st-{st}\" href=\"#{id}\" data-item=\"{id}\">{id} {text}</a>",
                st = escaped(st),
                id = escaped(id),
                text = escaped(&text)
            );
            continue;
        }
        let _ = write!(out, "<span class=\"{class} st-{}\">", escaped(st));
        for id in ids {
            let _ = write!(out, "<a href=\"#{id}\">{id}</a> ", id = escaped(id));
        }
        escape(&text, out);
        out.push_str("</span>");
    }
}

fn details(page: &Page, linked: &mut BTreeSet<Place>, out: &mut String) {
    out.push_str("<div id=\"details\">\n");
    for item in &page.items {
        let kind = if item.is_race {
            "data race"
        } else {
            "assertion"
        };
        let _ = writeln!(
            out,
            "<section class=\"detail\" id=\"{id}\" data-status=\"{st}\">\n\
             <a class=\"close\" href=\"#summary\" title=\"close\">×</a>\n\
             <h2>{id} <span class=\"badge st-{st}\">{st}</span> <small>{kind}</small></h2>",
            id = escaped(&item.id),
            st = escaped(&item.status)
        );
        if item.is_race {
            let _ = writeln!(out, "<p>on <code>{}</code></p>", escaped(&item.title));
        } else {
            let _ = writeln!(
                out,
                "<p><code>{}</code> in <code>{}</code> at {}</p>",
                escaped(&item.title),
                escaped(&item.function),
                location(
                    linked,
                    &item.file,
                    item.place,
                    (item.line, item.column),
                    false
                )
            );
        }
        let _ = writeln!(out, "<p class=\"reason\">{}</p>", escaped(&item.reason));
        if !item.threads.is_empty() {
            let _ = writeln!(out, "<p>threads: {}</p>", escaped(&item.threads.join(", ")));
        }
        if !item.values.is_empty() {
            out.push_str("<p>values:");
            for (name, v) in &item.values {
                let _ = write!(out, " <code>{} = {}</code>", escaped(name), escaped(v));
            }
            out.push_str("</p>\n");
        }
        if !item.notes.is_empty() {
            out.push_str("<ul class=\"notes\">");
            for n in &item.notes {
                let _ = write!(out, "<li>note: {}</li>", escaped(n));
            }
            out.push_str("</ul>\n");
        }
        if !item.stores.is_empty() {
            out.push_str("<h3>Stores the explanation names</h3>\n<ul class=\"stores\">");
            for st in &item.stores {
                out.push_str("<li>the load of <code>");
                escape(&st.memory, out);
                out.push_str("</code>");
                if let Some((f, l)) = &st.load_at {
                    let _ = write!(
                        out,
                        " at {}",
                        location(linked, f, st.load, (Some(*l), None), false)
                    );
                }
                out.push_str(" may read the store ");
                match &st.store_at {
                    Some((f, l)) => {
                        let _ = write!(
                            out,
                            "at {}",
                            location(linked, f, st.store, (Some(*l), None), false)
                        );
                    }
                    None => out.push_str("at an unknown place"),
                }
                if let Some(t) = &st.thread {
                    let _ = write!(out, " in thread {}", escaped(t));
                }
                if let Some((f, l)) = st.store {
                    let text = page.files[f].text.as_deref().unwrap_or_default();
                    if let Some(text) = text.lines().nth(l as usize - 1) {
                        let _ = write!(out, ": <code>{}</code>", escaped(text.trim()));
                    }
                }
                out.push_str("</li>");
            }
            out.push_str("</ul>\n");
        }
        if !item.accesses.is_empty() {
            let _ = write!(
                out,
                "<h3>Accesses</h3>\n<table class=\"accesses\" data-race=\"{}\"><thead><tr>\
                 <th>where</th><th>kind</th><th>thread</th><th>function</th><th>locks held</th>\
                 </tr></thead><tbody>",
                escaped(&item.id)
            );
            for (a, place) in item.accesses.iter().take(ACCESSES_SHOWN) {
                access_row(linked, a, *place, out);
            }
            out.push_str("</tbody></table>\n");
            let unshown = item.accesses.len().saturating_sub(ACCESSES_SHOWN);
            if unshown > 0 {
                let _ = writeln!(
                    out,
                    "<p class=\"unshown\" data-race=\"{}\">{unshown} more accesses are marked \
                     in the sources and listed in the JSON report</p>",
                    escaped(&item.id)
                );
            }
            if item.more_accesses > 0 {
                let _ = writeln!(
                    out,
                    "<p>and {} more accesses the report does not list</p>",
                    item.more_accesses
                );
            }
        }
        if let Some(d) = item.diagram {
            out.push_str("<h3>The execution</h3>\n");
            if let Some(by) = &item.found_by {
                let _ = writeln!(out, "<p>found by {}</p>", escaped(by));
            }
            out.push_str("<p class=\"legend\"><span class=\"lg rf\">write → the read that saw it</span> \
                 <span class=\"lg sp\">creation, join</span> <span class=\"lg lk\">lock held</span>");
            if !page.diagrams[d].racing.is_empty() {
                out.push_str(" <span class=\"lg rc\">the two racing accesses</span>");
            }
            out.push_str("</p>\n<div class=\"diagram\">");
            svg::render(&page.diagrams[d], d, out);
            let _ = writeln!(
                out,
                "</div>\n<p class=\"step-source\" id=\"step-source-{}\">select a step to see its \
                 source line</p>",
                escaped(&item.id)
            );
        }
        out.push_str("</section>\n");
    }
    out.push_str("</div>\n");
}

/// One row of a race's access table (`page.js` writes the same rows for the rest).
fn access_row(
    linked: &mut BTreeSet<Place>,
    a: &page::DocAccess,
    place: Option<Place>,
    out: &mut String,
) {
    let mut kind = a.kind.clone();
    if a.atomic {
        kind.push_str(" (atomic)");
    }
    if let Some(how) = &a.how {
        kind.push_str(&format!(" ({how})"));
    }
    let _ = write!(
        out,
        "<tr><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td></tr>",
        location(linked, &a.file, place, (a.line, a.column), true),
        escaped(&kind),
        escaped(&a.thread),
        escaped(&a.function),
        if a.locks.is_empty() {
            "none".to_string()
        } else {
            escaped(&a.locks.join(", "))
        }
    );
}

#[cfg(test)]
mod tests;
