//! The deals a batch solves: a range of deal numbers, less those a file
//! being resumed holds already. One bit a deal of the range, so that a
//! range of the most deals a batch takes ([`MAX_DEALS`]) costs 12.5 MB
//! rather than a list of numbers eight bytes each.

use std::ops::RangeInclusive;

/// The most deals one batch takes; a longer run is better split into
/// ranges (`stats` merges their files, and `--resume` continues each).
pub const MAX_DEALS: u64 = 100_000_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deals {
    range: RangeInclusive<u64>,
    /// A bit a deal of the range, from its start: set for a deal left out.
    left_out: Vec<u64>,
    count: u64,
}

impl Deals {
    /// Every deal of `range`, which must hold at most [`MAX_DEALS`] (see
    /// [`parse_range`]).
    pub fn new(range: RangeInclusive<u64>) -> Deals {
        let span = range.end().saturating_sub(*range.start()).saturating_add(1);
        assert!(span <= MAX_DEALS, "a range past MAX_DEALS: {range:?}");
        let count = if range.is_empty() { 0 } else { span };
        Deals {
            left_out: vec![0; span.div_ceil(64) as usize],
            range,
            count,
        }
    }

    /// The range the deals were taken from.
    pub fn range(&self) -> &RangeInclusive<u64> {
        &self.range
    }

    /// How many deals are to be solved.
    pub fn len(&self) -> u64 {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Leaves a deal out; one outside the range is not there to leave.
    pub fn leave_out(&mut self, deal: u64) {
        if let Some(offset) = self.offset(deal) {
            let (word, bit) = ((offset / 64) as usize, offset % 64);
            if self.left_out[word] & 1 << bit == 0 {
                self.left_out[word] |= 1 << bit;
                self.count -= 1;
            }
        }
    }

    /// Whether a deal is to be solved.
    pub fn contains(&self, deal: u64) -> bool {
        self.offset(deal)
            .is_some_and(|offset| self.left_out[(offset / 64) as usize] & 1 << (offset % 64) == 0)
    }

    /// The deal `offset` places into the range, if it is to be solved;
    /// `None` past the range's end. Threads take deals by offset from one
    /// counter.
    pub fn at(&self, offset: u64) -> Option<Option<u64>> {
        let deal = self.range.start().checked_add(offset)?;
        (deal <= *self.range.end() && !self.range.is_empty())
            .then(|| self.contains(deal).then_some(deal))
    }

    /// The deals to be solved, in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.range.clone().filter(|&deal| self.contains(deal))
    }

    fn offset(&self, deal: u64) -> Option<u64> {
        self.range
            .contains(&deal)
            .then(|| deal - self.range.start())
    }
}

/// Parses a deal range: `A..B` (both included), `A..=B`, or one number.
pub fn parse_range(text: &str) -> Result<RangeInclusive<u64>, String> {
    let number = |s: &str| {
        s.trim().parse::<u64>().map_err(|_| {
            format!(
                "{} in deal range {} is not a deal number",
                crate::quote::quote(s),
                crate::quote::quote(text)
            )
        })
    };
    let range = match text.split_once("..") {
        Some((a, b)) => number(a)?..=number(b.strip_prefix('=').unwrap_or(b))?,
        None => number(text)?..=number(text)?,
    };
    if range.is_empty() {
        return Err(format!(
            "deal range '{text}' is empty: its end is below its start"
        ));
    }
    if range.end() - range.start() >= MAX_DEALS {
        return Err(format!(
            "deal range '{text}' holds more than {MAX_DEALS} deals: split it into smaller \
             ranges (stats merges their files)"
        ));
    }
    Ok(range)
}

/// Splits a range into `parts` ranges of consecutive deals, as even as
/// whole deals allow (the first ones a deal longer), for batches run apart
/// (on other machines, say) and merged by `stats`. A range of fewer deals
/// than `parts` gives one range a deal.
pub fn split(range: &RangeInclusive<u64>, parts: u64) -> Vec<RangeInclusive<u64>> {
    let deals = range.end() - range.start() + 1;
    let parts = parts.clamp(1, deals);
    let (size, longer) = (deals / parts, deals % parts);
    let mut start = *range.start();
    (0..parts)
        .map(|part| {
            // `size` is at least 1, and the last shard ends on the range's
            // end, which may be `u64::MAX`: nothing here may pass it.
            let end = start + (size - 1) + u64::from(part < longer);
            let shard = start..=end;
            start = end.wrapping_add(1);
            shard
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(parse_range("1..100"), Ok(1..=100));
        assert_eq!(parse_range("1..=100"), Ok(1..=100));
        assert_eq!(parse_range("7"), Ok(7..=7));
        assert!(parse_range("5..1").unwrap_err().contains("empty"));
        assert!(parse_range("1..x").unwrap_err().contains("'x'"));
        assert!(parse_range("1-100").is_err());
        assert!(parse_range("..5").is_err());
        assert!(
            parse_range("1..18446744073709551615")
                .unwrap_err()
                .contains("split it")
        );
        assert_eq!(parse_range("1..100000000"), Ok(1..=100_000_000));
    }

    #[test]
    fn a_range_splits_into_even_shards_that_cover_it() {
        assert_eq!(split(&(1..=10), 3), [1..=4, 5..=7, 8..=10]);
        assert_eq!(split(&(1..=1_000_000), 64).len(), 64);
        assert_eq!(split(&(5..=6), 4), [5..=5, 6..=6]);
        assert_eq!(split(&(7..=7), 0), [7..=7]);
        let top = u64::MAX - 9..=u64::MAX;
        let shards = split(&top, 3);
        assert_eq!(shards.last(), Some(&(u64::MAX - 2..=u64::MAX)));
        for range in [1..=100_000_000, 17..=1016] {
            let shards = split(&range, 7);
            assert_eq!(shards.first().map(|s| *s.start()), Some(*range.start()));
            assert_eq!(shards.last().map(|s| *s.end()), Some(*range.end()));
            for pair in shards.windows(2) {
                assert_eq!(*pair[0].end() + 1, *pair[1].start());
                let (a, b) = (pair[0].clone().count(), pair[1].clone().count());
                assert!(a == b || a == b + 1, "{shards:?}");
            }
        }
    }

    #[test]
    fn deals_left_out_are_skipped_once() {
        let mut deals = Deals::new(10..=200);
        assert_eq!(deals.len(), 191);
        for deal in [10, 70, 70, 200, 5, 201] {
            deals.leave_out(deal);
        }
        assert_eq!(deals.len(), 188);
        assert!(!deals.contains(70) && deals.contains(71) && !deals.contains(9));
        assert_eq!(deals.iter().count(), 188);
        assert_eq!(deals.iter().next(), Some(11));
        assert_eq!(deals.at(0), Some(None));
        assert_eq!(deals.at(1), Some(Some(11)));
        assert_eq!(deals.at(190), Some(None));
        assert_eq!(deals.at(191), None);
        assert_eq!(deals.at(u64::MAX), None);
    }

    #[test]
    fn the_largest_range_takes_a_bit_a_deal() {
        let top = u64::MAX - MAX_DEALS + 1..=u64::MAX;
        let deals = Deals::new(top);
        assert_eq!(deals.len(), MAX_DEALS);
        assert_eq!(
            deals.left_out.len() * 8,
            MAX_DEALS.div_ceil(64) as usize * 8
        );
        assert_eq!(deals.at(MAX_DEALS - 1), Some(Some(u64::MAX)));
        assert_eq!(deals.at(MAX_DEALS), None);
    }
}
