//! A heat map of small counts drawn with plotters: panels side by side, each a grid with one row
//! per item (top down) and one column per bucket, and one colour bar for all of them. A count of
//! zero is white; every count from one up has a colour from pale orange to dark red, so a grid of
//! ones (a conflict-free access: every bank loaded once) is as visible as a crowded one.

use super::Ticked;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One panel: its caption and its counts, `cells[row][column]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panel {
    /// Caption above the grid.
    pub title: String,
    /// Counts, one row per item; every row as long as the first.
    pub cells: Vec<Vec<u32>>,
}

/// The words around the panels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Labels<'a> {
    /// The figure's caption.
    pub title: &'a str,
    /// What a column is (x axis).
    pub x_desc: &'a str,
    /// What a row is (y axis).
    pub y_desc: &'a str,
    /// What a count is (the colour bar's axis).
    pub count_desc: &'a str,
}

/// Colour-bar width in pixels.
const BAR_W: u32 = 120;

/// The colour of `count` on a scale up to `peak`: white for zero, then from pale orange (one) to
/// dark red (`peak`).
fn shade(count: u32, peak: u32) -> RGBColor {
    const RAMP: [(f64, f64, f64); 3] = [
        (253.0, 204.0, 92.0),
        (240.0, 59.0, 32.0),
        (110.0, 0.0, 30.0),
    ];
    if count == 0 {
        return WHITE;
    }
    let t = if peak <= 1 {
        0.0
    } else {
        f64::from(count.min(peak) - 1) / f64::from(peak - 1)
    };
    let (lo, hi, f) = if t <= 0.5 {
        (RAMP[0], RAMP[1], t * 2.0)
    } else {
        (RAMP[1], RAMP[2], t * 2.0 - 1.0)
    };
    let mix = |a: f64, b: f64| (a + (b - a) * f).round() as u8;
    RGBColor(mix(lo.0, hi.0), mix(lo.1, hi.1), mix(lo.2, hi.2))
}

/// About `n` round tick positions from `0` up to `len - 1`: a power-of-two step on a
/// power-of-two length (banks, warps), else 1, 2 or 5 times a power of ten.
fn ticks(len: usize, n: usize) -> Vec<usize> {
    let raw = (len / n.max(1)).max(1);
    let step = if len.is_power_of_two() {
        raw.next_power_of_two()
    } else {
        let magnitude = 10usize.pow((raw as f64).log10().floor() as u32);
        [1, 2, 5, 10]
            .iter()
            .map(|m| m * magnitude)
            .find(|&s| s >= raw)
            .unwrap_or(raw)
    };
    (0..len).step_by(step).collect()
}

/// The heat map of `panels` as SVG text.
pub fn svg(labels: &Labels, panels: &[Panel]) -> String {
    let rows = panels.iter().map(|p| p.cells.len()).max().unwrap_or(0);
    let columns = panels
        .iter()
        .flat_map(|p| p.cells.first())
        .map(Vec::len)
        .max()
        .unwrap_or(0);
    let peak = panels
        .iter()
        .flat_map(|p| p.cells.iter().flatten())
        .copied()
        .max()
        .unwrap_or(0)
        .max(1);
    let panel_w = 70 + (columns as u32 * 8).clamp(200, 520);
    let plot_h = (rows as u32 * 2).clamp(160, 560);
    let size = (panel_w * panels.len().max(1) as u32 + BAR_W, plot_h + 110);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        if let Err(e) = draw(&root, labels, panels, (rows, columns), peak) {
            unreachable!("drawing into a string cannot fail: {e}");
        }
    }
    svg
}

fn draw<'b>(
    root: &DrawingArea<SVGBackend<'b>, Shift>,
    labels: &Labels,
    panels: &[Panel],
    (rows, columns): (usize, usize),
    peak: u32,
) -> Result<(), Box<dyn std::error::Error>> {
    root.fill(&WHITE)?;
    let body = root.titled(labels.title, ("sans-serif", 16))?;
    let (width, _) = body.dim_in_pixel();
    let (grids, bar) = body.split_horizontally(width - BAR_W);
    let areas = grids.split_evenly((1, panels.len().max(1)));
    for (panel, area) in panels.iter().zip(&areas) {
        draw_panel(area, labels, panel, (rows, columns), peak)?;
    }
    draw_bar(&bar, labels, peak)?;
    root.present()?;
    Ok(())
}

/// One grid: row 0 at the top, ticks at round row and column numbers, one cell per count.
fn draw_panel<'b>(
    area: &DrawingArea<SVGBackend<'b>, Shift>,
    labels: &Labels,
    panel: &Panel,
    (rows, columns): (usize, usize),
    peak: u32,
) -> Result<(), Box<dyn std::error::Error>> {
    let top = rows as f64;
    // The y coordinate grows upwards: row r spans top - r - 1 .. top - r.
    let x_ticks = ticks(columns, 8).iter().map(|&c| c as f64 + 0.5).collect();
    let y_ticks = ticks(rows, 8)
        .iter()
        .map(|&r| top - r as f64 - 0.5)
        .collect();
    let x = Ticked::linear(0.0..columns.max(1) as f64, x_ticks);
    let y = Ticked::linear(0.0..top.max(1.0), y_ticks);
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, ("sans-serif", 13))
        .margin(8)
        .x_label_area_size(40)
        .y_label_area_size(52)
        .build_cartesian_2d(x, y)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .label_style(("sans-serif", 12))
        .axis_desc_style(("sans-serif", 12))
        .x_desc(labels.x_desc)
        .y_desc(labels.y_desc)
        .x_label_formatter(&|x| format!("{}", x.floor()))
        .y_label_formatter(&|y| format!("{}", top - y.ceil()))
        .draw()?;
    let cells = panel.cells.iter().enumerate().flat_map(|(r, row)| {
        row.iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(move |(c, &n)| {
                let (x0, y0) = (c as f64, top - r as f64);
                Rectangle::new([(x0, y0), (x0 + 1.0, y0 - 1.0)], shade(n, peak).filled())
            })
    });
    chart.draw_series(cells)?;
    // The grid's frame, over the cells.
    let frame = [(0.0, 0.0), (columns as f64, top)];
    chart.draw_series(std::iter::once(Rectangle::new(frame, BLACK.mix(0.6))))?;
    Ok(())
}

/// The colour bar: one box per count from zero to `peak`, labelled at round counts.
fn draw_bar<'b>(
    area: &DrawingArea<SVGBackend<'b>, Shift>,
    labels: &Labels,
    peak: u32,
) -> Result<(), Box<dyn std::error::Error>> {
    let levels = peak as usize + 1;
    let y_ticks = ticks(levels, 10).iter().map(|&v| v as f64 + 0.5).collect();
    let y = Ticked::linear(0.0..levels as f64, y_ticks);
    let x = Ticked::linear(0.0..1.0, Vec::new());
    let mut chart = ChartBuilder::on(area)
        .caption("count", ("sans-serif", 13))
        .margin(8)
        .margin_right(30)
        .x_label_area_size(40)
        .y_label_area_size(52)
        .build_cartesian_2d(x, y)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .label_style(("sans-serif", 12))
        .axis_desc_style(("sans-serif", 12))
        .y_desc(labels.count_desc)
        .y_label_formatter(&|y| format!("{}", y.floor()))
        .draw()?;
    chart.draw_series((0..=peak).map(|v| {
        let y0 = f64::from(v);
        Rectangle::new([(0.0, y0), (1.0, y0 + 1.0)], shade(v, peak).filled())
    }))?;
    let frame = [(0.0, 0.0), (1.0, levels as f64)];
    chart.draw_series(std::iter::once(Rectangle::new(frame, BLACK.mix(0.6))))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_is_white_and_one_is_clearly_coloured() {
        assert_eq!(shade(0, 8), WHITE);
        let one = shade(1, 8);
        assert_eq!(one, RGBColor(253, 204, 92));
        assert_eq!(shade(1, 1), one);
        assert_eq!(shade(8, 8), RGBColor(110, 0, 30));
    }

    #[test]
    fn panels_axes_and_colour_bar() {
        let ones = Panel {
            title: "after".into(),
            cells: vec![vec![1; 32]; 64],
        };
        let mut crowded = ones.clone();
        crowded.title = "before".into();
        crowded.cells[3] = vec![0; 32];
        crowded.cells[3][5] = 32;
        let labels = Labels {
            title: "t",
            x_desc: "bank",
            y_desc: "warp access",
            count_desc: "load",
        };
        let svg = svg(&labels, &[crowded, ones]);
        let texts = crate::plot::texts(&svg);
        for t in [
            "before",
            "after",
            "bank",
            "warp access",
            "count",
            "load",
            "28",
            "56",
        ] {
            assert!(texts.iter().any(|x| x == t), "{t} in {texts:?}");
        }
        // The bar labels 0 to 30 in fives, each once; the grids label banks in fours.
        for t in ["5", "10", "30"] {
            assert_eq!(
                texts.iter().filter(|x| *x == t).count(),
                1,
                "{t} in {texts:?}"
            );
        }
        let fill = |c: RGBColor| format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
        // 64 + 63 cells of one, and the bar's box for one.
        assert_eq!(
            svg.matches(&fill(shade(1, 32))).count(),
            64 * 32 + 63 * 32 + 1
        );
        assert_eq!(svg.matches(&fill(shade(32, 32))).count(), 2);
    }

    #[test]
    fn ticks_are_round_and_inside() {
        assert_eq!(ticks(32, 8), [0, 4, 8, 12, 16, 20, 24, 28]);
        assert_eq!(ticks(256, 8), [0, 32, 64, 96, 128, 160, 192, 224]);
        assert_eq!(ticks(100, 8), [0, 20, 40, 60, 80]);
        assert_eq!(ticks(3, 10), [0, 1, 2]);
    }
}
