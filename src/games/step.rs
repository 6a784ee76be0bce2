//! A move of one card, in the games that move one card at a time.

/// A card from `from` (a pile, or a place the game adds) to its
/// foundation or onto a pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step<F> {
    pub(super) from: F,
    /// The destination pile, or `None` for the foundation.
    pub(super) to: Option<u8>,
}
