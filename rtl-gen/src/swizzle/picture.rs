//! Pictures of a layout, as SVG text (plotters): the bank of every element of the tile, and the
//! wavefronts of each access set beside their ideal.

use models::swizzle::{AccessSet, SetCost};
use plotters::prelude::*;

/// Most rows and columns the bank map draws (a larger tile shows its top-left corner).
pub const MAX_CELLS: usize = 64;

/// The colour of bank `b` of `banks`: hues around the wheel, alternating lightness so that
/// neighbouring banks differ.
fn colour(b: u64, banks: u64) -> HSLColor {
    let light = if b.is_multiple_of(2) { 0.42 } else { 0.68 };
    HSLColor(b as f64 / banks as f64, 0.75, light)
}

/// The bank map: one cell per element (rows down, columns across), coloured by its bank;
/// `grid` is [`super::bank_grid`], `banks` the bank (group) count.
pub fn bank_map(title: &str, grid: &[Vec<u64>], banks: u64) -> String {
    let rows = grid.len().min(MAX_CELLS);
    let cols = grid.first().map_or(0, Vec::len).min(MAX_CELLS);
    let cell = (640 / cols.max(1)).clamp(6, 40) as u32;
    let size = (cols as u32 * cell + 200, rows as u32 * cell + 110);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let drawn = (|| -> Result<(), Box<dyn std::error::Error + '_>> {
            root.fill(&WHITE)?;
            let (map, legend) = root.split_horizontally(size.0 - 120);
            let mut chart = ChartBuilder::on(&map)
                .caption(title, ("sans-serif", 16))
                .margin(10)
                .x_label_area_size(30)
                .y_label_area_size(40)
                .build_cartesian_2d(0..cols as i64, rows as i64..0)?;
            chart
                .configure_mesh()
                .disable_mesh()
                .x_desc("column (element)")
                .y_desc("row")
                .x_labels(cols.min(16))
                .y_labels(rows.min(16))
                .draw()?;
            chart.draw_series(grid.iter().take(rows).enumerate().flat_map(|(r, row)| {
                row.iter().take(cols).enumerate().map(move |(c, &b)| {
                    Rectangle::new(
                        [(c as i64, r as i64), (c as i64 + 1, r as i64 + 1)],
                        colour(b, banks).filled(),
                    )
                })
            }))?;
            let legend = legend.margin(40, 20, 10, 10);
            let step = ((size.1 - 80) / banks as u32).clamp(4, 20);
            for b in 0..banks {
                let y = b as i32 * step as i32;
                legend.draw(&Rectangle::new(
                    [(0, y), (18, y + step as i32 - 1)],
                    colour(b, banks).filled(),
                ))?;
                if b % (banks / 8).max(1) == 0 {
                    legend.draw(&Text::new(
                        format!("{b}"),
                        (24, y),
                        ("sans-serif", 12).into_font(),
                    ))?;
                }
            }
            root.present()?;
            Ok(())
        })();
        if let Err(e) = drawn {
            unreachable!("drawing into a string cannot fail: {e}");
        }
    }
    svg
}

/// Bars of each access set's wavefronts (loads plus stores) beside their ideal.
pub fn wavefront_bars(title: &str, sets: &[AccessSet], costs: &[SetCost]) -> String {
    let names: Vec<String> = sets.iter().map(AccessSet::name).collect();
    let top = costs
        .iter()
        .map(|c| c.load + c.store)
        .max()
        .unwrap_or(1)
        .max(1) as f64
        * 1.15;
    let size = (160 + 110 * names.len() as u32, 420);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let drawn = (|| -> Result<(), Box<dyn std::error::Error + '_>> {
            root.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&root)
                .caption(title, ("sans-serif", 16))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(60)
                .build_cartesian_2d(0f64..names.len() as f64, 0f64..top)?;
            let label = |x: &f64| {
                let i = x.floor() as usize;
                if (x - i as f64 - 0.5).abs() < 1e-6 {
                    names.get(i).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            };
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(names.len() * 2 + 1)
                .x_label_formatter(&label)
                .y_desc("wavefronts (loads + stores)")
                .y_label_formatter(&|y| format!("{y:.0}"))
                .draw()?;
            let blue = RGBColor(31, 119, 180);
            let grey = RGBColor(170, 170, 170);
            chart
                .draw_series(costs.iter().enumerate().map(|(i, c)| {
                    let x = i as f64;
                    Rectangle::new(
                        [(x + 0.12, 0.0), (x + 0.48, (c.load + c.store) as f64)],
                        blue.filled(),
                    )
                }))?
                .label("this layout")
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], blue.filled()));
            chart
                .draw_series(costs.iter().enumerate().map(|(i, c)| {
                    let x = i as f64;
                    Rectangle::new(
                        [
                            (x + 0.52, 0.0),
                            (x + 0.88, (c.ideal_load + c.ideal_store) as f64),
                        ],
                        grey.filled(),
                    )
                }))?
                .label("ideal (conflict-free)")
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], grey.filled()));
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .position(SeriesLabelPosition::UpperLeft)
                .draw()?;
            root.present()?;
            Ok(())
        })();
        if let Err(e) = drawn {
            unreachable!("drawing into a string cannot fail: {e}");
        }
    }
    svg
}
