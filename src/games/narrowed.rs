//! What a narrowed search leaves out, at each level of narrowing (see
//! [`Ask::narrowing`]), in the games whose levels differ in more than one
//! way (Rows of Four, Alexandria). A narrowed search only ever proves a
//! win, so these need no argument, only measurements (`docs/tuning.md`):
//! a depth-first walk free to make every move spends millions of positions
//! trading twin cards about, jumping back and forth in the talon, and
//! playing cards that lie far down the stock. Most wins need few of
//! either.

use crate::game::Ask;

/// One level of narrowing.
pub(super) struct Narrowed {
    /// Once this many moves in a row have only rearranged the tableau, the
    /// next must not. A move rearranges when it takes cards off a run onto
    /// another pile, leaving the card they lay on: it can be undone.
    pub(super) rearranging: u8,
    /// Only this many cards of the stock may be played (besides the
    /// waste's top): the next ones, or the first that have a move, as the
    /// game says.
    pub(super) window: u32,
    /// A free card that can go home goes there at once, the only move
    /// offered, safe or not.
    pub(super) greedy: bool,
}

impl Narrowed {
    /// The level `ask` asks for among `levels` (level `k` is
    /// `levels[k - 1]`), or `None` in a full search.
    #[inline]
    pub(super) fn at(levels: &'static [Narrowed], ask: Ask) -> Option<&'static Narrowed> {
        (ask.narrowing > 0).then(|| &levels[ask.narrowing as usize - 1])
    }

    /// Whether, after `rearranged` moves in a row that only rearranged,
    /// the next must not.
    #[inline]
    pub(super) fn tired(narrowed: Option<&Narrowed>, rearranged: u8) -> bool {
        narrowed.is_some_and(|n| rearranged >= n.rearranging)
    }
}

/// The moves in a row that only rearranged the tableau, after a move that
/// does so (`rearranges`) or not, `before` the count up to it.
#[inline]
pub(super) fn rearranged_after(before: u8, rearranges: bool) -> u8 {
    match rearranges {
        true => before.saturating_add(1),
        false => 0,
    }
}
