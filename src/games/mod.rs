//! The game list: each game's layout, and dispatch from a [`GameKind`] to
//! its engine and its reference rules.
//!
//! Adding a game is its engine file, its reference rules file, a variant
//! here and one arm in `with_game!`.

pub mod alexandria;
pub mod all_in_a_row;
mod alternating;
mod foundations;
mod key;
pub mod lanes;
mod narrowed;
mod pile_code;
pub mod raglan;
pub mod rows_of_four;
mod safe_home;
mod step;
mod talon;
#[cfg(test)]
mod testing;

use std::fmt;
use std::mem::MaybeUninit;

use crate::board::Pile;
use crate::board::{Board, BoardError};
use crate::deal::Layout;
use crate::game::Game;
use crate::pysol::{PysolDeal, PysolError};
use crate::reference::{self, Replay};
use crate::search::{self, Limits, Planned, Report, Tables, Tactic, Verdict};

/// The games patience solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum GameKind {
    /// All in a Row: one deck, 13 piles of 4, one foundation built up or
    /// down regardless of suit, wrapping K-A.
    #[value(name = "all-in-a-row")]
    AllInARow,
    /// Raglan: one deck, Aces home, 9 piles built down in alternating
    /// colour, any card to an empty pile, 6 reserve cards.
    Raglan,
    /// Lanes: one deck, Aces home, 6 piles built down in alternating
    /// colour, any card to an empty pile, a stock dealt one card at a time
    /// with one redeal.
    Lanes,
    /// Rows of Four: two decks, 8 piles of 4 built down regardless of
    /// suit, only the waste fills an empty pile, a stock dealt one card at
    /// a time with two redeals.
    #[value(name = "rows-of-four")]
    RowsOfFour,
    /// Alexandria: three decks, 13 piles of 1 to 7 cards with only the top
    /// one face up, built down in alternating colour with runs moving as a
    /// group, a King or King-led run to an empty pile, a stock dealt one
    /// card at a time with no redeal. Face-down cards are known to the
    /// solver.
    Alexandria,
}

/// Why a board could not be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error(
        "internal error: the engine's winning moves fail the reference rules ({0}); \
         this is a bug in patience, please report the deal"
    )]
    Unconfirmed(String),
    #[error("{game} has narrowing levels 1 to {most}, not {level}")]
    Tactic {
        game: &'static str,
        level: u32,
        most: u32,
    },
    #[error("{game} has no relaxation to search (tactic `relaxed`)")]
    NoRelaxation { game: &'static str },
}

/// A deal by number: RULES.md's numbering or PySolFC's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DealNumber {
    Numbered(u64),
    Pysol(u64),
}

impl fmt::Display for DealNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealNumber::Numbered(n) => write!(f, "deal {n}"),
            DealNumber::Pysol(n) => write!(f, "PySolFC game {n}"),
        }
    }
}

impl std::str::FromStr for DealNumber {
    type Err = ();

    /// Reads a deal's label as it is written (`deal 7`, `PySolFC game 7`).
    fn from_str(text: &str) -> Result<DealNumber, ()> {
        let number = |n: &str| n.trim().parse::<u64>().map_err(|_| ());
        match (
            text.strip_prefix("deal "),
            text.strip_prefix("PySolFC game "),
        ) {
            (Some(n), _) => number(n).map(DealNumber::Numbered),
            (_, Some(n)) => number(n).map(DealNumber::Pysol),
            _ => Err(()),
        }
    }
}

/// "No card" among a position's pile tops.
const NO_CARD: u8 = u8::MAX;

/// Runs `$body` with `$g` the engine type of `$kind`, monomorphised.
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $g:ident => $body:expr) => {
        match $kind {
            $crate::games::GameKind::AllInARow => {
                type $g = $crate::games::all_in_a_row::AllInARow;
                $body
            }
            $crate::games::GameKind::Raglan => {
                type $g = $crate::games::raglan::Raglan;
                $body
            }
            $crate::games::GameKind::Lanes => {
                type $g = $crate::games::lanes::Lanes;
                $body
            }
            $crate::games::GameKind::RowsOfFour => {
                type $g = $crate::games::rows_of_four::RowsOfFour;
                $body
            }
            $crate::games::GameKind::Alexandria => {
                type $g = $crate::games::alexandria::Alexandria;
                $body
            }
        }
    };
}

impl GameKind {
    /// The name used on the command line and in CSV files.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::AllInARow => "all-in-a-row",
            GameKind::Raglan => "raglan",
            GameKind::Lanes => "lanes",
            GameKind::RowsOfFour => "rows-of-four",
            GameKind::Alexandria => "alexandria",
        }
    }

    pub fn layout(self) -> &'static Layout {
        match self {
            GameKind::AllInARow => &all_in_a_row::LAYOUT,
            GameKind::Raglan => &raglan::LAYOUT,
            GameKind::Lanes => &lanes::LAYOUT,
            GameKind::RowsOfFour => &rows_of_four::LAYOUT,
            GameKind::Alexandria => &alexandria::LAYOUT,
        }
    }

    /// What the game's search leaves out, as proven to lose no win: a
    /// `lost` verdict covers every reachable position but these.
    pub fn pruning(self) -> &'static str {
        match self {
            GameKind::AllInARow => all_in_a_row::PRUNING,
            GameKind::Raglan => raglan::PRUNING,
            GameKind::Lanes => lanes::PRUNING,
            GameKind::RowsOfFour => rows_of_four::PRUNING,
            GameKind::Alexandria => alexandria::PRUNING,
        }
    }

    /// What the game's relaxation (see [`Game::relaxed`]) lets a line do
    /// that the game does not, for a loss it proves; None for a game with
    /// none.
    pub fn relaxation(self) -> Option<&'static str> {
        match self {
            GameKind::Lanes => Some(lanes::RELAXATION),
            _ => None,
        }
    }

    /// The plain reference rules of the game.
    pub fn rules(self) -> &'static dyn crate::reference::Rules {
        match self {
            GameKind::AllInARow => &crate::reference::all_in_a_row::AllInARowRules,
            GameKind::Raglan => &crate::reference::raglan::RaglanRules,
            GameKind::Lanes => &crate::reference::lanes::LanesRules,
            GameKind::RowsOfFour => &crate::reference::rows_of_four::RowsOfFourRules,
            GameKind::Alexandria => &crate::reference::alexandria::AlexandriaRules,
        }
    }

    /// Checks that a board is a position of this game.
    pub fn validate(self, board: &Board) -> Result<(), BoardError> {
        self.rules().validate(board)
    }

    /// The board of a numbered or PySolFC deal.
    pub fn deal(self, deal: DealNumber) -> Result<Board, PysolError> {
        match deal {
            DealNumber::Numbered(n) => Ok(crate::deal::deal(self.layout(), n)),
            DealNumber::Pysol(n) => self.pysol_deal(n),
        }
    }

    /// Solves a board with this game's engine and fresh tables; a win is
    /// confirmed (see [`GameKind::confirm`]) before it is returned.
    pub fn solve(self, board: &Board, limits: &Limits) -> Result<Report, SolveError> {
        self.solve_with(board, limits, None, 1)
    }

    /// As [`GameKind::solve`], or with one tactic alone (see
    /// [`search::solve_alone`]), on `threads` threads (see
    /// [`search::solve_parallel`]).
    pub fn solve_with(
        self,
        board: &Board,
        limits: &Limits,
        tactic: Option<Tactic>,
        threads: usize,
    ) -> Result<Report, SolveError> {
        let report = with_game!(self, G => {
            if let Some(Tactic::Narrowed(level) | Tactic::Beam(level)) = tactic
                && let Some(most) = G::PLAN.max_narrowing
                && level > most
            {
                let game = self.name();
                return Err(SolveError::Tactic { game, level, most });
            }
            let game = G::new(board)?;
            if tactic == Some(Tactic::Relaxed) && game.relaxed(&game.initial()).is_none() {
                return Err(SolveError::NoRelaxation { game: self.name() });
            }
            let mut tables = Tables::new(limits.memory);
            match tactic {
                _ if threads > 1 => search::solve_parallel(&game, limits, threads, tactic),
                Some(tactic) => search::solve_alone(&game, limits, &mut tables, tactic),
                None => search::solve(&game, limits, &mut tables),
            }
        });
        self.confirm(board, &report)?;
        Ok(report)
    }

    /// Replays a won report's moves with the plain reference rules. The
    /// engine and the reference are written apart, so a win both agree on
    /// is one the user can follow; a disagreement is a bug in patience and
    /// is reported as one, never as `won`.
    pub fn confirm(self, board: &Board, report: &Report) -> Result<(), SolveError> {
        if report.verdict != Verdict::Won {
            return Ok(());
        }
        match reference::replay(self.rules(), board, &report.moves) {
            Replay::Won => Ok(()),
            Replay::NotWon { cards_home } => Err(SolveError::Unconfirmed(format!(
                "the moves leave only {cards_home} cards home"
            ))),
            Replay::Illegal { index, reason } => Err(SolveError::Unconfirmed(format!(
                "move {} '{}' is illegal: {reason}",
                index + 1,
                report.moves[index]
            ))),
        }
    }

    /// On a lost deal, finds a longest line of play where the game can
    /// (All in a Row: see [`all_in_a_row::AllInARow::longest_line`]), so
    /// that `report.best` says how close the deal came: the most cards any
    /// line gets home, not only the most the search, which prunes lines
    /// that cannot win, happened to reach. It runs within what `limits`
    /// leave after the search (nodes, time), and its time is added to the
    /// report's; stopped by them, `best` is the most it found, never less
    /// than the search's. The report's `nodes` stay the search's.
    pub fn longest_line(self, board: &Board, report: &mut Report, limits: &Limits) {
        if report.verdict != Verdict::Lost || self != GameKind::AllInARow {
            return;
        }
        let Ok(game) = all_in_a_row::AllInARow::new(board) else {
            return;
        };
        let left = Limits {
            max_nodes: (limits.max_nodes).map(|m| m.saturating_sub(report.nodes)),
            timeout: (limits.timeout).map(|t| t.saturating_sub(report.elapsed)),
            ..limits.clone()
        };
        let started = std::time::Instant::now();
        // Lost, so no line gets all 52 cards home: 51 is the most.
        let line = game.longest_line(51, &left);
        report.elapsed += started.elapsed();
        if line.cards_home >= report.best {
            report.best = line.cards_home;
            report.longest_line = line.moves;
        }
    }

    /// The deal PySolFC shows as game `n`, for the games whose dealing
    /// patience reproduces (checked against PySolFC's own layouts; there
    /// are none for Alexandria to check against, so it offers none).
    pub fn pysol_deal(self, n: u64) -> Result<Board, PysolError> {
        match self {
            GameKind::AllInARow => crate::pysol::all_in_a_row(n).map(|d| pysol_board(self, d)),
            GameKind::Raglan => crate::pysol::raglan(n).map(|d| pysol_board(self, d)),
            GameKind::Lanes => crate::pysol::lanes(n).map(|d| pysol_board(self, d)),
            GameKind::RowsOfFour => crate::pysol::rows_of_four(n).map(|d| pysol_board(self, d)),
            GameKind::Alexandria => Err(PysolError::NotReproduced(self.name())),
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A PySolFC deal as a board of `game`; lines the game has no use for
/// (a reserve where it has none) are left out.
fn pysol_board(game: GameKind, deal: PysolDeal) -> Board {
    let layout = game.layout();
    let mut foundations: Vec<_> = deal.foundations.into_iter().map(Some).collect();
    foundations.resize(layout.foundations as usize, None);
    Board {
        foundations,
        reserve: (layout.reserve > 0).then(|| deal.reserve.into_iter().map(Some).collect()),
        stock: layout.stock.then_some(deal.stock),
        waste: (!deal.waste.is_empty()).then_some(deal.waste),
        piles: deal.piles.into_iter().map(Pile::face_up).collect(),
        ..Board::default()
    }
}

/// Sorts moves by `order`, highest first, equal ones in the order given,
/// as a stable sort by key would. Each move's order is worked out once,
/// not at each comparison, and packed with the move's place into one
/// word, so that a sort of plain words on the stack does the work
/// (`sort_by_cached_key` allocates its keys on the heap at each call, and
/// `sort_by_key` works out an order at every comparison; the figures are
/// in `docs/tuning.md`).
#[inline]
pub(crate) fn sort_best_first<S: Copy>(moves: &mut [S], order: impl Fn(S) -> i32) {
    /// Lists up to this long are sorted on the stack.
    const MOST: usize = 64;
    if moves.len() < 2 {
        return;
    }
    if moves.len() > MOST {
        moves.sort_by_cached_key(|&step| std::cmp::Reverse(order(step)));
        return;
    }
    let mut keys = [0u64; MOST];
    let keys = &mut keys[..moves.len()];
    for (i, (key, &step)) in keys.iter_mut().zip(moves.iter()).enumerate() {
        let below_top = (i32::MAX as i64 - order(step) as i64) as u64;
        *key = below_top << 8 | i as u64;
    }
    keys.sort_unstable();
    // Left uninitialised past the moves: filling 64 copies of a move at
    // every call cost more than the sort.
    let mut given = [const { MaybeUninit::<S>::uninit() }; MOST];
    for (place, &step) in given.iter_mut().zip(moves.iter()) {
        place.write(step);
    }
    for (step, key) in moves.iter_mut().zip(keys.iter()) {
        // SAFETY: a key's low byte is the place of a move, below
        // `moves.len()`, and the loop above wrote every such place.
        *step = unsafe { given[(key & 0xff) as usize].assume_init() };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deal_label_reads_back() {
        for number in [DealNumber::Numbered(7), DealNumber::Pysol(123_456)] {
            assert_eq!(number.to_string().parse(), Ok(number));
        }
        for bad in ["deal", "deal x", "game 7", "board.txt", "deal -1"] {
            assert_eq!(bad.parse::<DealNumber>(), Err(()), "{bad}");
        }
    }

    #[test]
    fn confirm_rejects_a_win_that_does_not_replay() {
        let game = GameKind::AllInARow;
        let board = game.deal(DealNumber::Pysol(3)).unwrap();
        let mut report = game.solve(&board, &Limits::default()).unwrap();
        assert_eq!(report.verdict, Verdict::Won);
        assert_eq!(game.confirm(&board, &report), Ok(()));

        report.moves.pop();
        let err = game.confirm(&board, &report).unwrap_err().to_string();
        assert!(err.contains("leave only 51 cards home"), "{err}");

        report.moves.swap(0, 1);
        let err = game.confirm(&board, &report).unwrap_err().to_string();
        assert!(
            err.contains("is illegal") && err.starts_with("internal error"),
            "{err}"
        );
    }

    /// Text that is almost a board: tokens of cards, places, headers and
    /// bars, with wide and control characters among them.
    fn near_board() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let token = prop_oneof![
            "(10|[A2-9TJQKé]?)[CDHSé]?",
            Just("-".to_string()),
            Just("|".to_string()),
            Just(":".to_string()),
            Just("\n: ".to_string()),
            Just("\nFoundations: ".to_string()),
            Just("\nReserve: ".to_string()),
            Just("\nStock: ".to_string()),
            Just("\nWaste: ".to_string()),
            Just("\nRedeals: ".to_string()),
            "[0-9]{1,4}",
            any::<char>().prop_map(String::from),
        ];
        proptest::collection::vec(token, 0..80).prop_map(|tokens| tokens.join(" "))
    }

    proptest::proptest! {
        /// Whatever a user types, reading it as a board of any game, and
        /// building the game's engine on what passes, ends in a board or
        /// an error, never a panic.
        #[test]
        fn no_text_makes_a_board_panic(text in near_board()) {
            let Ok(board) = Board::parse(&text) else {
                return Ok(());
            };
            for game in <GameKind as clap::ValueEnum>::value_variants() {
                if game.validate(&board).is_ok() {
                    with_game!(game, G => drop(G::new(&board)));
                }
            }
        }

        /// The same for a move list.
        #[test]
        fn no_text_makes_a_move_list_panic(text in near_board(), words in "[tfrwxdeal0-9é ]{0,12}") {
            let _ = crate::notation::parse_moves(&format!("{text}\n{words}"));
        }
    }

    /// Moves come out of `sort_best_first` as from a stable sort by order,
    /// highest first: lists short and long (past the words kept on the
    /// stack), with orders often equal, and orders at both ends of `i32`.
    #[test]
    fn moves_sort_as_a_stable_sort_by_order_would() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let orders = [i32::MIN, -5, 0, 1 << 16, i32::MAX];
        for len in [0, 1, 2, 3, 10, 63, 64, 65, 200] {
            for _ in 0..20 {
                let moves: Vec<(usize, u8)> = (0..len)
                    .map(|i| (i, (rng.next_u64() % orders.len() as u64) as u8))
                    .collect();
                let order = |(_, pick): (usize, u8)| orders[pick as usize];
                let mut sorted = moves.clone();
                sort_best_first(&mut sorted, order);
                let mut stable = moves.clone();
                stable.sort_by_key(|&step| std::cmp::Reverse(order(step)));
                assert_eq!(sorted, stable, "{len} moves");
            }
        }
    }
}
