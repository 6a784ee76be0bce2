//! The turns one thread takes at its tactics, round after round.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::memory::{Purse, share_tables};
use super::task::Entrant;
use super::workers::Crew;
use super::{End, Limits, Plan, Report, Search, Stop, Table, Tables, Tactic, Verdict};
use crate::game::Game;
use crate::notation;

/// How much larger each turn's budget is than the one before. Turns take
/// up their attempts where they stopped, so this only sets how finely the
/// tactics share the nodes. Raglan, simulated from the nodes and time each
/// tactic takes alone (`results/schedule/README.md`), Solvitaire's 150
/// boards, numbered deals 1..2000 and 30001..31000: 1.3, 19.6 and 10.4 s
/// of solving with 2; 1.0, 19.3 and 10.8 s with 3; 1.3, 18.8 and 9.9 s
/// with 4.
pub(super) const TURN_GROWTH: u64 = 3;

pub(super) fn take_turns<G: Game>(
    game: &G,
    plan: &Plan,
    limits: &Limits,
    tables: &mut Tables<G::Key>,
    tactics: Vec<Tactic>,
    mut budget: u64,
    crew: Option<&Crew<G>>,
) -> Report {
    let started = Instant::now();
    let mut search = Search::new(game, plan, limits);
    search.halt = crew.map(|crew| &crew.halt);
    search.helpers = match crew {
        Some(crew) => crew.threads,
        None if tables.pooled() => rayon::current_num_threads(),
        None => 1,
    };
    let shared = |tactic| crew.is_some_and(|crew| crew.prover == Some(tactic));
    let own = tactics.iter().filter(|&&t| !shared(t)).count();
    let purse = Purse {
        cap: tables.cap(),
        given: 0,
        each: tables.cap() / own.max(1),
    };
    let tables = tables.split(own);
    let mut local = 0..;
    // The walk of the first thread to sit down never asks to leave.
    let seat = crew.map(|crew| crew.seats.fetch_add(1, Ordering::Relaxed));
    // Best-first search shared by the crew is the first thread's first
    // tactic; the others join it once their own tactics have ended, so
    // that a narrowed walk, which wins some deals far sooner, keeps a
    // thread to itself as long as it can win.
    let mut joins =
        crew.is_some_and(|crew| crew.frontier.is_some()) && !tactics.contains(&Tactic::BestFirst);
    let mut rotation: Vec<Entrant<G>> = (tactics.into_iter())
        .map(|tactic| match shared(tactic) {
            true => Entrant::sharing(tactic, seat != Some(0)),
            false => Entrant::new(tactic, local.next().expect("unbounded")),
        })
        .collect();
    let root = game.initial();
    search.best = game.cards_home(&root);
    let mut rounds = Rounds {
        search,
        crew,
        seat,
        purse,
        turns: 0,
        table_peak: 0,
        prover_out_of_room: false,
        last: None,
        retiring: Vec::new(),
    };
    let (verdict, stop, moves) = if game.is_won(&root) {
        (Verdict::Won, None, Vec::new())
    } else {
        loop {
            if let Some(crew) = crew {
                let level = crew.narrowed_ended.load(Ordering::Relaxed);
                if level > 0 {
                    retire(
                        &mut rotation,
                        tables,
                        &mut rounds.purse,
                        Some(crew),
                        narrower(level),
                    );
                }
                // This thread's own tables are no longer used: the shared
                // one may have their share, as a table left alone does.
                if rotation.iter().all(|entrant| entrant.shared) {
                    rounds.purse.give(crew, 0, true);
                }
            }
            if rotation.is_empty() && std::mem::take(&mut joins) {
                rotation.push(Entrant::sharing(Tactic::BestFirst, seat != Some(0)));
            }
            if rotation.is_empty() {
                let stop = match rounds.prover_out_of_room {
                    true => Stop::Memory,
                    false => Stop::Narrowed,
                };
                break (Verdict::Unknown, Some(stop), Vec::new());
            }
            let (allowances, next) = round_budgets(plan, &rotation, budget);
            budget = next;
            if let Some(decided) = rounds.play(&mut rotation, tables, &allowances) {
                break decided;
            }
            let retiring = std::mem::take(&mut rounds.retiring);
            if !retiring.is_empty() {
                retire(&mut rotation, tables, &mut rounds.purse, crew, |t| {
                    retiring.contains(&t)
                });
            }
        }
    };
    let Rounds {
        search,
        turns,
        table_peak,
        last,
        ..
    } = rounds;
    if let Some(crew) = crew {
        if let Verdict::Won | Verdict::Lost = verdict {
            crew.halt.store(true, Ordering::Relaxed);
        }
        // A thread that stops still in the crew's best-first search leaves
        // it, so that walks waiting to take its place are not kept waiting.
        for entrant in &mut rotation {
            entrant.quit(crew);
        }
    }
    Report {
        verdict,
        stop,
        moves,
        turns,
        nodes: search.nodes,
        table_peak,
        table_bytes: tables.iter().map(Table::bytes).sum(),
        best: search.best,
        longest_line: Vec::new(),
        elapsed: started.elapsed(),
        decided_by: last.filter(|_| verdict != Verdict::Unknown),
    }
}

/// The least allowance of a beam's turn taken beside the walks' turns
/// (see [`Rounds::beside`]): the thread their turns take is made for the
/// round, and most deals of a batch are decided in rounds far shorter
/// than it takes to make one, while both threads have deals of their own.
/// (Rows of Four deals 1001..2000, `batch --threads 2`: 3.84 to 3.89 s
/// with no turn beside, 4.42 to 4.61 s with every round's.)
pub(super) const BESIDE_FROM: u64 = 1_000_000;

/// The narrowed searches at `level` or narrower: once a walk at `level`
/// ends without a win, none of them can win either.
pub(super) fn narrower(level: u32) -> impl Fn(Tactic) -> bool {
    move |kept| match kept {
        Tactic::Narrowed(other) | Tactic::Rollouts(other) => other <= level,
        _ => false,
    }
}

/// The allowance of each turn of a round of `rotation` whose first turn
/// has `budget` nodes (times its tactic's weight), and the budget of the
/// next round's first turn: each turn three times the one before, or,
/// with [`Plan::growth_by_round`], each round three times the one before.
pub(super) fn round_budgets<G: Game>(
    plan: &Plan,
    rotation: &[Entrant<G>],
    budget: u64,
) -> (Vec<u64>, u64) {
    let mut next = budget;
    let allowances = (rotation.iter())
        .map(|entrant| {
            let allowance = next.saturating_mul(entrant.tactic.weight(plan));
            if !plan.growth_by_round {
                next = next.saturating_mul(TURN_GROWTH);
            }
            allowance
        })
        .collect();
    if plan.growth_by_round {
        next = next.saturating_mul(TURN_GROWTH);
    }
    (allowances, next)
}

/// How a decided search ends: its verdict, why it stopped if unknown,
/// and the winning moves.
pub(super) type Decided = (Verdict, Option<Stop>, Vec<notation::Move>);

/// One thread's turns at its tactics (see [`take_turns`]), round after
/// round: each tactic in the rotation takes a turn in order, and those
/// that end take no more turns and leave the rotation once the round is
/// over. Their tables go to the walks left at once (a walk that runs out
/// of room may then go on), but to a beam only once the round is over:
/// so a beam's turn, the last of a round, hangs on nothing the turns
/// before it in the round did but for a verdict, and can be taken beside
/// them (see [`Rounds::play_beside`]) and search the same positions.
pub(super) struct Rounds<'a, G: Game> {
    search: Search<'a, G>,
    crew: Option<&'a Crew<G>>,
    seat: Option<usize>,
    purse: Purse,
    turns: u32,
    table_peak: usize,
    prover_out_of_room: bool,
    /// The tactic of the last turn taken: the one that decided, if any did.
    last: Option<Tactic>,
    /// The tactics that ended this round, to leave the rotation after it.
    retiring: Vec<Tactic>,
}

impl<'a, G: Game> Rounds<'a, G> {
    /// Plays a round of `rotation`, each turn with its allowance; gives
    /// the verdict if a turn decided.
    fn play(
        &mut self,
        rotation: &mut [Entrant<G>],
        tables: &mut [Table<G::Key>],
        allowances: &[u64],
    ) -> Option<Decided> {
        match self.beside(rotation, allowances) {
            Some(beam) => self.play_beside(rotation, tables, allowances, beam),
            None => self.take_round(rotation, tables, &mut [], None, allowances),
        }
    }

    /// Takes the turns of `rotation` in order, each with its allowance, and
    /// shares out the tables of the tactics that end at once (see
    /// [`Rounds`]); gives the verdict if a turn decided. The tables are
    /// `below` and `above` the one of the beam at `beside`, whose turn is
    /// under way on another thread; with none, `below` are all of them.
    fn take_round(
        &mut self,
        rotation: &mut [Entrant<G>],
        below: &mut [Table<G::Key>],
        above: &mut [Table<G::Key>],
        beside: Option<usize>,
        allowances: &[u64],
    ) -> Option<Decided> {
        let skip = beside.unwrap_or(below.len());
        for at in 0..rotation.len() {
            if self.retiring.contains(&rotation[at].tactic) {
                continue;
            }
            let entrant = &mut rotation[at];
            let table = (!entrant.shared).then(|| match entrant.table < skip {
                true => &mut below[entrant.table],
                false => &mut above[entrant.table - skip - 1],
            });
            let end = self.turn(entrant, table, allowances[at]);
            let leaving = self.retiring.len();
            let decided = self.settle(end, rotation, at);
            if decided.is_some() {
                return decided;
            }
            if self.retiring.len() > leaving {
                let staying = |entrant: &&Entrant<G>| !self.retiring.contains(&entrant.tactic);
                let kept: Vec<&Entrant<G>> = rotation.iter().filter(staying).collect();
                let tables = (below.iter_mut().enumerate())
                    .chain((above.iter_mut().enumerate()).map(|(t, table)| (t + skip + 1, table)));
                share_tables(&kept, beside, true, tables, &mut self.purse, self.crew);
            }
        }
        None
    }

    /// The beam whose turn may be taken beside the walks' of this round,
    /// given each turn's allowance: the last of the rotation, where its
    /// rollouts may use other threads (which would wait for the walks'
    /// turns otherwise), no node limit makes a turn hang on the nodes the
    /// turns before it took (the beam shares out what is left of the limit
    /// among its rollouts), and the round is long enough to be worth a
    /// thread (see [`BESIDE_FROM`]).
    fn beside(&self, rotation: &[Entrant<G>], allowances: &[u64]) -> Option<usize> {
        let at = rotation.len().checked_sub(1).filter(|&at| at > 0)?;
        let beam = &rotation[at];
        let free = self.search.helpers > 1 && self.search.max_nodes.is_none();
        let long = allowances[at] >= BESIDE_FROM;
        (free && long && matches!(beam.tactic, Tactic::Beam(_)) && !beam.shared).then_some(at)
    }

    /// Plays a round as [`Rounds::play`] does, the turn of the beam at
    /// `beam_at`, the last, beside the walks' turns, which take a thread of
    /// their own. The beam's turn counts as taken after theirs: if one of
    /// them decides, the beam's is stopped and its nodes are not counted,
    /// and its own verdict waits for theirs. A beam's turn hangs on
    /// nothing that theirs change, as no tactic leaves the rotation or
    /// gives its table to the others before the round is over, and it
    /// stops by its own nodes, not by the total. (Rows of Four deal 235 on
    /// two threads: the walks' turns took 7.3 s of 26.7, while the pool's
    /// threads, which play the beam's rollouts, waited.)
    fn play_beside(
        &mut self,
        rotation: &mut [Entrant<G>],
        tables: &mut [Table<G::Key>],
        allowances: &[u64],
        beam_at: usize,
    ) -> Option<Decided> {
        let (walks, beams) = rotation.split_at_mut(beam_at);
        let beam = &mut beams[0];
        let tactic = beam.tactic;
        let at = beam.table;
        let (below, above) = tables.split_at_mut(at);
        let (beam_table, above) = above.split_first_mut().expect("the beam's own table");
        let stop = AtomicBool::new(false);
        let start = self.search.nodes;
        let mut beside = Search {
            halt: Some(&stop),
            ..self.search
        };
        let room = beam_table.cap().max(self.search.limits.room_floor);
        let allowance = allowances[beam_at];
        // The walks go to a thread of their own: this one may be in the
        // pool the beam's rollouts are played on (a batch's), where a
        // thread that waits for them plays them too, and one that is not
        // in the pool waits until a thread of it is free.
        let (decided, end, peak) = std::thread::scope(|scope| {
            let walks = scope.spawn(|| {
                let decided = self.take_round(walks, below, above, Some(at), allowances);
                if decided.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
                decided
            });
            let end = beam.turn(&mut beside, beam_table, allowance, room);
            let decided = walks.join().expect("a walk's turn panicked");
            (decided, end, beam_table.peak())
        });
        if decided.is_some() {
            return decided;
        }
        let used = beside.nodes - start;
        self.search.nodes += used;
        self.search.told = self.search.told.map(|told| told + used);
        self.search.best = self.search.best.max(beside.best);
        self.table_peak = self.table_peak.max(peak);
        self.turns += 1;
        self.last = Some(tactic);
        self.settle(end, beams, 0)
    }

    /// Takes a turn of `entrant` with `allowance` nodes for all its turns
    /// so far, in `table`, its own, or in the crew's if it has none.
    fn turn(
        &mut self,
        entrant: &mut Entrant<G>,
        table: Option<&mut Table<G::Key>>,
        allowance: u64,
    ) -> End<notation::Move> {
        self.last = Some(entrant.tactic);
        self.turns += 1;
        let search = &mut self.search;
        match (table, self.crew) {
            (Some(table), _) => {
                let room = table.cap().max(search.limits.room_floor);
                let end = entrant.turn(search, table, allowance, room);
                self.table_peak = self.table_peak.max(table.peak());
                end
            }
            (None, Some(crew)) => {
                let room = match entrant.tactic {
                    Tactic::BestFirst => crew.table.cap(),
                    _ => crew.table.cap() / crew.walkers,
                };
                let room = room.max(search.limits.room_floor);
                let thread = self.seat.expect("a crew's thread has a seat");
                entrant.turn_shared(search, crew, thread, allowance, room)
            }
            (None, None) => unreachable!("a tactic with no table of its own is a crew's"),
        }
    }

    /// What the end of the turn of `rotation[at]` means: the verdict, if
    /// it decided; else it may leave the rotation after the round, or
    /// give its place to another tactic.
    fn settle(
        &mut self,
        end: End<notation::Move>,
        rotation: &mut [Entrant<G>],
        at: usize,
    ) -> Option<Decided> {
        let crew = self.crew;
        let entrant = &mut rotation[at];
        let tactic = entrant.tactic;
        let leaving = match end {
            End::Won(moves) => return Some((Verdict::Won, None, moves)),
            End::Stopped(stop) => return Some((Verdict::Unknown, Some(stop), Vec::new())),
            End::OutOfNodes => return None,
            End::Lost => match tactic {
                Tactic::Narrowed(level) | Tactic::Rollouts(level) => {
                    if let Some(crew) = crew {
                        crew.narrowed_ended.fetch_max(level, Ordering::Relaxed);
                    }
                    let ended = rotation.iter().map(|e| e.tactic);
                    ended.filter(|&t| narrower(level)(t)).collect()
                }
                Tactic::Full if entrant.shared => {
                    if crew.expect("a shared walk has a crew").walk_ended() {
                        return Some((Verdict::Lost, None, Vec::new()));
                    }
                    vec![Tactic::Full]
                }
                Tactic::BestFirst | Tactic::Full => {
                    return Some((Verdict::Lost, None, Vec::new()));
                }
                beam @ Tactic::Beam(_) => vec![beam],
            },
            End::Crowded => match crew.expect("a shared walk has a crew").leave() {
                Some(true) => return Some((Verdict::Lost, None, Vec::new())),
                Some(false) => vec![Tactic::Full],
                // Another walk left first: this one stays to the end.
                None => {
                    entrant.may_leave = false;
                    return None;
                }
            },
            End::OutOfRoom => match tactic {
                // The crew's best-first search stops on every thread, and
                // walks sharing its table take its place.
                Tactic::BestFirst if entrant.shared => {
                    let crew = crew.expect("a shared search has a crew");
                    let frontier = crew.frontier.as_ref().expect("the search's frontier");
                    entrant.quit(crew);
                    *entrant = Entrant::sharing(Tactic::Full, self.seat != Some(0));
                    if let Err(stop) = frontier.wait_emptied(&self.search) {
                        return Some((Verdict::Unknown, Some(stop), Vec::new()));
                    }
                    return None;
                }
                Tactic::BestFirst => {
                    *entrant = Entrant::new(Tactic::Full, entrant.table);
                    return None;
                }
                Tactic::Full if entrant.shared => {
                    // Whether or not it may leave unfinished, this walk
                    // ends for want of room: if no other proves the loss,
                    // that is why the search stops.
                    if let Some(true) = crew.expect("a shared walk has a crew").leave() {
                        return Some((Verdict::Lost, None, Vec::new()));
                    }
                    self.prover_out_of_room = true;
                    vec![Tactic::Full]
                }
                tactic => {
                    // The others go on: a narrowed walk may still win.
                    // Without the full walk no loss can be proven.
                    self.prover_out_of_room |= tactic == Tactic::Full;
                    vec![tactic]
                }
            },
        };
        for tactic in leaving {
            if !self.retiring.contains(&tactic) {
                self.retiring.push(tactic);
            }
        }
        None
    }
}

/// Takes the tactics `ended` picks out of the rotation, and shares their
/// tables among those left (see [`Purse`]).
pub(super) fn retire<G: Game>(
    rotation: &mut Vec<Entrant<G>>,
    tables: &mut [Table<G::Key>],
    purse: &mut Purse,
    crew: Option<&Crew<G>>,
    ended: impl Fn(Tactic) -> bool,
) {
    rotation.retain(|entrant| !ended(entrant.tactic));
    let kept: Vec<&Entrant<G>> = rotation.iter().collect();
    share_tables(
        &kept,
        None,
        false,
        tables.iter_mut().enumerate(),
        purse,
        crew,
    );
}
