//! The bar charts of the book's Performance page, drawn from the measured ratios.
//!
//! ```text
//! cargo run -p lifted-benches --example perf_charts [OUT_DIR]
//! ```
//!
//! Reads `book/src/performance/ratios.csv` (one row per bar: workload, comparison,
//! profile, ratio lifted ÷ baseline, target) and writes one SVG per workload,
//! `perf-w1.svg`, `perf-w2.svg`, …, into `OUT_DIR` (default `book/src/images`). Prints
//! the page's tables for the same rows, which the test below holds the page to.

use std::fmt;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The first line that is neither blank nor a comment.
const HEADER: &str = "workload,comparison,profile,ratio,target";

/// Bar colours, one per profile in the order the profiles first appear in the file, so
/// that a profile has the same colour on every chart.
const COLOURS: [RGBColor; 5] = [
    RGBColor(0x2b, 0x6c, 0xb0),
    RGBColor(0xe0, 0x8a, 0x1e),
    RGBColor(0x3a, 0x9a, 0x5b),
    RGBColor(0x8e, 0x5b, 0xb5),
    RGBColor(0x7f, 0x7f, 0x7f),
];
const TARGET_COLOUR: RGBColor = RGBColor(0xb0, 0x1c, 0x1c);
const BASELINE_COLOUR: RGBColor = RGBColor(0x44, 0x44, 0x44);

const WIDTH: u32 = 900;
const FONT: &str = "sans-serif";

/// An error that names the file (and the line) it is about.
#[derive(Debug)]
struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

fn at(path: &Path, line: usize, message: impl fmt::Display) -> Error {
    Error(format!("{}:{line}: {message}", path.display()))
}

/// A number as written in the file: the value to draw, the text to print (so that the
/// page shows exactly the file's digits).
#[derive(Debug, Clone, PartialEq)]
struct Number {
    value: f64,
    text: String,
}

#[derive(Debug, Clone, PartialEq)]
struct Row {
    workload: String,
    comparison: String,
    profile: String,
    ratio: Number,
    target: Option<Number>,
}

#[derive(Debug, Clone, PartialEq)]
struct Ratios {
    machine: String,
    date: String,
    rows: Vec<Row>,
}

impl Ratios {
    fn read(path: &Path) -> Result<Self, Error> {
        let text =
            std::fs::read_to_string(path).map_err(|e| Error(format!("{}: {e}", path.display())))?;
        Self::parse(path, &text)
    }

    fn parse(path: &Path, text: &str) -> Result<Self, Error> {
        let (mut machine, mut date) = (None, None);
        let mut header_seen = false;
        let mut rows: Vec<(usize, Row)> = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(comment) = line.strip_prefix('#') {
                let comment = comment.trim();
                for (key, slot) in [("machine:", &mut machine), ("date:", &mut date)] {
                    if let Some(value) = comment.strip_prefix(key) {
                        if let Some((first, _)) = slot {
                            let key = key.trim_end_matches(':');
                            return Err(at(
                                path,
                                number,
                                format!("a second `# {key}:` line (the first is line {first})"),
                            ));
                        }
                        let value = value.trim();
                        if value.is_empty() {
                            return Err(at(path, number, format!("`# {key}` without a value")));
                        }
                        *slot = Some((number, value.to_string()));
                    }
                }
                continue;
            }
            if !header_seen {
                if line != HEADER {
                    return Err(at(path, number, format!("expected the header `{HEADER}`")));
                }
                header_seen = true;
                continue;
            }
            let row = parse_row(line).map_err(|m| at(path, number, m))?;
            if let Some((first, _)) = rows.iter().find(|(_, r)| {
                (&r.workload, &r.comparison, &r.profile)
                    == (&row.workload, &row.comparison, &row.profile)
            }) {
                return Err(at(
                    path,
                    number,
                    format!("the same workload, comparison and profile as line {first}"),
                ));
            }
            rows.push((number, row));
        }
        let missing = |what: &str| Error(format!("{}: no `# {what}:` line", path.display()));
        let (_, machine) = machine.ok_or_else(|| missing("machine"))?;
        let (_, date) = date.ok_or_else(|| missing("date"))?;
        if rows.is_empty() {
            return Err(Error(format!("{}: no rows", path.display())));
        }
        Ok(Ratios {
            machine,
            date,
            rows: rows.into_iter().map(|(_, r)| r).collect(),
        })
    }

    /// The workloads, in the order they first appear.
    fn workloads(&self) -> Vec<&str> {
        first_appearances(self.rows.iter().map(|r| r.workload.as_str()))
    }

    /// The profiles, in the order they first appear.
    fn profiles(&self) -> Vec<&str> {
        first_appearances(self.rows.iter().map(|r| r.profile.as_str()))
    }

    fn rows_of<'a>(&'a self, workload: &'a str) -> impl Iterator<Item = &'a Row> + 'a {
        self.rows.iter().filter(move |r| r.workload == workload)
    }

    /// The page's table of one workload's rows.
    fn markdown_table(&self, workload: &str) -> String {
        let mut out = String::from(
            "| comparison | profile | lifted ÷ baseline | target |\n|---|---|---|---|\n",
        );
        for r in self.rows_of(workload) {
            let target = r
                .target
                .as_ref()
                .map_or_else(|| "—".to_string(), |t| format!("≤ {}", t.text));
            out += &format!(
                "| {} | `{}` | {} | {target} |\n",
                r.comparison, r.profile, r.ratio.text
            );
        }
        out
    }
}

fn first_appearances<'a>(names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for name in names {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// One data line; the message names the field at fault.
fn parse_row(line: &str) -> Result<Row, String> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let [workload, comparison, profile, ratio, target] = fields[..] else {
        return Err(format!(
            "{} fields, expected 5 ({HEADER}; no commas inside a field)",
            fields.len()
        ));
    };
    if workload.is_empty() || !workload.chars().all(|c| c.is_ascii_alphanumeric()) {
        // It names the chart's file.
        return Err(format!(
            "workload `{workload}`: expected letters and digits, like W1"
        ));
    }
    if comparison.is_empty() {
        return Err("empty comparison".into());
    }
    if profile.is_empty() {
        return Err("empty profile".into());
    }
    let number = |field: &str, text: &str| -> Result<Number, String> {
        match text.parse::<f64>() {
            // Zero or negative has no place on a logarithmic axis.
            Ok(value) if value.is_finite() && value > 0.0 => Ok(Number {
                value,
                text: text.to_string(),
            }),
            _ => Err(format!("{field} `{text}`: expected a positive number")),
        }
    };
    Ok(Row {
        workload: workload.to_string(),
        comparison: comparison.to_string(),
        profile: profile.to_string(),
        ratio: number("ratio", ratio)?,
        target: if target.is_empty() {
            None
        } else {
            Some(number("target", target)?)
        },
    })
}

/// The chart's title: the workload and what it computes (the Performance page defines W1–W3).
fn title(workload: &str) -> String {
    let what = match workload {
        "W1" => "Navier–Stokes PINN residual, 8192 points",
        "W2" => "Rosenbrock gradient",
        "W3" => "dense tanh chain, JVP with N tangents",
        _ => return format!("{workload}: lifted ÷ baseline"),
    };
    format!("{workload}: {what}")
}

/// The chart of one workload: a horizontal bar per row from 1 (the baseline) to its
/// ratio, on a logarithmic axis, so that 2× slower and 2× faster are the same length.
fn draw(path: &Path, ratios: &Ratios, workload: &str) -> Result<(), Box<dyn std::error::Error>> {
    let rows: Vec<&Row> = ratios.rows_of(workload).collect();
    let comparisons = first_appearances(rows.iter().map(|r| r.comparison.as_str()));
    let all_profiles = ratios.profiles();
    let profiles = first_appearances(rows.iter().map(|r| r.profile.as_str()));
    let colour = |profile: &str| {
        let i = all_profiles.iter().position(|p| *p == profile).unwrap_or(0);
        COLOURS[i % COLOURS.len()]
    };

    let groups = comparisons.len();
    let group_px = 26 * profiles.len() as u32 + 24;
    let (top, x_axis, bottom) = (76, 44, 64);
    let height = top + group_px * groups as u32 + x_axis + bottom;
    let longest = comparisons
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(0);
    let label_px = (longest as u32 * 7 + 24).clamp(120, 420);

    // Powers of two around every ratio, target and 1, with room for the value labels.
    let values = rows
        .iter()
        .flat_map(|r| [Some(r.ratio.value), r.target.as_ref().map(|t| t.value)])
        .flatten()
        .chain([1.0]);
    let (lo, hi) = values.fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let lo = (lo / 1.6).log2().floor().exp2();
    let hi = (hi * 1.6).log2().ceil().exp2();
    let ticks: Vec<f64> = (lo.log2().round() as i32..=hi.log2().round() as i32)
        .map(|e| f64::from(e).exp2())
        .collect();

    let root = SVGBackend::new(path, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let (upper, lower) = root.split_vertically(height - bottom);
    let upper = upper.titled(&title(workload), (FONT, 22))?;
    // Room above the plot for the baseline's label.
    let mut chart = ChartBuilder::on(&upper)
        .margin_top(24)
        .margin_right(24)
        .x_label_area_size(x_axis)
        .y_label_area_size(label_px)
        .build_cartesian_2d(
            (lo..hi).log_scale().with_key_points(ticks),
            0.0..groups as f64,
        )?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .bold_line_style(RGBColor(0xdd, 0xdd, 0xdd))
        .x_label_formatter(&|x| format!("{x}×"))
        .y_labels(0)
        .x_label_style((FONT, 14))
        .x_desc("lifted ÷ baseline (logarithmic; lower is better)")
        .axis_desc_style((FONT, 14))
        .draw()?;
    // The comparisons name their groups in the label area (group g, 0 at the top, spans
    // y from groups − g − 1 to groups − g); plotters's own labels would need a numeric
    // key per group. These texts go on `root`: `backend_coord` is in the SVG's pixels.
    for (g, comparison) in comparisons.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(lo, (groups - g) as f64 - 0.5));
        let style =
            TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
        root.draw(&Text::new(comparison.to_string(), (x - 10, y), style))?;
    }

    let pad = 0.14;
    let bar = (1.0 - 2.0 * pad) / profiles.len() as f64;
    let slot = |row: &Row| {
        let g = comparisons
            .iter()
            .position(|c| *c == row.comparison)
            .unwrap_or(0);
        let j = profiles.iter().position(|p| *p == row.profile).unwrap_or(0);
        let y1 = (groups - g) as f64 - pad - j as f64 * bar;
        (y1 - bar + 0.03, y1 - 0.03)
    };
    chart.draw_series([DashedPathElement::new(
        [(1.0, 0.0), (1.0, groups as f64)],
        6,
        4,
        BASELINE_COLOUR.stroke_width(2),
    )])?;
    // Above the plot, clear of the bars and of the targets' markers.
    let (bx, by) = chart.backend_coord(&(1.0, groups as f64));
    let style = TextStyle::from((FONT, 13).into_font())
        .color(&BASELINE_COLOUR)
        .pos(Pos::new(HPos::Center, VPos::Bottom));
    root.draw(&Text::new("baseline", (bx, by - 4), style))?;
    for row in &rows {
        let (y0, y1) = slot(row);
        let r = row.ratio.value;
        chart.draw_series([Rectangle::new(
            [(1.0, y0), (r, y1)],
            colour(&row.profile).filled(),
        )])?;
        let (x, h) = if r >= 1.0 {
            (r * 1.03, HPos::Left)
        } else {
            (r / 1.03, HPos::Right)
        };
        let style = TextStyle::from((FONT, 14).into_font()).pos(Pos::new(h, VPos::Center));
        chart.draw_series([Text::new(
            format!("{}×", row.ratio.text),
            (x, (y0 + y1) / 2.0),
            style,
        )])?;
    }
    // Over the bars and the baseline, so that a target of 1 still shows.
    for row in &rows {
        if let Some(t) = &row.target {
            let (y0, y1) = slot(row);
            chart.draw_series([DashedPathElement::new(
                [(t.value, y0 - 0.06), (t.value, y1 + 0.06)],
                4,
                3,
                TARGET_COLOUR.stroke_width(3),
            )])?;
        }
    }

    let (left, _) = chart.backend_coord(&(lo, 0.0));
    legend(&lower, left, &profiles, &colour)?;
    let style = TextStyle::from((FONT, 13).into_font()).color(&BASELINE_COLOUR);
    lower.draw(&Text::new(
        format!("Measured on {}, {}.", ratios.machine, ratios.date),
        (left, 46),
        style,
    ))?;
    root.present()?;
    Ok(())
}

/// A row of swatches under the chart: the profiles, the target marker, the baseline.
fn legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    left: i32,
    profiles: &[&str],
    colour: &dyn Fn(&str) -> RGBColor,
) -> Result<(), Box<dyn std::error::Error>> {
    let text = |s: &str, x: i32| {
        let style = TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        Text::new(s.to_string(), (x, 20), style)
    };
    let mut x = left;
    for p in profiles {
        area.draw(&Rectangle::new([(x, 14), (x + 22, 26)], colour(p).filled()))?;
        area.draw(&text(p, x + 28))?;
        x += 28 + 8 * p.chars().count() as i32 + 24;
    }
    for (name, style, dash) in [
        ("target", TARGET_COLOUR.stroke_width(3), (4, 3)),
        ("baseline = 1", BASELINE_COLOUR.stroke_width(2), (6, 4)),
    ] {
        area.draw(&DashedPathElement::new(
            [(x + 11, 10), (x + 11, 30)],
            dash.0,
            dash.1,
            style,
        ))?;
        area.draw(&text(name, x + 28))?;
        x += 28 + 8 * name.chars().count() as i32 + 24;
    }
    Ok(())
}

fn book() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../book")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let csv = book().join("src/performance/ratios.csv");
    let out = std::env::args_os()
        .nth(1)
        .map_or_else(|| book().join("src/images"), PathBuf::from);
    let ratios = Ratios::read(&csv)?;
    std::fs::create_dir_all(&out).map_err(|e| Error(format!("{}: {e}", out.display())))?;
    for workload in ratios.workloads() {
        let path = out.join(format!("perf-{}.svg", workload.to_lowercase()));
        draw(&path, &ratios, workload).map_err(|e| Error(format!("{}: {e}", path.display())))?;
        eprintln!("wrote {}", path.display());
        println!("{workload}:\n\n{}", ratios.markdown_table(workload));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_shows_the_csv() {
        let csv = book().join("src/performance/ratios.csv");
        let ratios = Ratios::read(&csv).unwrap();
        let page_path = book().join("src/performance.md");
        let page = std::fs::read_to_string(&page_path).unwrap();
        assert!(page.contains(&ratios.machine), "the page names the machine");
        assert!(page.contains(&ratios.date), "the page names the date");
        let lines: Vec<&str> = page.lines().collect();
        for workload in ratios.workloads() {
            let table = ratios.markdown_table(workload);
            let want: Vec<&str> = table.lines().collect();
            let found = lines.windows(want.len()).position(|w| w == want.as_slice());
            let Some(start) = found else {
                panic!(
                    "{} lacks {workload}'s table; `cargo run -p lifted-benches --example \
                     perf_charts` prints it:\n{table}",
                    page_path.display()
                );
            };
            let next = lines.get(start + want.len()).copied().unwrap_or("");
            assert!(
                !next.starts_with('|'),
                "{workload}'s table on the page has rows the CSV lacks: {next}"
            );
            let chart = format!("images/perf-{}.svg", workload.to_lowercase());
            assert!(page.contains(&chart), "the page shows {chart}");
        }
    }

    fn parse(text: &str) -> Result<Ratios, Error> {
        Ratios::parse(Path::new("ratios.csv"), text)
    }

    const GOOD: &str = "# machine: m, 1 thread\n# date: d\n\
        workload,comparison,profile,ratio,target\n\
        W2,a ÷ b,release,1.5,1.0\n\
        W2,a ÷ b,bench-lto,0.75,\n";

    #[test]
    fn reads_rows_and_comments() {
        let r = parse(GOOD).unwrap();
        assert_eq!((r.machine.as_str(), r.date.as_str()), ("m, 1 thread", "d"));
        assert_eq!(r.rows.len(), 2);
        assert_eq!(r.rows[0].ratio.value, 1.5);
        assert_eq!(r.rows[1].target, None);
        assert_eq!(r.profiles(), ["release", "bench-lto"]);
    }

    #[test]
    fn bad_input_is_an_error_naming_the_line() {
        // Each case is one more row, line 6 of the file.
        let cases = [
            ("W2,a,release,x,1.0", "ratios.csv:6: ratio `x`"),
            ("W2,a,release,1.0", "ratios.csv:6: 4 fields"),
            ("W2,a, n = 16,release,1.0,1.0", "ratios.csv:6: 6 fields"),
            ("W2,a,release,-1,", "ratios.csv:6: ratio `-1`"),
            ("W2,a,release,1,inf", "ratios.csv:6: target `inf`"),
            ("W 2,a,release,1,", "ratios.csv:6: workload"),
            (
                "W2,a ÷ b,release,2,",
                "ratios.csv:6: the same workload, comparison and profile as line 4",
            ),
        ];
        for (row, want) in cases {
            let err = parse(&format!("{GOOD}{row}\n")).unwrap_err().to_string();
            assert!(err.starts_with(want), "{row}: {err}");
        }
        let err = parse("# date: d\nworkload,comparison,profile,ratio,target\nW1,a,r,1,\n");
        assert!(
            err.unwrap_err()
                .to_string()
                .contains("no `# machine:` line")
        );
        let err = parse("# machine: m\n# date: d\nworkload,ratio\n").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("ratios.csv:3: expected the header")
        );
        let missing = Ratios::read(Path::new("/nonexistent/ratios.csv")).unwrap_err();
        assert!(missing.to_string().starts_with("/nonexistent/ratios.csv: "));
    }
}
