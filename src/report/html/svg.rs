//! A witness as an inline SVG swim-lane diagram, written from Rust (the page needs no script
//! to show it): one lane per thread, one row per step, an arrow from each write to the read
//! that saw it, lock regions shaded, thread creation and join drawn as arrows across lanes.
//!
//! Invariant: the diagram has exactly one `g.lane` per lane and one `g.step` per row, and a
//! step's `data-file`/`data-line` name the source row it selects.

use super::highlight::{escape, escaped};
use super::page::Diagram;
use std::fmt::Write;

const LANE_W: usize = 210;
const ROW_H: usize = 28;
const TOP: usize = 34;
const LEFT: usize = 34;
/// The most characters of a step's words shown in its box (the whole text is its tooltip).
const TEXT_CHARS: usize = 30;

fn lane_x(lane: usize) -> usize {
    LEFT + lane * LANE_W
}

fn center_x(lane: usize) -> usize {
    lane_x(lane) + LANE_W / 2
}

fn row_y(row: usize) -> usize {
    TOP + row * ROW_H
}

fn center_y(row: usize) -> usize {
    row_y(row) + ROW_H / 2
}

/// The SVG of `d`; `n` makes its element ids unique in the page.
pub fn render(d: &Diagram, n: usize, out: &mut String) {
    let width = LEFT + d.lanes.len() * LANE_W + 10;
    let height = TOP + d.rows.len() * ROW_H + 10;
    let owner = escaped(&d.owner);
    let _ = write!(
        out,
        "<svg class=\"lanes\" xmlns=\"http://www.w3.org/2000/svg\" data-owner=\"{owner}\" \
         data-lanes=\"{}\" data-rows=\"{}\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"the execution of {owner}, \
         one lane per thread\">",
        d.lanes.len(),
        d.rows.len()
    );
    for (id, class) in [("rf", "rf-head"), ("sp", "sp-head")] {
        let _ = write!(
            out,
            "<defs><marker id=\"{id}{n}\" class=\"{class}\" viewBox=\"0 0 10 10\" refX=\"9\" \
             refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">\
             <path d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>"
        );
    }
    // Lanes: a header and a line down.
    for (i, name) in d.lanes.iter().enumerate() {
        let _ = write!(
            out,
            "<g class=\"lane\" data-lane=\"{i}\"><rect class=\"lane-bg\" x=\"{}\" y=\"0\" \
             width=\"{}\" height=\"{height}\"/><text class=\"lane-name\" x=\"{}\" y=\"20\">",
            lane_x(i) + 2,
            LANE_W - 4,
            center_x(i)
        );
        escape(name, out);
        let _ = write!(
            out,
            "</text><line class=\"lane-line\" x1=\"{x}\" y1=\"{TOP}\" x2=\"{x}\" y2=\"{}\"/></g>",
            height - 4,
            x = center_x(i)
        );
    }
    // Lock regions under the steps.
    for l in &d.locks {
        let _ = write!(
            out,
            "<rect class=\"lock\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{} holds ",
            lane_x(l.lane) + 4,
            row_y(l.from) + 1,
            LANE_W - 8,
            (l.to - l.from + 1) * ROW_H - 2,
            escaped(&d.lanes[l.lane])
        );
        escape(&l.lock, out);
        out.push_str("</title></rect>");
    }
    // Creation and join: across lanes, at the row of the step.
    for (i, r) in d.rows.iter().enumerate() {
        let Some(other) = r.other_lane.filter(|&o| o != r.lane) else {
            continue;
        };
        // The arrow leaves or reaches the step's own box at its edge, so that its head shows.
        let edge = |lane: usize, toward: usize| {
            if toward > lane {
                lane_x(lane) + LANE_W - 8
            } else {
                lane_x(lane) + 8
            }
        };
        let (x1, x2, class) = match r.op.as_str() {
            "spawn" => (edge(r.lane, other), center_x(other), "spawn"),
            "join" => (center_x(other), edge(r.lane, other), "join"),
            _ => continue,
        };
        let _ = write!(
            out,
            "<line class=\"{class}\" x1=\"{x1}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\" \
             marker-end=\"url(#sp{n})\"/>",
            y = center_y(i)
        );
    }
    // The two racing accesses of a confirmed race: joined by a dashed line under
    // their boxes.
    if let [a, b] = d.racing[..] {
        let _ = write!(
            out,
            "<line class=\"race\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"><title>the two \
             accesses that race</title></line>",
            center_x(d.rows[a].lane),
            center_y(a),
            center_x(d.rows[b].lane),
            center_y(b)
        );
    }
    // Steps.
    for (i, r) in d.rows.iter().enumerate() {
        let (file, line) = r.place.map_or((String::new(), String::new()), |(f, l)| {
            (f.to_string(), l.to_string())
        });
        let op = if r.op.is_empty() { "other" } else { &r.op };
        let racing = if d.racing.contains(&i) { " racing" } else { "" };
        let _ = write!(
            out,
            "<g class=\"step op-{op}{racing}\" data-step=\"{}\" data-row=\"{i}\" data-lane=\"{}\" \
             data-file=\"{file}\" data-line=\"{line}\" tabindex=\"0\"><title>({}) ",
            r.step, r.lane, r.step
        );
        escape(&d.lanes[r.lane], out);
        out.push_str(": ");
        escape(&r.event, out);
        if let Some((f, l)) = &r.at {
            out.push_str(" at ");
            escape(f, out);
            let _ = write!(out, ":{l}");
        }
        let _ = write!(
            out,
            "</title><text class=\"step-no\" x=\"4\" y=\"{}\">{}</text>\
             <rect class=\"step-box\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\"/>\
             <text class=\"step-text\" x=\"{}\" y=\"{}\">",
            center_y(i) + 4,
            r.step,
            lane_x(r.lane) + 8,
            row_y(i) + 4,
            LANE_W - 16,
            ROW_H - 8,
            lane_x(r.lane) + 14,
            center_y(i) + 4
        );
        let shown: String = if r.event.chars().count() > TEXT_CHARS {
            let mut s: String = r.event.chars().take(TEXT_CHARS - 1).collect();
            s.push('…');
            s
        } else {
            r.event.clone()
        };
        escape(&shown, out);
        out.push_str("</text></g>");
    }
    // Reads-from arrows over the steps: from the write's box to the read's.
    for (i, r) in d.rows.iter().enumerate() {
        let Some(w) = r.reads_from else { continue };
        let from = &d.rows[w];
        let (x1, y1, x2, y2) = (
            center_x(from.lane),
            center_y(w) + ROW_H / 2 - 4,
            center_x(r.lane),
            row_y(i) + 4,
        );
        let path = if from.lane == r.lane {
            // Program order in one lane: a bow beside the boxes.
            let side = lane_x(r.lane) + LANE_W - 6;
            format!(
                "M{side},{} C{},{} {},{} {side},{}",
                center_y(w),
                side + 30,
                center_y(w),
                side + 30,
                center_y(i),
                center_y(i)
            )
        } else {
            format!("M{x1},{y1} L{x2},{y2}")
        };
        let _ = write!(
            out,
            "<path class=\"rf\" data-from=\"{}\" data-to=\"{}\" d=\"{path}\" \
             marker-end=\"url(#rf{n})\"><title>step {} reads what step {} wrote</title></path>",
            from.step, r.step, r.step, from.step
        );
    }
    out.push_str("</svg>");
}
