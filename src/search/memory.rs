//! How a thread shares its memory among its tables and the workers' table.

use super::task::Entrant;
use super::workers::Crew;
use super::{Table, Tables, Tactic};
use crate::game::Game;

/// Shares the tables' cap among the tactics `kept`, which take turns on,
/// and `beside`, the table of a beam whose turn is under way on another
/// thread: the crew's table takes its due (see [`Purse`]), the tables of
/// the others give their memory back, and those left may grow into it,
/// but for a beam's, when `beams_wait`, until its round is over (see
/// [`Rounds`]).
pub(super) fn share_tables<'t, G: Game>(
    kept: &[&Entrant<G>],
    beside: Option<usize>,
    beams_wait: bool,
    tables: impl Iterator<Item = (usize, &'t mut Table<G::Key>)>,
    purse: &mut Purse,
    crew: Option<&Crew<G>>,
) where
    G::Key: 't,
{
    let own = kept.iter().filter(|entrant| !entrant.shared).count() + beside.iter().count();
    match crew {
        Some(crew) => {
            let sharing = kept.iter().any(|entrant| entrant.shared);
            purse.give(crew, own, sharing);
        }
        None => purse.each = purse.cap / own.max(1),
    }
    let used = |t: usize| kept.iter().any(|e| !e.shared && e.table == t);
    let waits = |t: usize| {
        beams_wait
            && (beside == Some(t)
                || (kept.iter()).any(|e| e.table == t && matches!(e.tactic, Tactic::Beam(_))))
    };
    Tables::share(tables, purse.each, used, waits);
}

/// One thread's share of the tables' cap in a crew, and what of it went to
/// the crew's table. Its own tables have it at first; as its tactics end,
/// the crew's search takes a part as large as each of its tables still in
/// use (or what they leave, if more), and all of it once none is left.
/// (Lanes deal 826 on two threads: the crew's walk, at a quarter of the
/// default cap, crowded its table, and one walk left at 5 s, the other
/// won at 19.8 s; given the share of the narrowed walk of level 1, which
/// ended at once, the crew's table held both walks to a win at 5.5 to
/// 9.4 s.)
///
/// A part is given only when it is at least twice the bytes of the
/// table's size in use, or is the last: the table keeps the sizes it grew
/// through, and makes a new one only twice as large, so parts given a
/// little at a time could stay unused. (Lanes deal 42 at `--memory 64M`
/// on two threads, every part given at once: the table stopped at 1.05M
/// slots, not 1.6M, and the search took 199M positions, not 128M.)
pub(super) struct Purse {
    pub(super) cap: usize,
    /// Bytes given to the crew's table.
    pub(super) given: usize,
    /// The cap of each of the thread's own tables in use.
    pub(super) each: usize,
}

impl Purse {
    /// Gives the crew's table its due, with `own` tables left and while
    /// the thread takes part in the crew's search (`sharing`). Neither
    /// part ever shrinks: a table gives no memory back while in use.
    pub(super) fn give<G: Game>(&mut self, crew: &Crew<G>, own: usize, sharing: bool) {
        let each = match (own, sharing) {
            (0, _) => 0,
            (own, true) => self.each.max(self.cap / (own + 1)),
            (own, false) => (self.cap - self.given) / own,
        };
        let due = self.cap - own * each;
        if due > self.given && own > 0 && due - self.given < 2 * crew.table.bytes() {
            return;
        }
        self.each = each;
        if due > self.given {
            crew.table.raise_cap(due - self.given);
            self.given = due;
        }
    }
}
