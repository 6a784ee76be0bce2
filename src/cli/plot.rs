//! `stats --plot`: per game, the win rate and its 95% interval as deals
//! accumulate in deal order, so a reader sees the estimate settle, and the
//! solve times by verdict, the unknowns (stopped by a limit) apart; an SVG
//! drawn with plotters.

use std::path::Path;

use anyhow::{Result, anyhow};
use plotters::prelude::*;

use patience::stats::{Interval, Times, Verdicts, convergence};

/// Points of a convergence curve: enough to look smooth at any size.
const POINTS: usize = 400;
/// Pixels of each game's row of charts.
const ROW: (u32, u32) = (1200, 420);

/// One game's data for the plot.
pub struct Game<'a> {
    pub name: &'a str,
    pub verdicts: &'a Verdicts,
    pub times: &'a Times,
}

/// Draws the games, a row each, into an SVG file at `path`; with more
/// than one game (or player) in the files, a first row sets their win
/// rates side by side.
pub fn plot(path: &Path, games: &[Game]) -> Result<()> {
    let compared = games.len() >= 2;
    // The comparison's height: room for each name, at least a row's.
    let top = match compared {
        true => ROW.1.max(100 + 32 * games.len() as u32),
        false => 0,
    };
    let height = top + ROW.1 * games.len().max(1) as u32;
    let root = SVGBackend::new(path, (ROW.0, height)).into_drawing_area();
    let failed = |e: &dyn std::fmt::Display| anyhow!("drawing {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| failed(&e))?;
    let root = match compared {
        true => {
            let (top, rest) = root.split_vertically(top);
            win_rates(&top, games).map_err(|e| failed(&e))?;
            rest
        }
        false => root,
    };
    let rows = root.split_evenly((games.len().max(1), 2));
    for (game, panes) in games.iter().zip(rows.chunks(2)) {
        win_rate(&panes[0], game).map_err(|e| failed(&e))?;
        solve_times(&panes[1], game).map_err(|e| failed(&e))?;
    }
    root.present().map_err(|e| failed(&e))
}

type Pane<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
type Drawn = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// Each game's (or player's) win rate of decided deals with its 95%
/// Wilson interval, a row each, the lowest rate at the bottom: the chart
/// that compares players.
fn win_rates(pane: &Pane, games: &[Game]) -> Drawn {
    let mut rates: Vec<(&str, Interval)> = (games.iter())
        .filter_map(|game| Some((game.name, game.verdicts.summary(game.name).win_rate()?)))
        .collect();
    rates.sort_by(|a, b| a.1.rate.total_cmp(&b.1.rate));
    let high = rates.iter().map(|(_, i)| i.high).fold(0.01, f64::max);
    let names: Vec<String> = rates.iter().map(|(name, _)| name.to_string()).collect();
    let mut chart = ChartBuilder::on(pane)
        .caption(
            "win rate of decided deals, with its 95% Wilson interval",
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(260)
        .build_cartesian_2d(0.0..high * 1.05, -0.5..rates.len() as f64 - 0.5)?;
    chart
        .configure_mesh()
        .x_desc("win rate")
        .x_label_formatter(&|rate| format!("{:.1}%", 100.0 * rate))
        .y_labels(rates.len().max(1) * 2 + 1)
        .y_label_formatter(&|y| {
            let row = y.round();
            match (row - y).abs() < 1e-6 && row >= 0.0 {
                true => names.get(row as usize).cloned().unwrap_or_default(),
                false => String::new(),
            }
        })
        .disable_y_mesh()
        .draw()?;
    chart.draw_series(rates.iter().enumerate().map(|(row, (_, i))| {
        let y = row as f64;
        ErrorBar::new_horizontal(y, i.low, i.rate, i.high, BLUE.filled(), 10)
    }))?;
    chart.draw_series(
        (rates.iter().enumerate())
            .map(|(row, (_, i))| Circle::new((i.rate, row as f64), 4, BLUE.filled())),
    )?;
    Ok(())
}

/// The win rate of the decided deals and its 95% Wilson interval, against
/// the last deal counted.
fn win_rate(pane: &Pane, game: &Game) -> Drawn {
    let curve = convergence(game.verdicts, POINTS);
    let first = curve.first().map_or(0, |p| p.0);
    let last = curve.last().map_or(1, |p| p.0).max(first + 1);
    let (low, high) = (curve.iter()).fold((1.0f64, 0.0f64), |(low, high), (_, i)| {
        (low.min(i.low), high.max(i.high))
    });
    let (low, high) = match curve.is_empty() {
        true => (0.0, 1.0),
        false => (low.max(0.0), high.min(1.0).max(low + 1e-3)),
    };
    let mut chart = ChartBuilder::on(pane)
        .caption(
            format!("{}: win rate of decided deals", game.name),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d(first..last, low..high)?;
    chart
        .configure_mesh()
        .x_desc("deals counted, up to deal number")
        .y_desc("win rate")
        .y_label_formatter(&|rate| format!("{:.1}%", 100.0 * rate))
        .draw()?;
    let band: Vec<(u64, f64)> = (curve.iter().map(|(deal, i)| (*deal, i.high)))
        .chain(curve.iter().rev().map(|(deal, i)| (*deal, i.low)))
        .collect();
    chart
        .draw_series(std::iter::once(Polygon::new(band, BLUE.mix(0.2).filled())))?
        .label("95% Wilson interval")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], BLUE.mix(0.2).filled()));
    chart
        .draw_series(LineSeries::new(
            curve.iter().map(|(deal, i)| (*deal, i.rate)),
            BLUE.stroke_width(2),
        ))?
        .label("win rate")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLUE.stroke_width(2)));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
}

/// How many deals took how long, on a log scale of seconds, by verdict.
fn solve_times(pane: &Pane, game: &Game) -> Drawn {
    // The bins with deals, and two more each side.
    let first = (game.times.bins.iter())
        .filter_map(|bins| bins.iter().position(|&n| n > 0))
        .min()
        .unwrap_or(0)
        .saturating_sub(2);
    let bins = game.times.bins.iter().map(Vec::len).max().unwrap_or(0) + 2;
    let most = (game.times.bins.iter().flatten())
        .copied()
        .max()
        .unwrap_or(0)
        .max(1);
    let mut chart = ChartBuilder::on(pane)
        .caption(
            format!("{}: solve time of each deal", game.name),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (Times::seconds(first)..Times::seconds(bins)).log_scale(),
            0..most + most / 10,
        )?;
    chart
        .configure_mesh()
        .x_desc("seconds")
        .y_desc("deals")
        .x_label_formatter(&|s| format!("{s:.0e}"))
        .draw()?;
    // Unknowns are few and stopped at the same limit: their bins are
    // shaded the chart's whole height, so that they show however few.
    let [won, lost, unknown] = &game.times.bins;
    let stopped: u64 = unknown.iter().sum();
    if stopped > 0 {
        let top = most + most / 10;
        let shade = BLACK.mix(0.15).filled();
        chart
            .draw_series(
                (unknown.iter().enumerate())
                    .filter(|(_, n)| **n > 0)
                    .map(|(bin, _)| {
                        let (from, to) = (Times::seconds(bin), Times::seconds(bin + 1));
                        Rectangle::new([(from, 0), (to, top)], shade)
                    }),
            )?
            .label(format!("unknown: {stopped} stopped by a limit"))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], shade));
    }
    let styles = [
        ("won", GREEN.stroke_width(2)),
        ("lost", RED.stroke_width(2)),
        ("unknown", BLACK.stroke_width(3)),
    ];
    for (bins, (label, style)) in [won, lost, unknown].into_iter().zip(styles) {
        if bins.iter().all(|&n| n == 0) {
            continue;
        }
        let steps = (bins.iter().enumerate())
            .flat_map(|(bin, &n)| [(Times::seconds(bin), n), (Times::seconds(bin + 1), n)]);
        chart
            .draw_series(LineSeries::new(steps, style))?
            .label(label)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], style));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
}
