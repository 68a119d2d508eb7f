//! The page's data: every witness step has a row and a mark, every race access a mark, and
//! the page shows the document's counts.

use super::page::{MarkKind, Page};
use serde_json::json;

const SOURCE: &str = "int count = 0;\n\
void *inc(void *arg) {\n\
    pthread_mutex_lock(&m);\n\
    int c = count;\n\
    count = c + 1;\n\
    pthread_mutex_unlock(&m);\n\
    return 0;\n\
}\n\
int main(void) {\n\
    pthread_create(&a, 0, inc, 0);\n\
    pthread_join(a, 0);\n\
    assert(count == 2); // a <b> & c\n\
}\n";

fn step(
    n: usize,
    tid: usize,
    thread: &str,
    event: &str,
    line: u32,
    action: serde_json::Value,
) -> serde_json::Value {
    json!({"step": n, "tid": tid, "thread": thread, "alternative": 0, "event": event,
           "action": action, "file": "t.c", "line": line, "column": 5})
}

fn witness() -> serde_json::Value {
    json!({"version": 2, "program": {"inputs": ["t.c"], "clang_args": []},
    "assertion": {"id": "A1", "file": "t.c", "line": 12, "condition": "count == 2"},
    "bound": 10,
    "steps": [
        step(1, 0, "main", "starts", 10, json!({"op": "start"})),
        step(2, 0, "main", "creates thread 1 (inc)", 10, json!({"op": "spawn", "thread": 1})),
        step(3, 1, "inc", "starts", 3, json!({"op": "start"})),
        step(4, 1, "inc", "locks m", 3, json!({"op": "lock", "memory": "m"})),
        step(5, 1, "inc", "reads count = 0", 4, json!({"op": "read", "memory": "count", "value": "0"})),
        step(6, 1, "inc", "writes count = 1", 5, json!({"op": "write", "memory": "count", "value": "1"})),
        step(7, 1, "inc", "unlocks m", 6, json!({"op": "unlock", "memory": "m"})),
        step(8, 0, "main", "joins thread 1", 11, json!({"op": "join", "thread": 1})),
        step(9, 0, "main", "reads count = 1", 12,
             json!({"op": "read", "memory": "count", "value": "1", "reads_from": 6})),
    ]})
}

fn document() -> serde_json::Value {
    json!({
        "version": 1,
        "inputs": ["t.c"],
        "config": {"mode": "optimized", "domain": "interval", "checks": ["assert", "race"]},
        "assertions": [
            {"id": "A1", "file": "t.c", "line": 12, "column": 5, "function": "main",
             "condition": "count == 2", "status": "violated", "reason": "an execution fails it",
             "values": {}, "threads": ["main"], "explanation": [], "witness": witness()},
            {"id": "A2", "file": "t.c", "line": 4, "column": 5, "function": "inc",
             "condition": "c >= 0", "status": "may-fail", "reason": "may be false",
             "values": {"c": "[0, 1]"}, "threads": ["inc"],
             "explanation": [{"location": "count", "load": {"file": "t.c", "line": 4, "column": 13},
                              "store": {"file": "t.c", "line": 5, "column": 11}, "store_thread": "inc#2"}]}
        ],
        "races": [
            {"id": "R1", "status": "may-race", "memory": "count", "reason": "no common lock",
             "accesses": [
                {"file": "t.c", "line": 5, "column": 11, "kind": "write", "atomic": false,
                 "thread": "inc", "function": "inc", "locks": []},
                {"file": "t.c", "line": 12, "column": 12, "kind": "read", "atomic": false,
                 "thread": "main", "function": "main", "locks": []},
                {"file": "elsewhere.c", "line": 3, "column": 1, "kind": "read", "atomic": false,
                 "thread": "main", "function": "main", "locks": []}],
             "pairs": [[0, 1]]},
            // A confirmed race: its witness has the shape of an assertion's.
            {"id": "R2", "status": "violated", "memory": "count", "reason": "both at once",
             "accesses": [], "pairs": [], "witness": witness()}
        ],
        "summary": {"assertions": 2, "proved": 0, "unreachable": 0, "may_fail": 1, "violated": 1, "races": 2},
        "notes": [{"file": "t.c", "line": 12, "column": 5, "message": "a note on the assertion's line"}],
        "invariants": {"config": {"mode": "optimized", "domain": "interval", "lock_protection": false},
                       "complete": true, "notes": [],
                       "threads": [{"name": "main", "entry": "main", "multi": false,
                                    "lines": [{"file": "t.c", "line": 12, "functions": ["main"], "values": {}}]}]}
    })
}

fn page() -> Page {
    let doc = serde_json::from_value(document()).expect("the document reads");
    Page::new(
        doc,
        &[
            ("t.c".to_string(), Some(SOURCE.to_string())),
            (
                "/usr/include/stdio.h".to_string(),
                Some("int printf();\n".to_string()),
            ),
            ("gone.c".to_string(), None),
        ],
    )
}

#[test]
fn every_witness_step_is_a_row_and_a_mark() {
    let page = page();
    assert_eq!(
        page.diagrams.len(),
        2,
        "the assertion's and the confirmed race's"
    );
    for d in &page.diagrams {
        assert_eq!(d.lanes, ["main", "inc"]);
        assert_eq!(d.rows.len(), 9);
        let steps: Vec<usize> = d.rows.iter().map(|r| r.step).collect();
        assert_eq!(steps, (1..=9).collect::<Vec<_>>());
        let owner = page.items.iter().position(|i| i.id == d.owner).unwrap();
        for r in &d.rows {
            let (f, l) = r.place.expect("every step has a line of t.c");
            assert!(
                page.files[f].marks[&l]
                    .iter()
                    .any(|m| m.item == owner && m.kind == MarkKind::Step(r.step)),
                "step {} of {} is marked on line {l}",
                r.step,
                d.owner
            );
        }
        // The read of step 9 saw step 6's write; creation and join cross to lane 1.
        assert_eq!(d.rows[8].reads_from, Some(5));
        assert_eq!(
            (d.rows[1].op.as_str(), d.rows[1].other_lane),
            ("spawn", Some(1))
        );
        assert_eq!(
            (d.rows[7].op.as_str(), d.rows[7].other_lane),
            ("join", Some(1))
        );
        assert_eq!(d.locks.len(), 1);
        // A confirmed race's last two steps are its racing accesses.
        let racing: &[usize] = if d.owner == "R2" { &[7, 8] } else { &[] };
        assert_eq!(d.racing, racing);
        assert_eq!((d.locks[0].lane, d.locks[0].from, d.locks[0].to), (1, 3, 6));
    }
}

#[test]
fn every_race_access_has_a_place() {
    let page = page();
    let r1 = page.items.iter().position(|i| i.id == "R1").unwrap();
    let item = &page.items[r1];
    assert_eq!(item.accesses.len(), 3);
    for (k, (a, place)) in item.accesses.iter().enumerate() {
        match place {
            Some((f, l)) => assert!(page.files[*f].marks[l]
                .iter()
                .any(|m| m.item == r1 && m.kind == MarkKind::Access(k))),
            // A file without its text has no place; the access is still listed in the details.
            None => assert_eq!(a.file, "elsewhere.c"),
        }
    }
    assert_eq!(item.threads, ["inc", "main"]);
}

#[test]
fn assertions_stores_and_notes_are_placed() {
    let page = page();
    // Shown: t.c; not the system header nobody names, nor the file without text.
    let paths: Vec<&str> = page.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["t.c"]);
    let a2 = &page.items[1];
    assert_eq!(a2.stores.len(), 1);
    assert_eq!(a2.stores[0].store, Some((0, 5)));
    assert_eq!(a2.stores[0].load, Some((0, 4)));
    assert!(page.files[0].marks[&5].contains(&super::page::Mark {
        item: 1,
        kind: MarkKind::Store(0)
    }));
    assert_eq!(page.items[0].notes, ["a note on the assertion's line"]);
}

#[test]
fn the_page_shows_the_counts_and_embeds_the_document_once() {
    let html = super::render(
        &document(),
        &[("t.c".to_string(), Some(SOURCE.to_string()))],
    );
    for (key, n) in [
        ("assertions", 2),
        ("violated", 1),
        ("may_fail", 1),
        ("races", 2),
    ] {
        assert!(
            html.contains(&format!("data-key=\"{key}\"><b>{n}</b>")),
            "count {key}"
        );
    }
    assert_eq!(html.matches("id=\"watts-report\"").count(), 1);
    // Source text is escaped.
    assert!(html.contains("// a &lt;b&gt; &amp; c"));
    assert_eq!(super::embedded(&html), Some(document()));
    // One lane and one row per thread and step in each diagram.
    assert_eq!(html.matches("<g class=\"lane\"").count(), 4);
    assert_eq!(html.matches("<g class=\"step ").count(), 18);
    assert!(html.contains("data-lanes=\"2\" data-rows=\"9\""));
    // Nothing is fetched: no external reference of any kind.
    for bad in ["src=\"http", "href=\"http", "<link", "@import", "url(http"] {
        assert!(!html.contains(bad), "{bad}");
    }
}

/// The lines links point to (`href="#f0L12"`) and the lines with ids.
fn links_and_ids(html: &str) -> (Vec<String>, Vec<String>) {
    let page = html.split("<script").next().unwrap();
    let links = (page.split("href=\"#f").skip(1))
        .map(|s| format!("f{}", s.split('"').next().unwrap()))
        .collect();
    let ids = (page.split("<li id=").skip(1))
        .map(|s| s.split([' ', '>']).next().unwrap().to_string())
        .collect();
    (links, ids)
}

#[test]
fn every_line_a_link_points_to_has_an_id_and_the_others_none() {
    let html = super::render(
        &document(),
        &[("t.c".to_string(), Some(SOURCE.to_string()))],
    );
    let (links, ids) = links_and_ids(&html);
    assert!(!links.is_empty());
    for l in &links {
        assert!(ids.contains(l), "a link to {l}, which has no id");
    }
    // The assertion's line, the access lines, the store and load of the explanation.
    let mut want = vec!["f0L12", "f0L5", "f0L4"];
    want.sort();
    let mut ids = ids;
    ids.sort();
    assert_eq!(ids, want);
    // Lines are the items of ordered lists, numbered by the browser.
    assert_eq!(html.matches("<ol class=\"chunk\" start=\"1\">").count(), 1);
    let sources = html.split("<section id=\"sources\">").nth(1).unwrap();
    let sources = sources.split("</main>").next().unwrap();
    assert_eq!(sources.matches("<li").count(), SOURCE.lines().count());
}

#[test]
fn a_race_shows_its_first_accesses_and_says_how_many_more() {
    let mut doc = document();
    let access = doc["races"][0]["accesses"][0].clone();
    let shown = super::ACCESSES_SHOWN;
    doc["races"][0]["accesses"] = serde_json::Value::Array(vec![access; shown + 3]);
    doc["races"][0]["more_accesses"] = json!(7);
    let html = super::render(&doc, &[("t.c".to_string(), Some(SOURCE.to_string()))]);
    let details = html.split("id=\"R1\"").nth(1).unwrap();
    let details = details.split("</section>").next().unwrap();
    assert_eq!(details.matches("<tr><td>").count(), shown);
    assert!(details.contains("3 more accesses are marked in the sources and listed in the JSON"));
    assert!(details.contains("and 7 more accesses the report does not list"));
}

/// A document with `race_accesses` gives a race every access through its `access_ids`, also
/// those its `accesses` does not list: the page counts them as listed in the JSON.
#[test]
fn a_race_takes_every_access_from_its_ids() {
    let mut doc = document();
    let access = doc["races"][0]["accesses"][0].clone();
    let shown = super::ACCESSES_SHOWN;
    doc["race_accesses"] = serde_json::Value::Array(vec![access.clone()]);
    doc["races"][0]["accesses"] = serde_json::Value::Array(vec![access; 2]);
    doc["races"][0]["access_ids"] = serde_json::Value::Array(vec![json!(0); shown + 5]);
    doc["races"][0]["more_accesses"] = json!(shown + 3);
    let html = super::render(&doc, &[("t.c".to_string(), Some(SOURCE.to_string()))]);
    let details = html.split("id=\"R1\"").nth(1).unwrap();
    let details = details.split("</section>").next().unwrap();
    assert_eq!(details.matches("<tr><td>").count(), shown);
    assert!(details.contains("5 more accesses are marked in the sources and listed in the JSON"));
    assert!(!details.contains("the report does not list"));
}

#[test]
fn a_file_without_its_text_lists_the_lines_named_in_it() {
    let doc = serde_json::from_value(document()).unwrap();
    let sources = [
        ("t.c".to_string(), Some(SOURCE.to_string())),
        ("elsewhere.c".to_string(), None),
        ("unnamed.c".to_string(), None),
    ];
    let page = Page::new(doc, &sources);
    let paths: Vec<&str> = page.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["t.c", "elsewhere.c"]);
    let r1 = &page.items[2];
    assert_eq!(r1.accesses[2].1, Some((1, 3)));
    let html = super::render(&document(), &sources);
    let file = html.split("id=\"f1\"").nth(1).unwrap();
    let file = file.split("</section>").next().unwrap();
    assert!(file.contains("the source text is not shown: it could not be read"));
    assert!(file.contains("<li id=f1L3 value=3 class=\"marked st-may-race\"><span class=\"marks\"><a class=\"mark st-may-race\" href=\"#R1\""));
    let (links, ids) = links_and_ids(&html);
    assert!(links.contains(&"f1L3".to_string()) && ids.contains(&"f1L3".to_string()));
}

#[test]
fn findings_marked_alike_on_a_line_share_one_mark_with_a_link_each() {
    let mut doc = document();
    let races = doc["races"].as_array_mut().unwrap();
    for id in ["R3", "R4"] {
        let mut r = races[0].clone();
        r["id"] = json!(id);
        races.push(r);
    }
    let html = super::render(&doc, &[("t.c".to_string(), Some(SOURCE.to_string()))]);
    let line5 = html.split("<li id=f0L5 ").nth(1).unwrap();
    let line5 = line5.split("<li").next().unwrap();
    assert!(
        line5.contains(
            "<span class=\"mark st-may-race\"><a href=\"#R1\">R1</a> <a href=\"#R3\">R3</a> \
             <a href=\"#R4\">R4</a> may-race write</span>"
        ),
        "{line5}"
    );
    // A finding alone in its kind keeps a mark of its own.
    assert!(line5.contains(
        "<a class=\"mark aux st-may-fail\" href=\"#A2\" data-item=\"A2\">A2 store read</a>"
    ));
}
