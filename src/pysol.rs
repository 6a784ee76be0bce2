//! PySolFC game numbers: its generators and its dealing, so `--pysol N` gives
//! exactly the deal PySolFC shows as game N.
//!
//! PySolFC builds a talon (index 0 = bottom), shuffles it, lets the game's
//! shuffle hook move some cards, then deals from the top, one card per pile
//! left to right per round.

use thiserror::Error;

use crate::card::{Card, Rank, Suit};

/// Why PySolFC has no deal or generator for a number.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PysolError {
    #[error("0 is not a PySolFC game number (they start at 1)")]
    ZeroGameNumber,
    #[error("{0} is out of range for PySolFC's LCRandom31 (0 to 2^33 - 1)")]
    LcSeedOutOfRange(u64),
    #[error(
        "patience does not reproduce PySolFC's {0} deals (there are no PySolFC layouts \
         to check them against): use a deal number or --file"
    )]
    NotReproduced(&'static str),
}

/// A starting layout as PySolFC shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PysolDeal {
    /// Cards placed on foundations at the start, in PySolFC's foundation order.
    pub foundations: Vec<Card>,
    /// Raglan's reserve cards, left to right.
    pub reserve: Vec<Card>,
    /// Tableau piles left to right, each bottom to top.
    pub piles: Vec<Vec<Card>>,
    /// Bottom to top.
    pub waste: Vec<Card>,
    /// The first card is the next one drawn.
    pub stock: Vec<Card>,
}

/// The one operation PySolFC's shuffle asks of either generator.
pub trait PysolRandom {
    /// An integer in `a..=b`, computed exactly as PySolFC does, bias and all,
    /// since any difference changes every deal.
    fn randint(&mut self, a: usize, b: usize) -> usize;
}

/// Microsoft FreeCell's generator, which PySolFC uses below game 32000 so
/// those deals match Windows; larger seeds follow PySolFC's 33-bit "ms"
/// extension, which tags the draws so seeds from 2^31 on give new deals.
#[derive(Debug, Clone)]
pub struct LcRandom31 {
    seed: u64,
    x: u64,
}

impl LcRandom31 {
    const MAX_SEED: u64 = (1 << 33) - 1;

    /// PySolFC refuses seeds past 33 bits rather than wrapping them.
    pub fn new(seed: u64) -> Result<LcRandom31, PysolError> {
        if seed > Self::MAX_SEED {
            return Err(PysolError::LcSeedOutOfRange(seed));
        }
        Ok(LcRandom31 {
            seed,
            x: seed % (1 << 32),
        })
    }

    /// One raw draw: PySolFC's `LCRandom31.random()`.
    pub fn draw(&mut self) -> u32 {
        self.x = (self.x * 214_013 + 2_531_011) & Self::MAX_SEED;
        let high = (self.x >> 16) as u32;
        match self.seed {
            s if s < 1 << 31 => high & 0x7fff,
            s if s < 1 << 32 => high & 0x7fff | 0x8000,
            _ => (high & 0xffff) + 1,
        }
    }
}

impl PysolRandom for LcRandom31 {
    fn randint(&mut self, a: usize, b: usize) -> usize {
        a + self.draw() as usize % (b - a + 1)
    }
}

/// CPython's `random.Random(seed)`, which PySolFC uses from game 32000 on.
#[derive(Debug, Clone)]
pub struct MtRandom {
    state: [u32; MtRandom::N],
    index: usize,
}

impl MtRandom {
    const N: usize = 624;
    const M: usize = 397;

    /// Seeds as CPython does for a non-negative int: `init_by_array` over its
    /// 32-bit words, least significant first, at least one word.
    pub fn new(seed: u64) -> MtRandom {
        let (low, high) = (seed as u32, (seed >> 32) as u32);
        let key: &[u32] = if high == 0 { &[low] } else { &[low, high] };
        let mut mt = MtRandom::init_genrand(19_650_218);
        mt.mix_in_key(key);
        mt
    }

    fn init_genrand(seed: u32) -> MtRandom {
        let mut state = [0u32; MtRandom::N];
        state[0] = seed;
        for i in 1..MtRandom::N {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        MtRandom {
            state,
            index: MtRandom::N,
        }
    }

    /// The two mixing loops of the reference `init_by_array`.
    fn mix_in_key(&mut self, key: &[u32]) {
        let mt = &mut self.state;
        let (mut i, mut j) = (1, 0);
        for _ in 0..MtRandom::N.max(key.len()) {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            (i, j) = (i + 1, (j + 1) % key.len());
            if i == MtRandom::N {
                (mt[0], i) = (mt[MtRandom::N - 1], 1);
            }
        }
        for _ in 0..MtRandom::N - 1 {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i == MtRandom::N {
                (mt[0], i) = (mt[MtRandom::N - 1], 1);
            }
        }
        mt[0] = 0x8000_0000;
    }

    fn regenerate(&mut self) {
        for k in 0..MtRandom::N {
            let y =
                (self.state[k] & 0x8000_0000) | (self.state[(k + 1) % MtRandom::N] & 0x7fff_ffff);
            let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
            self.state[k] = self.state[(k + MtRandom::M) % MtRandom::N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    fn genrand(&mut self) -> u32 {
        if self.index == MtRandom::N {
            self.regenerate();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// CPython's `random()`: 53 random bits from two draws, in `[0, 1)`.
    pub fn random(&mut self) -> f64 {
        let a = f64::from(self.genrand() >> 5);
        let b = f64::from(self.genrand() >> 6);
        (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }
}

impl PysolRandom for MtRandom {
    fn randint(&mut self, a: usize, b: usize) -> usize {
        a + (self.random() * (b - a + 1) as f64) as usize
    }
}

/// Game numbers below this use [`LcRandom31`], the rest [`MtRandom`].
const LC_GAME_LIMIT: u64 = 32_000;

/// PySolFC's suits in its own order, by its suit index.
const PYSOL_SUITS: [Suit; 4] = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds];

/// The pack as PySolFC creates it: deck by deck, suits C S H D, Ace to King.
fn creation_order(decks: usize) -> Vec<Card> {
    let deck: Vec<Card> = PYSOL_SUITS
        .iter()
        .flat_map(|&suit| Rank::all().map(move |rank| Card::new(rank, suit)))
        .collect();
    deck.repeat(decks)
}

/// Windows FreeCell's pack, rank by rank with suits C D H S, which PySolFC
/// substitutes for one-deck LCRandom31 games so its deals match Windows.
fn microsoft_order() -> Vec<Card> {
    Rank::all()
        .flat_map(|rank| Suit::ALL.map(|suit| Card::new(rank, suit)))
        .collect()
}

fn shuffle(cards: &mut [Card], rng: &mut impl PysolRandom) {
    for n in (1..cards.len()).rev() {
        let j = rng.randint(0, n);
        cards.swap(n, j);
    }
}

/// PySolFC's talon for game `game_number` before any game's shuffle hook:
/// index 0 is the bottom, the last card is dealt first.
pub fn shuffled_pack(game_number: u64, decks: usize) -> Result<Vec<Card>, PysolError> {
    if game_number == 0 {
        return Err(PysolError::ZeroGameNumber);
    }
    if game_number >= LC_GAME_LIMIT {
        let mut pack = creation_order(decks);
        shuffle(&mut pack, &mut MtRandom::new(game_number));
        return Ok(pack);
    }
    let mut pack = if decks == 1 {
        microsoft_order()
    } else {
        creation_order(decks)
    };
    shuffle(&mut pack, &mut LcRandom31::new(game_number)?);
    Ok(pack)
}

/// The talon during the deal; cards come off its end.
struct Talon(Vec<Card>);

impl Talon {
    fn deal(&mut self) -> Card {
        self.0
            .pop()
            .expect("the layout needs more cards than the pack has")
    }

    fn deal_cards(&mut self, count: usize) -> Vec<Card> {
        (0..count).map(|_| self.deal()).collect()
    }

    fn deal_row(&mut self, piles: &mut [Vec<Card>]) {
        piles.iter_mut().for_each(|pile| pile.push(self.deal()));
    }

    fn deal_rounds(&mut self, rounds: usize, piles: usize) -> Vec<Vec<Card>> {
        let mut rows = vec![Vec::new(); piles];
        (0..rounds).for_each(|_| self.deal_row(&mut rows));
        rows
    }

    /// Klondike's ending, shared by Lanes and Rows of Four: one card to the
    /// waste, and the rest stays as the stock.
    fn finish_with_waste(mut self, foundations: Vec<Card>, piles: Vec<Vec<Card>>) -> PysolDeal {
        let waste = self.deal_cards(1);
        let stock = self.0.into_iter().rev().collect();
        PysolDeal {
            foundations,
            reserve: Vec::new(),
            piles,
            waste,
            stock,
        }
    }
}

/// The block of Aces the Raglan and Lanes hooks move, bottom to top: PySolFC
/// sorts them by descending suit in its own C S H D order, so the Ace of
/// Clubs is dealt first and lands on the first foundation.
const ACES_BOTTOM_TO_TOP: [Card; 4] = [
    Card::new(Rank::ACE, Suit::Diamonds),
    Card::new(Rank::ACE, Suit::Hearts),
    Card::new(Rank::ACE, Suit::Spades),
    Card::new(Rank::ACE, Suit::Clubs),
];

/// All in a Row: the hook puts the Ace of Spades at the bottom of the talon,
/// so it is dealt last and always tops the thirteenth pile.
pub fn all_in_a_row(n: u64) -> Result<PysolDeal, PysolError> {
    let mut cards = shuffled_pack(n, 1)?;
    let ace_of_spades = Card::new(Rank::ACE, Suit::Spades);
    cards.retain(|&card| card != ace_of_spades);
    cards.insert(0, ace_of_spades);
    let piles = Talon(cards).deal_rounds(4, 13);
    Ok(PysolDeal {
        piles,
        ..PysolDeal::default()
    })
}

/// Raglan: the hook moves the Aces to the bottom, so after piles of 1 to 7
/// cards and the reserve, they are the last four cards, dealt to the foundations.
pub fn raglan(n: u64) -> Result<PysolDeal, PysolError> {
    let mut cards = shuffled_pack(n, 1)?;
    cards.retain(|card| card.rank() != Rank::ACE);
    cards.splice(0..0, ACES_BOTTOM_TO_TOP);
    let mut talon = Talon(cards);
    let mut piles = vec![Vec::new(); 9];
    for first in 0..6 {
        talon.deal_row(&mut piles[first..]);
    }
    talon.deal_row(&mut piles[6..]);
    let reserve = talon.deal_cards(6);
    let foundations = talon.deal_cards(4);
    Ok(PysolDeal {
        foundations,
        reserve,
        piles,
        ..PysolDeal::default()
    })
}

/// Lanes: the hook moves the Aces to the top, so they go to the foundations
/// before the three rounds to the six piles.
pub fn lanes(n: u64) -> Result<PysolDeal, PysolError> {
    let mut cards = shuffled_pack(n, 1)?;
    cards.retain(|card| card.rank() != Rank::ACE);
    cards.extend(ACES_BOTTOM_TO_TOP);
    let mut talon = Talon(cards);
    let foundations = talon.deal_cards(4);
    let piles = talon.deal_rounds(3, 6);
    Ok(talon.finish_with_waste(foundations, piles))
}

/// Rows of Four: two decks, no hook; four rounds to the eight piles.
pub fn rows_of_four(n: u64) -> Result<PysolDeal, PysolError> {
    let mut talon = Talon(shuffled_pack(n, 2)?);
    let piles = talon.deal_rounds(4, 8);
    Ok(talon.finish_with_waste(Vec::new(), piles))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RNG_RAW: &str = include_str!("../tests/data/pysol/rng_raw.txt");
    const SHUFFLES: &str = include_str!("../tests/data/pysol/shuffle.pysol_cards.txt");
    const LAYOUTS: &str = include_str!("../tests/data/pysol/pysolfc_layouts.txt");

    type Deal = fn(u64) -> Result<PysolDeal, PysolError>;
    const GAMES: [(&str, Deal); 4] = [
        ("All in a Row", all_in_a_row),
        ("Raglan", raglan),
        ("Lanes", lanes),
        ("Rows of Four", rows_of_four),
    ];

    /// Compares each rng_raw.txt line `{generator}{seed}){what}...: values`
    /// with `produce(seed, number of values)`; returns how many lines matched.
    fn check_raw<T>(generator: &str, what: &str, produce: impl Fn(u64, usize) -> Vec<T>) -> usize
    where
        T: std::str::FromStr<Err: std::fmt::Debug> + PartialEq + std::fmt::Debug,
    {
        let lines = RNG_RAW.lines().filter_map(|line| {
            let (seed, rest) = line.strip_prefix(generator)?.split_once(')')?;
            let (_, values) = rest.strip_prefix(what)?.split_once(": ")?;
            let values: Vec<T> = values
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect();
            Some((line, seed.parse().unwrap(), values))
        });
        let mut checked = 0;
        for (line, seed, values) in lines {
            assert_eq!(produce(seed, values.len()), values, "{line}");
            checked += 1;
        }
        checked
    }

    /// Cards as the data files write them: `-` for none, `<AS>` face down.
    fn cards(text: &str) -> Vec<Card> {
        text.split_whitespace()
            .filter(|&c| c != "-")
            .map(|c| c.trim_matches(['<', '>']).parse().unwrap())
            .collect()
    }

    #[test]
    fn lc_random31_draws_match_pysolfc() {
        let draws = |seed, count| {
            let mut rng = LcRandom31::new(seed).unwrap();
            (0..count).map(|_| rng.draw()).collect()
        };
        assert_eq!(check_raw("LCRandom31(", ".random()", draws), 6);
    }

    #[test]
    fn mt_random_matches_cpython() {
        let draws = |seed, count| {
            let mut rng = MtRandom::new(seed);
            (0..count).map(|_| rng.random()).collect()
        };
        assert_eq!(check_raw("MTRandom(", ".random()", draws), 4);
    }

    /// The `j` of each shuffle step over `count + 1` cards.
    fn swaps(rng: &mut impl PysolRandom, count: usize) -> Vec<usize> {
        (1..=count).rev().map(|n| rng.randint(0, n)).collect()
    }

    #[test]
    fn shuffle_swap_indices_match_pysolfc() {
        let lc = |seed, count| swaps(&mut LcRandom31::new(seed).unwrap(), count);
        assert_eq!(check_raw("LCRandom31(", " shuffle", lc), 3);
        let mt = |seed, count| swaps(&mut MtRandom::new(seed), count);
        assert_eq!(check_raw("MTRandom(", " shuffle", mt), 4);
    }

    #[test]
    fn shuffled_packs_match_pysolfc() {
        let blocks: Vec<&str> = SHUFFLES
            .split("\n\n")
            .filter(|b| !b.trim().is_empty())
            .collect();
        assert_eq!(blocks.len(), 9);
        for block in blocks {
            let lines: Vec<&str> = block.lines().collect();
            let fields: Vec<&str> = lines[0].split([' ', '=']).collect();
            let (decks, game) = (fields[2].parse().unwrap(), fields[4].parse().unwrap());
            assert_eq!(
                shuffled_pack(game, decks).unwrap(),
                cards(lines[1]),
                "{}",
                lines[0]
            );
        }
    }

    /// One layout block of pysolfc_layouts.txt as a game name, number and deal.
    fn parse_layout(block: &str) -> (&str, u64, PysolDeal) {
        let mut lines = block.lines();
        let header = lines.next().unwrap().trim_start_matches("# ");
        let name = header.split(" (").next().unwrap();
        let number = header
            .split(", ")
            .nth(1)
            .unwrap()
            .trim_start_matches("game number ");
        let mut deal = PysolDeal::default();
        for line in lines {
            let (key, value) = line.split_once(':').unwrap();
            let found = cards(value);
            match key.split('[').next().unwrap() {
                "foundation" => deal.foundations.extend(found),
                "reserve" => deal.reserve.extend(found),
                "row" => deal.piles.push(found),
                "waste" => deal.waste = found,
                "stock" => deal.stock = found.into_iter().rev().collect(),
                other => panic!("unknown layout line {other}"),
            }
        }
        (name, number.parse().unwrap(), deal)
    }

    #[test]
    fn deals_match_pysolfc_layouts() {
        let blocks: Vec<&str> = LAYOUTS
            .split("\n\n")
            .filter(|b| !b.trim().is_empty())
            .collect();
        assert_eq!(blocks.len(), 24);
        for block in blocks {
            let (name, number, expected) = parse_layout(block.trim());
            let (_, deal) = GAMES.iter().find(|(game, _)| *game == name).unwrap();
            assert_eq!(deal(number).unwrap(), expected, "{name} {number}");
        }
    }

    #[test]
    fn game_number_zero_is_an_error() {
        assert_eq!(shuffled_pack(0, 1), Err(PysolError::ZeroGameNumber));
        for (name, deal) in GAMES {
            assert_eq!(deal(0), Err(PysolError::ZeroGameNumber), "{name}");
        }
    }

    #[test]
    fn lc_random31_rejects_seeds_past_33_bits() {
        assert_eq!(
            LcRandom31::new(1 << 33).unwrap_err(),
            PysolError::LcSeedOutOfRange(1 << 33)
        );
    }
}
