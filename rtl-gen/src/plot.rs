//! SVG charts drawn with plotters. The line chart here is shared by `rtl-gen sweep` (a QoR figure
//! against the bank count, or area against the delay target) and `rtl-gen congestion` (mean
//! congestion against `w`); [`heatmap`] draws the search's bank loads.
//!
//! On a power-of-two x axis points are given as `(log2 x, y)` and the x labels print `2^x`; a
//! linear x axis takes `(x, y)`. Every series has its own colour and marker pair, and the legend,
//! which shows both, sits right of the plot so it never covers a point. The chart is drawn into a
//! string, so it cannot fail.

pub mod heatmap;

use plotters::coord::combinators::LogCoord;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;

/// The palette, indexed modulo its length: grey first, then well-separated hues.
const COLOURS: [(u8, u8, u8); 8] = [
    (120, 120, 120),
    (31, 119, 180),
    (214, 39, 40),
    (44, 160, 44),
    (255, 127, 14),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
];

/// The colour of palette index `index`.
fn colour(index: usize) -> RGBColor {
    let (r, g, b) = COLOURS[index % COLOURS.len()];
    RGBColor(r, g, b)
}

/// How a series marks its points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// A filled circle.
    Dot,
    /// A filled triangle.
    Triangle,
    /// A filled square.
    Square,
    /// A filled diamond.
    Diamond,
    /// A cross.
    Cross,
    /// An open circle.
    Ring,
    /// An open triangle.
    OpenTriangle,
    /// An open square.
    OpenSquare,
}

impl Marker {
    /// Every marker, in the order charts hand them out to series that need one each.
    pub const ALL: [Marker; 8] = [
        Marker::Dot,
        Marker::Triangle,
        Marker::Square,
        Marker::Diamond,
        Marker::Cross,
        Marker::Ring,
        Marker::OpenTriangle,
        Marker::OpenSquare,
    ];

    /// Draws the marker centred on pixel `at` of `area`, in `colour`.
    fn draw(
        self,
        area: &DrawingArea<SVGBackend, Shift>,
        at: (i32, i32),
        colour: RGBColor,
    ) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
        let (fill, line) = (colour.filled(), colour.stroke_width(2));
        let origin = EmptyElement::at(at);
        match self {
            Marker::Dot => area.draw(&(origin + Circle::new((0, 0), 4, fill))),
            Marker::Ring => area.draw(&(origin + Circle::new((0, 0), 4, line))),
            Marker::Triangle => area.draw(&(origin + TriangleMarker::new((0, 0), 5, fill))),
            Marker::OpenTriangle => {
                let outline = vec![(0, -5), (5, 4), (-5, 4), (0, -5)];
                area.draw(&(origin + PathElement::new(outline, line)))
            }
            Marker::Square => area.draw(&(origin + Rectangle::new([(-4, -4), (4, 4)], fill))),
            Marker::OpenSquare => area.draw(&(origin + Rectangle::new([(-4, -4), (4, 4)], line))),
            Marker::Diamond => {
                let corners = vec![(0, -5), (5, 0), (0, 5), (-5, 0)];
                area.draw(&(origin + Polygon::new(corners, fill)))
            }
            Marker::Cross => area.draw(&(origin + Cross::new((0, 0), 4, line))),
        }
    }
}

/// One line of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The legend's text.
    pub label: String,
    /// Palette index.
    pub colour: usize,
    /// Point marker.
    pub marker: Marker,
    /// `(log2 x, y)` points (or `(x, y)` on a linear x axis), in x order.
    pub points: Vec<(f64, f64)>,
}

/// What the chart says around its lines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Axes<'a> {
    /// Caption.
    pub title: &'a str,
    /// Width and least height in pixels (the chart grows taller for a long legend).
    pub size: (u32, u32),
    /// The x axis' description.
    pub x_desc: &'a str,
    /// The y axis' description.
    pub y_desc: &'a str,
    /// A logarithmic y axis from 0.9 (else linear from 0).
    pub log_y: bool,
    /// A power-of-two x axis: points give `log2 x` (else a linear axis with x as given).
    pub x_log2: bool,
}

/// Adds `(x, y)` to the series labelled `label`, creating it with `colour` and `marker` if new.
pub fn push(
    series: &mut Vec<Series>,
    label: &str,
    colour: usize,
    marker: Marker,
    point: (f64, f64),
) {
    match series.iter_mut().find(|s| s.label == label) {
        Some(s) => s.points.push(point),
        None => series.push(Series {
            label: label.to_string(),
            colour,
            marker,
            points: vec![point],
        }),
    }
}

/// An f64 axis (linear or logarithmic) with the ticks its chart chose: `bold` ones labelled, each
/// once, and `light` ones drawn as faint grid lines only.
pub(crate) struct Ticked<R> {
    inner: R,
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl Ticked<RangedCoordf64> {
    /// A linear axis over `range` with labelled ticks at `bold`.
    pub(crate) fn linear(range: Range<f64>, bold: Vec<f64>) -> Self {
        Ticked {
            inner: range.into(),
            bold,
            light: Vec::new(),
        }
    }
}

impl Ticked<LogCoord<f64>> {
    /// A logarithmic axis over `range`: labels at 1, 2 and 5 times each power of ten, faint
    /// lines at the other multiples.
    fn log(range: Range<f64>) -> Self {
        let (bold, light) = log_ticks(range.start, range.end);
        Ticked {
            inner: range.log_scale().into(),
            bold,
            light,
        }
    }
}

impl<R: Ranged<ValueType = f64>> Ranged for Ticked<R> {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }
}

/// Pixels per legend entry.
const LEGEND_ROW: u32 = 17;

/// The ticks of a logarithmic axis over `lo..hi`: 1, 2 and 5 times each power of ten (bold,
/// labelled) and the other multiples (light grid lines), each value once.
fn log_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    let (mut bold, mut light) = (Vec::new(), Vec::new());
    let mut decade = 10f64.powi(lo.log10().floor() as i32);
    while decade <= hi {
        for m in 1..10 {
            let v = decade * f64::from(m);
            if (lo..=hi).contains(&v) {
                if [1, 2, 5].contains(&m) {
                    bold.push(v);
                } else {
                    light.push(v);
                }
            }
        }
        decade *= 10.0;
    }
    (bold, light)
}

/// The chart of `series` as SVG text, signed as rtl-gen's (a rerun replaces it).
pub fn line_chart(axes: &Axes, series: &[Series]) -> String {
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (x_min, x_max) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let (x_min, x_max) = if x_min > x_max {
        (1.0, 2.0)
    } else if x_min == x_max {
        (x_min - 1.0, x_max + 1.0)
    } else {
        (x_min, x_max)
    };
    let y_top = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(0.0f64, f64::max);
    let legend_chars = series.iter().map(|s| s.label.chars().count()).max();
    let legend_w = 48 + 7 * legend_chars.unwrap_or(0) as u32;
    let height = axes.size.1.max(80 + LEGEND_ROW * series.len() as u32);
    let size = (axes.size.0 + legend_w, height);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let x = if axes.x_log2 {
            // One labelled tick per power of two.
            let ticks = (x_min.round() as i32..=x_max.round() as i32).map(f64::from);
            Ticked::linear(x_min - 0.2..x_max + 0.2, ticks.collect())
        } else {
            let pad = (x_max - x_min) * 0.04;
            let range = x_min - pad..x_max + pad;
            let ticks = RangedCoordf64::from(range.clone()).key_points(10);
            Ticked::linear(range, ticks)
        };
        let drawn = if axes.log_y {
            let y = Ticked::log(0.9..y_top.max(2.0) * 1.3);
            draw(&root, axes, series, legend_w, x, y, &|y| format!("{y}"))
        } else {
            let range = 0.0..if y_top > 0.0 { y_top * 1.1 } else { 1.0 };
            let ticks = RangedCoordf64::from(range.clone()).key_points(10);
            // Tick values are round numbers: print them to two decimals at most, no zeros.
            let tick = |y: &f64| format!("{}", (y * 100.0).round() / 100.0);
            draw(
                &root,
                axes,
                series,
                legend_w,
                x,
                Ticked::linear(range, ticks),
                &tick,
            )
        };
        if let Err(e) = drawn {
            unreachable!("drawing into a string cannot fail: {e}");
        }
    }
    crate::output::ownership::sign_svg(&svg)
}

/// Draws the chart on the left of `root` and the legend in its right `legend_w` pixels.
fn draw<'b, Y: Ranged<ValueType = f64, FormatOption = DefaultFormatting>>(
    root: &DrawingArea<SVGBackend<'b>, Shift>,
    axes: &Axes,
    series: &[Series],
    legend_w: u32,
    x: Ticked<RangedCoordf64>,
    y: Y,
    y_format: &dyn Fn(&f64) -> String,
) -> Result<(), Box<dyn std::error::Error + 'b>> {
    root.fill(&WHITE)?;
    let body = root.titled(axes.title, ("sans-serif", 18))?;
    let (width, _) = body.dim_in_pixel();
    let (plot_area, legend_area) = body.split_horizontally(width - legend_w);
    let mut chart = ChartBuilder::on(&plot_area)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(x, y)?;
    chart
        .configure_mesh()
        .x_desc(axes.x_desc)
        .y_desc(axes.y_desc)
        .x_label_formatter(&|x| {
            if axes.x_log2 {
                format!("{}", 2f64.powf(x.round()) as u64)
            } else {
                format!("{}", (x * 100.0).round() / 100.0)
            }
        })
        .y_label_formatter(y_format)
        .light_line_style(BLACK.mix(0.06))
        .draw()?;
    for s in series {
        let style = colour(s.colour);
        chart.draw_series(LineSeries::new(
            s.points.iter().copied(),
            style.stroke_width(2),
        ))?;
        for p in &s.points {
            s.marker.draw(root, chart.backend_coord(p), style)?;
        }
    }
    draw_legend(root, &legend_area, series)?;
    root.present()?;
    Ok(())
}

/// One entry per series, top down in `area` (a part of `root`): a stretch of its line with its
/// marker, then its label.
fn draw_legend<'b>(
    root: &DrawingArea<SVGBackend<'b>, Shift>,
    area: &DrawingArea<SVGBackend<'b>, Shift>,
    series: &[Series],
) -> Result<(), Box<dyn std::error::Error + 'b>> {
    let (w, _) = area.dim_in_pixel();
    let rows = series.len() as i32 * LEGEND_ROW as i32;
    let (top, row) = (14, LEGEND_ROW as i32);
    area.draw(&Rectangle::new(
        [(4, top - 8), (w as i32 - 8, top + rows - 4)],
        BLACK.stroke_width(1),
    ))?;
    let font = ("sans-serif", 12)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, s) in series.iter().enumerate() {
        let y = top + i as i32 * row;
        let style = colour(s.colour);
        area.draw(&PathElement::new(
            vec![(12, y), (36, y)],
            style.stroke_width(2),
        ))?;
        let (x0, y0) = area.get_base_pixel();
        s.marker.draw(root, (x0 + 24, y0 + y), style)?;
        area.draw(&Text::new(s.label.as_str(), (44, y), font.clone()))?;
    }
    Ok(())
}

/// The text of every `<text>` element of `svg`, in order (for tests).
#[cfg(test)]
pub(crate) fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..t.find("</text>")?];
            Some(body.trim().to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tick_once_and_every_series_in_the_legend() {
        // 12 series, 3 colours: the congestion chart's shape.
        let series: Vec<Series> = (0..12)
            .map(|i| Series {
                label: format!("line {i}"),
                colour: i / 4,
                marker: Marker::ALL[i % 4],
                points: vec![
                    (4.0, 1.0),
                    (6.0, 3.0 + i as f64),
                    (8.0, 20.0 * (i + 1) as f64),
                ],
            })
            .collect();
        let axes = Axes {
            title: "t",
            size: (800, 560),
            x_desc: "w",
            y_desc: "c",
            log_y: true,
            x_log2: true,
        };
        let texts = texts(&line_chart(&axes, &series));
        let count = |t: &str| texts.iter().filter(|x| *x == t).count();
        for tick in [
            "1", "2", "5", "10", "20", "50", "100", "200", "16", "64", "256",
        ] {
            assert_eq!(count(tick), 1, "{tick} in {texts:?}");
        }
        for s in &series {
            assert_eq!(count(&s.label), 1, "{texts:?}");
        }
    }

    #[test]
    fn log_ticks_label_each_value_once() {
        let (bold, light) = log_ticks(1.0, 260.0);
        assert_eq!(bold, [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0]);
        assert_eq!(
            light,
            [3.0, 4.0, 6.0, 7.0, 8.0, 9.0, 30.0, 40.0, 60.0, 70.0, 80.0, 90.0]
        );
        assert!(bold.iter().all(|b| !light.contains(b)));
    }
}
