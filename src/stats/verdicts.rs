//! One game's verdicts by deal number, two bits a deal, and the verdicts
//! of every game in some files.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use crate::search::Verdict;

use super::Summary;

/// Deal numbers a block of [`Verdicts`] covers.
const BLOCK: u64 = 1024;
/// Words of two bits a deal in a block.
const WORDS: usize = (BLOCK * 2 / 64) as usize;

/// One game's verdicts by deal number, two bits a deal.
///
/// Deal numbers are kept in blocks of 1024 consecutive numbers (256 bytes
/// each), made as a deal of the block first comes: a range of `n` deals
/// takes about `n / 4` bytes and a little more for the blocks' map (100M
/// deals about 29 MB); scattered deals take a block each.
#[derive(Clone, Debug, Default)]
pub struct Verdicts {
    blocks: ahash::AHashMap<u64, Box<[u64; WORDS]>>,
    /// Deals won, lost and unknown.
    counts: [u64; 3],
}

/// A verdict's two bits; 0 is no verdict.
fn code(verdict: Verdict) -> u64 {
    match verdict {
        Verdict::Won => 1,
        Verdict::Lost => 2,
        Verdict::Unknown => 3,
    }
}

fn from_code(code: u64) -> Option<Verdict> {
    match code {
        1 => Some(Verdict::Won),
        2 => Some(Verdict::Lost),
        3 => Some(Verdict::Unknown),
        _ => None,
    }
}

impl Verdicts {
    /// Where a deal's two bits are: its block, word and shift.
    fn place(deal: u64) -> (u64, usize, u32) {
        let at = deal % BLOCK;
        (deal / BLOCK, (at / 32) as usize, (at % 32 * 2) as u32)
    }

    pub fn get(&self, deal: u64) -> Option<Verdict> {
        let (block, word, shift) = Verdicts::place(deal);
        let words = self.blocks.get(&block)?;
        from_code(words[word] >> shift & 3)
    }

    /// Sets or clears a deal's verdict.
    pub fn set(&mut self, deal: u64, verdict: Option<Verdict>) {
        let (block, word, shift) = Verdicts::place(deal);
        let new = verdict.map_or(0, code);
        let words = match (self.blocks.get_mut(&block), new) {
            (Some(words), _) => words,
            (None, 0) => return,
            (None, _) => self.blocks.entry(block).or_insert(Box::new([0; WORDS])),
        };
        let old = words[word] >> shift & 3;
        words[word] = words[word] & !(3 << shift) | new << shift;
        if old != 0 {
            self.counts[old as usize - 1] -= 1;
        }
        if new != 0 {
            self.counts[new as usize - 1] += 1;
        }
    }

    /// Records a deal's verdict from another row. A decided verdict
    /// supersedes `unknown` (a longer run decided what a shorter one did
    /// not); `unknown` adds nothing to a decided one; `won` against `lost`
    /// is an error, holding the verdict already recorded.
    pub fn merge(&mut self, deal: u64, verdict: Verdict) -> Result<(), Verdict> {
        match self.get(deal) {
            None | Some(Verdict::Unknown) => self.set(deal, Some(verdict)),
            Some(held) if held == verdict || verdict == Verdict::Unknown => {}
            Some(held) => return Err(held),
        }
        Ok(())
    }

    /// The counts as a summary of `game`.
    pub fn summary(&self, game: &str) -> Summary {
        let [won, lost, unknown] = self.counts;
        Summary {
            game: game.to_string(),
            deals: won + lost + unknown,
            won,
            lost,
            unknown,
        }
    }

    /// The deals with a verdict, in no order.
    pub fn deals(&self) -> impl Iterator<Item = (u64, Verdict)> + '_ {
        self.blocks.iter().flat_map(|(&block, words)| {
            (0..BLOCK).filter_map(move |at| {
                let code = words[(at / 32) as usize] >> (at % 32 * 2) & 3;
                from_code(code).map(|verdict| (block * BLOCK + at, verdict))
            })
        })
    }

    /// The deals with a verdict, in the order of their numbers.
    pub fn in_order(&self) -> impl Iterator<Item = (u64, Verdict)> + '_ {
        let mut blocks: Vec<u64> = self.blocks.keys().copied().collect();
        blocks.sort_unstable();
        blocks.into_iter().flat_map(move |block| {
            let words = &self.blocks[&block];
            (0..BLOCK).filter_map(move |at| {
                let code = words[(at / 32) as usize] >> (at % 32 * 2) & 3;
                from_code(code).map(|verdict| (block * BLOCK + at, verdict))
            })
        })
    }

    /// Whether every deal of `range` has a verdict: the deals it lacks, as
    /// runs of consecutive numbers.
    pub fn missing(&self, range: RangeInclusive<u64>) -> Vec<RangeInclusive<u64>> {
        let mut runs: Vec<RangeInclusive<u64>> = Vec::new();
        for deal in range.filter(|&deal| self.get(deal).is_none()) {
            match runs.last_mut() {
                Some(run) if *run.end() + 1 == deal => *run = *run.start()..=deal,
                _ => runs.push(deal..=deal),
            }
        }
        runs
    }

    /// The bytes it holds on the heap, near enough: its blocks and the
    /// map's slots (a key, a pointer and a control byte each).
    pub fn heap_bytes(&self) -> usize {
        self.blocks.len() * std::mem::size_of::<[u64; WORDS]>()
            + self.blocks.capacity() * (2 * std::mem::size_of::<u64>() + 1)
    }
}

/// Verdicts by game (the `game` column) and deal.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    games: BTreeMap<String, Verdicts>,
}

impl Tally {
    /// See [`Verdicts::merge`].
    pub fn merge(&mut self, game: &str, deal: u64, verdict: Verdict) -> Result<(), Verdict> {
        match self.games.get_mut(game) {
            Some(verdicts) => verdicts.merge(deal, verdict),
            None => self
                .games
                .entry(game.to_string())
                .or_default()
                .merge(deal, verdict),
        }
    }

    /// The verdicts of a game, if it has any rows.
    pub fn game(&self, game: &str) -> Option<&Verdicts> {
        self.games.get(game)
    }

    /// The verdicts of a game, made empty if it has none.
    pub fn game_mut(&mut self, game: &str) -> &mut Verdicts {
        self.games.entry(game.to_string()).or_default()
    }

    /// The games, by name.
    pub fn games(&self) -> impl Iterator<Item = &str> {
        self.games.keys().map(String::as_str)
    }

    /// One summary a game with deals, by name.
    pub fn summaries(&self) -> Vec<Summary> {
        (self.games.iter())
            .map(|(game, verdicts)| verdicts.summary(game))
            .filter(|summary| summary.deals > 0)
            .collect()
    }

    pub fn heap_bytes(&self) -> usize {
        self.games.values().map(Verdicts::heap_bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(s: &Summary) -> (u64, u64, u64, u64) {
        (s.deals, s.won, s.lost, s.unknown)
    }

    #[test]
    fn verdicts_keep_two_bits_a_deal() {
        let mut verdicts = Verdicts::default();
        let all = [Verdict::Won, Verdict::Lost, Verdict::Unknown];
        for deal in 0..1_000_000u64 {
            verdicts.set(deal * 3 % 1_000_000 + 5, Some(all[deal as usize % 3]));
        }
        assert_eq!((verdicts.get(4), verdicts.get(1_000_005)), (None, None));
        // Deal 1_000_004 is set when 3d % 1_000_000 = 999_999: d = 333_333.
        assert_eq!(verdicts.get(1_000_004), Some(Verdict::Won));
        assert_eq!(
            counts(&verdicts.summary("x")),
            (1_000_000, 333_334, 333_333, 333_333)
        );
        verdicts.set(5, None);
        assert_eq!(verdicts.summary("x").deals, 999_999);
        assert_eq!(verdicts.deals().count(), 999_999);
        let ordered: Vec<u64> = verdicts.in_order().map(|(deal, _)| deal).take(3).collect();
        assert_eq!(ordered, [6, 7, 8]);
        assert_eq!(verdicts.in_order().count(), 999_999);
        assert_eq!(verdicts.missing(1..=8), [1..=5]);
        verdicts.set(7, None);
        assert_eq!(verdicts.missing(4..=9), [4..=5, 7..=7]);
        let bytes = verdicts.heap_bytes();
        assert!(bytes < 300_000, "{bytes} bytes for 1M deals");
    }
}
