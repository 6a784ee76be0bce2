//! The lookahead player: it sees every card it is shown and plans `N`
//! moves ahead. It plays the move whose best line of at most `N` moves
//! (this move first) gets the most cards home; a line it plans stops at a
//! move that would turn up a card it has not seen, since it cannot know
//! what comes after, and at a win, which beats every other line. Ties go
//! by the greedy order.

use std::collections::HashMap;

use crate::board::Board;
use crate::game::Game;
use crate::games::GameKind;
use crate::games::all_in_a_row::AllInARow;
use crate::notation::Move;
use crate::reference::Rules;
use crate::search::Limits;

use super::greedy;
use super::view::View;

/// The lookahead player's move among `moves` (the legal moves of `board`
/// that it may play), and the positions it looked at.
pub fn pick(
    game: GameKind,
    board: &Board,
    view: View,
    depth: u32,
    moves: &[Move],
) -> (Option<Move>, u64) {
    let rules = game.rules();
    let mut plan = Plan {
        game,
        rules,
        seen: HashMap::new(),
        positions: 0,
    };
    let unseen = view.unseen(board).len();
    let mut best: Option<(u32, Move)> = None;
    let mut sorted = moves.to_vec();
    sorted.sort_by_cached_key(|mv| greedy::order(rules, board, mv));
    for mv in sorted {
        let mut next = board.clone();
        rules.play(&mut next, &mv).expect("a legal move plays");
        let next_view = view.after(&mv);
        let score = match next_view.unseen(&next).len() < unseen {
            true => plan.score_now(&next),
            false => plan.best(&next, next_view, depth.saturating_sub(1)),
        };
        if best.is_none_or(|(most, _)| score > most) {
            best = Some((score, mv));
        }
    }
    (best.map(|(_, mv)| mv), plan.positions)
}

/// A search of the lines of a few moves.
struct Plan<'a> {
    game: GameKind,
    rules: &'a dyn Rules,
    /// The most moves left with which a position was looked at, and the
    /// best it gave: a position met again with no more moves left gives
    /// no more.
    seen: HashMap<Board, (u32, u32)>,
    positions: u64,
}

/// The score of a win: more than any number of cards home.
const WON: u32 = u32::MAX;

impl Plan<'_> {
    /// A position's worth as the end of a line: its cards home, or
    /// [`WON`].
    fn score_now(&self, board: &Board) -> u32 {
        match self.rules.is_won(board) {
            true => WON,
            false => self.rules.cards_home(board) as u32,
        }
    }

    /// The best score of the lines of at most `left` moves from `board`
    /// that turn up no unseen card but perhaps at their last move.
    fn best(&mut self, board: &Board, view: View, left: u32) -> u32 {
        let now = self.score_now(board);
        if left == 0 || now == WON {
            self.positions += 1;
            return now;
        }
        match self.game {
            GameKind::AllInARow => self.best_in_a_row(board, left),
            _ => self.best_plain(board, view, left),
        }
    }

    /// [`Plan::best`] by a plain search of the reference rules' moves.
    fn best_plain(&mut self, board: &Board, view: View, left: u32) -> u32 {
        let now = self.score_now(board);
        self.positions += 1;
        if left == 0 || now == WON {
            return now;
        }
        if let Some(&(had, score)) = self.seen.get(board)
            && had >= left
        {
            return score;
        }
        let unseen = view.unseen(board).len();
        let mut best = now;
        for mv in self.rules.legal_moves(board) {
            let mut next = board.clone();
            self.rules.play(&mut next, &mv).expect("a legal move plays");
            let next_view = view.after(&mv);
            let score = match next_view.unseen(&next).len() < unseen {
                true => self.score_now(&next),
                false => self.best_plain(&next, next_view, left - 1),
            };
            best = best.max(score);
            if best == WON {
                break;
            }
        }
        self.seen.insert(board.clone(), (left, best));
        best
    }
}

impl Plan<'_> {
    /// [`Plan::best`] for All in a Row, by its engine: every move puts a
    /// card home and no card is hidden, so the best line of at most `left`
    /// moves is the longest line stopped at `left` cards more (see
    /// [`AllInARow::longest_line`]), a hundred times faster than the plain
    /// search, which the tests hold it to.
    fn best_in_a_row(&mut self, board: &Board, left: u32) -> u32 {
        let game = AllInARow::new(board).expect("a position of the game");
        let home = self.rules.cards_home(board) as u32;
        let line = game.longest_line((home + left).min(52), &Limits::default());
        self.positions += line.positions;
        match line.cards_home {
            52 => WON,
            most => most,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::all_in_a_row::AllInARowRules;

    /// All in a Row's engine finds the best line the plain search finds,
    /// at every depth, along random play from numbered deals.
    #[test]
    fn all_in_a_rows_engine_agrees_with_the_plain_search() {
        use crate::games::DealNumber;
        use rand::{RngExt, SeedableRng};
        let game = GameKind::AllInARow;
        let rules = game.rules();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut compared = 0;
        for deal in 1..=12 {
            let mut board = game.deal(DealNumber::Numbered(deal)).unwrap();
            loop {
                for depth in [1, 3, 6] {
                    let plan = |game| Plan {
                        game,
                        rules,
                        seen: HashMap::new(),
                        positions: 0,
                    };
                    let fast = plan(game).best(&board, View::default(), depth);
                    let plain = plan(game).best_plain(&board, View::default(), depth);
                    assert_eq!(
                        fast,
                        plain,
                        "deal {deal}, depth {depth}:\n{}",
                        board.to_text()
                    );
                    compared += 1;
                }
                let moves = rules.legal_moves(&board);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(..moves.len())];
                rules.play(&mut board, &mv).unwrap();
            }
        }
        assert!(compared > 300, "{compared}");
    }

    /// Two cards ahead the player sees that 5D leads on to 6C, where 3S
    /// leads nowhere; one card ahead both are one card.
    #[test]
    fn it_plays_the_move_whose_line_gets_furthest() {
        let mut text = String::from("Foundations: 4H\n: 9S 5D\n: 6C\n: TS 3S\n");
        text.push_str(&":\n".repeat(10));
        // The rest of the deck is home: All in a Row keeps only the top.
        let board = Board::parse(&text).unwrap();
        let rules = AllInARowRules;
        let moves = rules.legal_moves(&board);
        let text = |mv: Option<Move>| mv.map(|m| m.to_string());
        // One card ahead both moves are one card home: the greedy order,
        // the lower rank first, takes the 3S.
        let (one, _) = pick(GameKind::AllInARow, &board, View::default(), 1, &moves);
        assert_eq!(text(one), Some("t3 f 3S".into()));
        let (two, looked) = pick(GameKind::AllInARow, &board, View::default(), 2, &moves);
        assert_eq!(text(two), Some("t1 f 5D".into()));
        assert!(looked > 0);
        // Three ahead: 3S, then nothing fits (the 9S and TS are covered or
        // out of reach), against 5D 6C then nothing: 5D still.
        let (three, _) = pick(GameKind::AllInARow, &board, View::default(), 3, &moves);
        assert_eq!(text(three), Some("t1 f 5D".into()));
    }
}
