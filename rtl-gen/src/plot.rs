//! SVG line charts, shared by `rtl-gen sweep` (a QoR figure against the bank count, or area
//! against the delay target) and `rtl-gen congestion` (mean congestion against `w`).
//!
//! On a power-of-two x axis points are given as `(log2 x, y)` and the x labels print `2^x`; a
//! linear x axis takes `(x, y)`. The chart is drawn into a string, so it cannot fail.

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
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

/// How a series marks its points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// A filled circle.
    Dot,
    /// A filled triangle.
    Triangle,
    /// A cross.
    Cross,
    /// An open circle.
    Ring,
    /// An open triangle.
    OpenTriangle,
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

/// Where the legend sits: in the corner the lines leave free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Legend {
    /// Top left.
    UpperLeft,
    /// Top right.
    UpperRight,
    /// Bottom right.
    LowerRight,
}

/// What the chart says around its lines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Axes<'a> {
    /// Caption.
    pub title: &'a str,
    /// Width and height in pixels.
    pub size: (u32, u32),
    /// The x axis' description.
    pub x_desc: &'a str,
    /// The y axis' description.
    pub y_desc: &'a str,
    /// A logarithmic y axis from 0.9 (else linear from 0).
    pub log_y: bool,
    /// A power-of-two x axis: points give `log2 x` (else a linear axis with x as given).
    pub x_log2: bool,
    /// The legend's corner.
    pub legend: Legend,
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

/// The chart of `series` as SVG text.
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
    let (x, x_labels) = if axes.x_log2 {
        (x_min - 0.2..x_max + 0.2, (x_max - x_min) as usize + 1)
    } else {
        let pad = (x_max - x_min) * 0.04;
        (x_min - pad..x_max + pad, 10)
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, axes.size).into_drawing_area();
        let drawn = if axes.log_y {
            let y = (0.9..y_top.max(2.0) * 1.3).log_scale();
            draw(&root, axes, series, x, x_labels, y, &|y| format!("{y}"))
        } else {
            let y = 0.0..if y_top > 0.0 { y_top * 1.1 } else { 1.0 };
            // Tick values are round numbers: print them to two decimals at most, no zeros.
            let tick = |y: &f64| format!("{}", (y * 100.0).round() / 100.0);
            draw(&root, axes, series, x, x_labels, y, &tick)
        };
        if let Err(e) = drawn {
            unreachable!("drawing into a string cannot fail: {e}");
        }
    }
    svg
}

fn draw<'r, 'b, Y>(
    root: &'r DrawingArea<SVGBackend<'b>, Shift>,
    axes: &Axes,
    series: &[Series],
    x: Range<f64>,
    x_labels: usize,
    y: Y,
    y_format: &dyn Fn(&f64) -> String,
) -> Result<(), Box<dyn std::error::Error + 'r>>
where
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(root)
        .caption(axes.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(x, y)?;
    chart
        .configure_mesh()
        .x_desc(axes.x_desc)
        .y_desc(axes.y_desc)
        .x_labels(x_labels)
        .x_label_formatter(&|x| {
            if axes.x_log2 {
                format!("{}", 2f64.powf(x.round()) as u64)
            } else {
                format!("{}", x.round())
            }
        })
        .y_label_formatter(y_format)
        .draw()?;
    for s in series {
        let (r, g, b) = COLOURS[s.colour % COLOURS.len()];
        let style = RGBColor(r, g, b);
        chart
            .draw_series(LineSeries::new(
                s.points.iter().copied(),
                style.stroke_width(2),
            ))?
            .label(s.label.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], style.stroke_width(2))
            });
        let marker = s.marker;
        chart.draw_series(s.points.iter().map(
            move |&p| -> DynElement<'static, SVGBackend, (f64, f64)> {
                match marker {
                    Marker::Dot => Circle::new(p, 4, style.filled()).into_dyn(),
                    Marker::Triangle => TriangleMarker::new(p, 5, style.filled()).into_dyn(),
                    Marker::Cross => Cross::new(p, 4, style.stroke_width(2)).into_dyn(),
                    Marker::Ring => Circle::new(p, 4, style.stroke_width(2)).into_dyn(),
                    Marker::OpenTriangle => {
                        TriangleMarker::new(p, 5, style.stroke_width(1)).into_dyn()
                    }
                }
            },
        ))?;
    }
    chart
        .configure_series_labels()
        .position(match axes.legend {
            Legend::UpperLeft => SeriesLabelPosition::UpperLeft,
            Legend::UpperRight => SeriesLabelPosition::UpperRight,
            Legend::LowerRight => SeriesLabelPosition::LowerRight,
        })
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
