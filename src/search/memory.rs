//! How a thread shares its part of `--memory` among its tables, and, as
//! one of several workers, with the table the workers share.

use super::task::Task;
use super::workers::Workers;
use super::{Table, Tables, Tactic};
use crate::game::Game;

/// Shares the tables' cap among the tasks `kept`, which take turns on,
/// and `parallel_beam`, the table of a beam whose turn is under way on
/// another thread: the workers' table takes its due (see
/// [`MemoryShare`]), the tables of the others give their memory back, and
/// those left may grow into it, but for a beam's, when `beams_wait`,
/// until its round is over (see the scheduler in [`super::rounds`]).
pub(super) fn share_tables<'t, G: Game>(
    kept: &[&Task<G>],
    parallel_beam: Option<usize>,
    beams_wait: bool,
    tables: impl Iterator<Item = (usize, &'t mut Table<G::Key>)>,
    memory: &mut MemoryShare,
    workers: Option<&Workers<G>>,
) where
    G::Key: 't,
{
    let own = kept.iter().filter(|task| !task.shared).count() + parallel_beam.iter().count();
    match workers {
        Some(workers) => {
            let sharing = kept.iter().any(|task| task.shared);
            memory.give(workers, own, sharing);
        }
        None => memory.each = memory.cap / own.max(1),
    }
    let used = |t: usize| kept.iter().any(|task| !task.shared && task.table == t);
    let waits = |t: usize| {
        beams_wait
            && (parallel_beam == Some(t)
                || (kept.iter())
                    .any(|task| task.table == t && matches!(task.tactic, Tactic::Beam(_))))
    };
    Tables::share(tables, memory.each, used, waits);
}

/// One thread's share of the tables' cap, and, among workers, what of it
/// went to the workers' table. Its own tables have it at first; as its
/// tasks end, the workers' table takes a part as large as each of its
/// tables still in use (or what they leave, if more), and all of it once
/// none is left: a shared walk that would crowd a small table then has
/// the room its thread no longer uses.
///
/// A part is given only when it is at least twice the bytes of the
/// table's size in use, or is the last: the table grows only by whole
/// sizes (see `SharedTable::next_len`), so parts given a little at a time
/// could stay unused.
pub(super) struct MemoryShare {
    cap: usize,
    /// Bytes given to the workers' table.
    given: usize,
    /// The cap of each of the thread's own tables in use.
    pub(super) each: usize,
}

impl MemoryShare {
    /// A share of `cap` bytes, split evenly among `own` tables.
    pub(super) fn new(cap: usize, own: usize) -> MemoryShare {
        MemoryShare {
            cap,
            given: 0,
            each: cap / own.max(1),
        }
    }

    /// Gives the workers' table its due, with `own` tables left and while
    /// the thread takes part in the workers' search (`sharing`). Neither
    /// part ever shrinks: a table gives no memory back while in use.
    pub(super) fn give<G: Game>(&mut self, workers: &Workers<G>, own: usize, sharing: bool) {
        let each = match (own, sharing) {
            (0, _) => 0,
            (own, true) => self.each.max(self.cap / (own + 1)),
            (own, false) => (self.cap - self.given) / own,
        };
        let due = self.cap - own * each;
        if due > self.given && own > 0 && due - self.given < 2 * workers.table.bytes() {
            return;
        }
        self.each = each;
        if due > self.given {
            workers.table.raise_cap(due - self.given);
            self.given = due;
        }
    }
}
