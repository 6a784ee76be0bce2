//! What `stats --plot` draws and `stats --deals` says, worked out from the
//! verdicts: the win rate as deals accumulate, the solve times, the deals
//! a range still lacks.

use std::ops::RangeInclusive;

use crate::row::Row;
use crate::search::Verdict;

use super::{Interval, Verdicts, wilson};

/// The win rate of the decided deals, with its 95% interval, as deals
/// accumulate in the order of their numbers: at most `points` points,
/// evenly spaced by deals decided, the last at all of them. Each point is
/// the last deal counted and the interval then.
pub fn convergence(verdicts: &Verdicts, points: usize) -> Vec<(u64, Interval)> {
    let counts = verdicts.summary("");
    let step = ((counts.won + counts.lost) / points.max(1) as u64).max(1);
    let (mut won, mut decided) = (0, 0);
    let mut curve = Vec::new();
    for (deal, verdict) in verdicts.in_order() {
        if verdict == Verdict::Unknown {
            continue;
        }
        won += (verdict == Verdict::Won) as u64;
        decided += 1;
        if decided % step == 0 {
            curve.extend(wilson(won, decided).map(|interval| (deal, interval)));
        }
    }
    curve
}

/// Solve times in bins of a tenth of a power of ten of microseconds, by
/// verdict: a histogram on a log scale, in constant memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Times {
    /// Rows by bin, for won, lost and unknown.
    pub bins: [Vec<u64>; 3],
}

impl Times {
    /// Bins a power of ten.
    pub const PER_DECADE: u32 = 10;

    /// Counts a row's time under its verdict.
    pub fn add(&mut self, row: &Row) {
        let bin = (f64::from(Times::PER_DECADE) * (row.micros.max(1) as f64).log10()) as usize;
        let bins = match row.verdict {
            Verdict::Won => &mut self.bins[0],
            Verdict::Lost => &mut self.bins[1],
            Verdict::Unknown => &mut self.bins[2],
        };
        if bins.len() <= bin {
            bins.resize(bin + 1, 0);
        }
        bins[bin] += 1;
    }

    /// The least time of a bin, in seconds.
    pub fn seconds(bin: usize) -> f64 {
        10f64.powf(bin as f64 / f64::from(Times::PER_DECADE)) / 1e6
    }
}

/// The deals of `range` that `verdicts` lack, as runs of consecutive
/// numbers (see [`Verdicts::missing`]).
pub fn missing(
    verdicts: Option<&Verdicts>,
    range: RangeInclusive<u64>,
) -> Vec<RangeInclusive<u64>> {
    match verdicts {
        Some(verdicts) => verdicts.missing(range),
        None => vec![range],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdicts(pairs: &[(u64, Verdict)]) -> Verdicts {
        let mut verdicts = Verdicts::default();
        for &(deal, verdict) in pairs {
            verdicts.set(deal, Some(verdict));
        }
        verdicts
    }

    #[test]
    fn the_curve_follows_the_deals_in_order_and_skips_the_unknown() {
        use Verdict::*;
        let v = verdicts(&[(5, Lost), (1, Won), (3, Unknown), (2, Won), (4, Won)]);
        let curve = convergence(&v, 10);
        let points: Vec<(u64, f64)> = curve.iter().map(|&(deal, i)| (deal, i.rate)).collect();
        assert_eq!(points, [(1, 1.0), (2, 1.0), (4, 1.0), (5, 0.75)]);
        let two = convergence(&v, 2);
        assert_eq!(two.iter().map(|p| p.0).collect::<Vec<_>>(), [2, 5]);
        assert!(convergence(&Verdicts::default(), 5).is_empty());
    }

    #[test]
    fn times_fall_in_tenths_of_a_decade() {
        let row = |micros, verdict| Row {
            game: "x".into(),
            deal: 1,
            verdict,
            moves: 0,
            nodes: 1,
            micros,
            best: 0,
        };
        let mut times = Times::default();
        for micros in [0, 1, 9, 10, 1_000_000, 1_100_000] {
            times.add(&row(micros, Verdict::Won));
        }
        times.add(&row(60_000_000, Verdict::Unknown));
        let won = &times.bins[0];
        assert_eq!((won[0], won[9], won[10], won[60]), (2, 1, 1, 2));
        assert_eq!(times.bins[2].len(), 78);
        assert!((Times::seconds(60) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn missing_deals_come_as_runs() {
        let v = verdicts(&[(2, Verdict::Won), (3, Verdict::Lost), (6, Verdict::Unknown)]);
        assert_eq!(missing(Some(&v), 1..=8), [1..=1, 4..=5, 7..=8]);
        assert_eq!(missing(None, 1..=8), [1..=8]);
    }
}
