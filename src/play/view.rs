//! What a player sees of a deal: every card but the face-down ones
//! (Alexandria) and the stock's cards before they are first drawn. A pass
//! through the stock shows its order: a redeal only turns the waste over,
//! so after one the whole stock is known.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::board::Board;
use crate::card::Card;
use crate::notation::Move;

/// Where the unseen cards of a position lie.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// Whether the stock's order is known: a redeal was played.
    pub stock_seen: bool,
}

impl View {
    /// What a player knows after `mv`: a redeal shows the stock.
    pub fn after(self, mv: &Move) -> View {
        View {
            stock_seen: self.stock_seen || matches!(mv, Move::Redeal),
        }
    }

    /// The cards the player has not seen, in a fixed order of their
    /// places: each pile's face-down cards, then the stock's.
    pub fn unseen(self, board: &Board) -> Vec<Card> {
        let down = board
            .piles
            .iter()
            .flat_map(|pile| pile.down.iter().copied());
        let stock = match (self.stock_seen, &board.stock) {
            (false, Some(stock)) => stock.as_slice(),
            _ => &[],
        };
        down.chain(stock.iter().copied()).collect()
    }

    /// A deal the player cannot tell from `board`: its unseen cards dealt
    /// again at random to the places of unseen cards. The seen cards stay
    /// where they are. The cards are sorted before they are shuffled, so
    /// that the sample depends on which cards are unseen, never on where
    /// they lie.
    pub fn sample(self, board: &Board, rng: &mut ChaCha8Rng) -> Board {
        let mut cards = self.unseen(board);
        cards.sort_unstable();
        cards.shuffle(rng);
        let mut cards = cards.into_iter();
        let mut sample = board.clone();
        for pile in &mut sample.piles {
            for card in &mut pile.down {
                *card = cards.next().expect("as many cards as places");
            }
        }
        if let (false, Some(stock)) = (self.stock_seen, &mut sample.stock) {
            for card in stock {
                *card = cards.next().expect("as many cards as places");
            }
        }
        sample
    }
}

/// A move as a player chooses it: a draw turns up whatever card is next,
/// so draws are one choice, whichever card the move names.
pub fn choice(mv: &Move) -> Move {
    match mv {
        Move::Draw(_) => Move::Draw(Card::from_index(0)),
        other => *other,
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::games::{DealNumber, GameKind};

    #[test]
    fn a_sample_keeps_every_seen_card_and_deals_the_unseen_again() {
        let game = GameKind::Alexandria;
        let board = game.deal(DealNumber::Numbered(3)).unwrap();
        let view = View::default();
        let unseen = view.unseen(&board);
        assert_eq!(unseen.len(), 36 + 107);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let sample = view.sample(&board, &mut rng);
        game.validate(&sample)
            .expect("a sample is a position of the game");
        assert_ne!(sample, board);
        for (ours, theirs) in board.piles.iter().zip(&sample.piles) {
            assert_eq!(ours.up, theirs.up);
            assert_eq!(ours.down.len(), theirs.down.len());
        }
        let mut sorted = view.unseen(&sample);
        sorted.sort();
        let mut expected = unseen;
        expected.sort();
        assert_eq!(sorted, expected);
    }

    #[test]
    fn after_a_redeal_the_stock_is_seen() {
        let game = GameKind::Lanes;
        let board = game.deal(DealNumber::Numbered(3)).unwrap();
        assert_eq!(View::default().unseen(&board).len(), 30);
        let seen = View::default().after(&Move::Redeal);
        assert!(seen.unseen(&board).is_empty());
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(seen.sample(&board, &mut rng), board);
    }
}
