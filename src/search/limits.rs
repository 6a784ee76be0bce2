//! What a caller gives a search and gets back.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use serde::Serialize;

use super::Tactic;
use super::walk::MAX_HORIZON;
use crate::notation;

/// What may stop a search before it ends.
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_nodes: Option<u64>,
    pub timeout: Option<Duration>,
    /// The tables' cap in bytes; the attempts may take as much again
    /// besides, or `room_floor` each (see the room in [`super`]).
    pub memory: usize,
    /// The least room an attempt has besides its table, whatever its share
    /// of `memory`: a small table should make a search forget positions,
    /// not stop it after a few dozen moves. 64 MiB by default; tests lower
    /// it to drive a search past its room on a small deal.
    pub room_floor: usize,
    /// Set from outside (Ctrl-C) to stop the search.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Where the search tells how far it got, every
    /// [`CHECK_EVERY`](super::CHECK_EVERY) nodes or so, for a display on
    /// another thread.
    pub progress: Option<Arc<Progress>>,
}

/// How far a running search got: its nodes (over all threads, up to the
/// last few thousand) and the most cards it got home. Read while the
/// search runs, from another thread.
#[derive(Debug, Default)]
pub struct Progress {
    nodes: AtomicU64,
    best: AtomicU32,
}

impl Progress {
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    pub fn best(&self) -> u32 {
        self.best.load(Ordering::Relaxed)
    }

    /// Adds `nodes` more, and raises the most cards home to `best`.
    pub(super) fn add(&self, nodes: u64, best: u32) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        self.best.fetch_max(best, Ordering::Relaxed);
    }
}

/// The library's default table cap: room for tens of millions of
/// positions, well within a 24 GiB machine even with one table per core.
/// (The command line's default follows the machine's memory.)
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// The default [`Limits::room_floor`].
pub const DEFAULT_ROOM_FLOOR: usize = 64 << 20;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_nodes: None,
            timeout: None,
            memory: DEFAULT_MEMORY,
            room_floor: DEFAULT_ROOM_FLOOR,
            cancel: None,
            progress: None,
        }
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// A win was found; the report holds its moves.
    Won,
    /// Every reachable position was searched: no win exists.
    Lost,
    /// A limit stopped the search first.
    Unknown,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Won => "won",
            Verdict::Lost => "lost",
            Verdict::Unknown => "unknown",
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which limit made a verdict `unknown`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stop {
    MaxNodes,
    Timeout,
    /// The full walk's path outgrew its room, and no other tactic won (see
    /// [`solve`](super::solve)).
    Memory,
    Interrupted,
    /// A narrowed walk or a beam searched alone
    /// ([`solve_alone`](super::solve_alone)) ended without a win, which
    /// proves nothing.
    Narrowed,
    /// The relaxed walk searched alone won the relaxation and has no
    /// refinement of it to walk: it proves nothing (see
    /// [`super::Tactic::Relaxed`]).
    Relaxed,
}

/// The result of one search.
#[derive(Clone, Debug)]
pub struct Report {
    pub verdict: Verdict,
    /// Set when the verdict is `unknown`.
    pub stop: Option<Stop>,
    /// The winning moves, when won.
    pub moves: Vec<notation::Move>,
    /// Positions expanded, the start included, in all attempts; at most
    /// `--max-nodes`.
    pub nodes: u64,
    /// Turns taken at the search's tactics (see [`solve`](super::solve)).
    pub turns: u32,
    /// Most positions the table held at once, in any attempt.
    pub table_peak: usize,
    /// Bytes the table's slots took at the end.
    pub table_bytes: usize,
    /// Most cards home at the end of a line of play the search found: on a
    /// lost deal of a game that finds its longest line (see
    /// [`crate::games::GameKind::longest_line`]), the most any line gets;
    /// otherwise the most in a position the search reached, which the
    /// pruning (dead ends, moves left out) may leave short of that.
    pub best: u32,
    /// On a lost deal, a line that gets `best` cards home, when the game
    /// finds its longest line; empty otherwise.
    pub longest_line: Vec<notation::Move>,
    pub elapsed: Duration,
    /// The tactic that won or proved the loss. A Raglan loss proven by
    /// `full` tells that best-first search outgrew its memory and walks
    /// took its place.
    pub decided_by: Option<Tactic>,
}

impl std::str::FromStr for Tactic {
    type Err = String;

    fn from_str(text: &str) -> Result<Tactic, String> {
        let level_of = |level: &str| match level.parse() {
            Ok(level) if level > 0 => Ok(level),
            _ => Err(format!("`{level}` is not a narrowing level (1 or more)")),
        };
        match text {
            "best-first" => Ok(Tactic::BestFirst),
            "full" => Ok(Tactic::Full),
            "relaxed" => Ok(Tactic::Relaxed),
            _ => {
                let (kind, level) = text.rsplit_once('-').unwrap_or((text, ""));
                let tactic = match kind {
                    "narrowed" => Tactic::Narrowed,
                    "beam" => Tactic::Beam,
                    "horizon" => {
                        return match level.parse() {
                            Ok(moves) if (1..=MAX_HORIZON).contains(&moves) => {
                                Ok(Tactic::Horizon(moves))
                            }
                            _ => Err(format!(
                                "`{level}` is not a horizon (1 to {MAX_HORIZON} moves)"
                            )),
                        };
                    }
                    _ => {
                        return Err(format!(
                            "`{text}` is not a tactic: best-first, full, relaxed, \
                             narrowed-N, horizon-N or beam-N"
                        ));
                    }
                };
                level_of(level).map(tactic)
            }
        }
    }
}

impl std::fmt::Display for Tactic {
    /// The name `--tactic` takes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tactic::BestFirst => write!(f, "best-first"),
            Tactic::Full => write!(f, "full"),
            Tactic::Narrowed(level) => write!(f, "narrowed-{level}"),
            Tactic::Horizon(moves) => write!(f, "horizon-{moves}"),
            Tactic::Beam(level) => write!(f, "beam-{level}"),
            Tactic::Relaxed => write!(f, "relaxed"),
        }
    }
}
