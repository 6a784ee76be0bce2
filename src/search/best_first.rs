//! The best-first attempt: expand the most promising position found so
//! far, by the game's [`Game::score`], wherever it lies.
//!
//! A depth-first walk commits to its early moves: if one of them was wrong
//! it must search everything below before it can take it back, and in
//! Raglan that can be tens of millions of positions above a short win.
//! Best-first search goes back to an early choice as soon as it looks
//! better than where the walk got to. It keeps every expanded position,
//! so it runs out of memory where a walk would not; then a full walk
//! takes its place (see [`super::solve`]).

use std::mem::size_of;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::shared::{SharedTable, SharedView, Visit};
use super::walk::Visited;
use super::{CHECK_EVERY, Closed, End, ROOT, Search, Stop, Table};
use crate::game::{Ask, Game};
use crate::notation;

/// A position waiting to be expanded, with the move that reached it from
/// an expanded one. The position is kept whole, though a few bytes would
/// name it by that move: working it out again from its parent, read
/// wherever that lies among the expanded positions, was slower.
#[derive(Clone, Copy)]
struct Open<S, M> {
    state: S,
    parent: u32,
    mv: M,
}

/// The positions waiting to be expanded, by score: one queue per score,
/// highest first and, within a score, oldest first (newest first, which
/// follows a line as a depth-first walk would, expanded more positions).
/// Scores fall in a narrow range, so a queue per score makes taking and
/// adding O(1), where a binary heap costs a logarithm.
///
/// The queues are chains through one store of items, whose freed places
/// are taken again first: one block that grows by doubling, which the
/// allocator backs with huge pages once it is large, where a `VecDeque`
/// per score grew hundreds of small blocks, each copied at every growth
/// and faulted in 4 KiB at a time.
struct Queue<T> {
    /// The score of `ends[0]`.
    lowest: i32,
    /// Each score's first and last item in `items`, or [`NONE`].
    ends: Vec<(u32, u32)>,
    /// No queue above this one holds anything.
    top: usize,
    items: Vec<Linked<T>>,
    /// The first of the places taken from, chained through `next`.
    free: u32,
}

/// An item in its score's queue, or a free place.
#[derive(Clone, Copy)]
struct Linked<T> {
    item: T,
    next: u32,
}

/// The end of a chain.
const NONE: u32 = u32::MAX;

impl<T: Copy> Queue<T> {
    fn new() -> Queue<T> {
        Queue {
            lowest: 0,
            ends: Vec::new(),
            top: 0,
            items: Vec::new(),
            free: NONE,
        }
    }

    fn push(&mut self, score: i32, item: T) {
        if self.ends.is_empty() {
            self.lowest = score;
        }
        if score < self.lowest {
            let below = (self.lowest - score) as usize;
            self.ends
                .splice(0..0, std::iter::repeat_n((NONE, NONE), below));
            self.lowest = score;
            self.top += below;
        }
        let at = (score - self.lowest) as usize;
        if at >= self.ends.len() {
            self.ends.resize(at + 1, (NONE, NONE));
        }
        let linked = Linked { item, next: NONE };
        let place = match self.free {
            NONE => {
                self.items.push(linked);
                (self.items.len() - 1) as u32
            }
            place => {
                self.free = self.items[place as usize].next;
                self.items[place as usize] = linked;
                place
            }
        };
        let ends = &mut self.ends[at];
        match ends.1 {
            NONE => ends.0 = place,
            last => self.items[last as usize].next = place,
        }
        ends.1 = place;
        self.top = self.top.max(at);
    }

    fn pop(&mut self) -> Option<T> {
        self.pop_scored().map(|(_, item)| item)
    }

    /// The next item, with its score.
    fn pop_scored(&mut self) -> Option<(i32, T)> {
        loop {
            let ends = self.ends.get_mut(self.top)?;
            if ends.0 != NONE {
                let place = ends.0;
                let Linked { item, next } = self.items[place as usize];
                ends.0 = next;
                if next == NONE {
                    ends.1 = NONE;
                }
                self.items[place as usize].next = self.free;
                self.free = place;
                return Some((self.lowest + self.top as i32, item));
            }
            self.top = self.top.checked_sub(1)?;
        }
    }

    fn bytes(&self) -> usize {
        self.ends.capacity() * size_of::<(u32, u32)>()
            + self.items.capacity() * size_of::<Linked<T>>()
    }
}

/// A best-first attempt, kept between the turns of its tactic, as a walk
/// is: a turn that runs out of nodes leaves its queue for the next.
///
/// It is led by [`Game::score`] and makes every move. Every position
/// reached is recorded in the table when first generated and queued then,
/// so each is queued once, unless the table forgets it and it is met
/// again. If the queue runs dry, the deal is lost, as in the walk, even if
/// the table forgot positions: every child of an expanded position was either queued
/// then, or found in the table, so queued before; and all that was queued
/// was expanded. So the expanded positions hold every child of each, and
/// with the start, every position reachable. (So the attempt need not ask
/// that the table forgot nothing, which would throw away the proof of a
/// deal whose table, half full, had one window of slots overflow.) The
/// queue and the expanded positions may take `room` bytes; past that the
/// attempt gives up.
pub(super) struct BestFirst<G: Game> {
    closed: Vec<Closed<G::Move>>,
    open: Queue<Open<G::State, G::Move>>,
    /// The position to expand next, with its parent and the move from it:
    /// kept here, not expanded, when the turn ran out of nodes first.
    pending: Option<(G::State, u32, Option<G::Move>)>,
    moves: Vec<G::Move>,
    /// Each child with its key and the key's hash.
    children: Vec<(G::State, G::Key, u64)>,
    pub(super) room: usize,
}

impl<G: Game> BestFirst<G> {
    /// An attempt from `root`, already recorded in the table.
    pub(super) fn new(root: G::State, room: usize) -> BestFirst<G> {
        BestFirst {
            closed: Vec::new(),
            open: Queue::new(),
            pending: Some((root, ROOT, None)),
            moves: Vec::new(),
            children: Vec::new(),
            room,
        }
    }

    /// Expands on until a win, the end of the reachable positions, or the
    /// end of the turn's nodes.
    pub(super) fn resume(
        &mut self,
        search: &mut Search<G>,
        table: &mut Table<G::Key>,
    ) -> End<notation::Move> {
        let game = search.game;
        loop {
            let (state, parent, mv) = match self.pending {
                Some(next) => next,
                None => match self.open.pop() {
                    Some(Open { state, parent, mv }) => (state, parent, Some(mv)),
                    None => return End::Lost,
                },
            };
            if let Err(end) = search.count_node() {
                self.pending = Some((state, parent, mv));
                return end;
            }
            self.pending = None;
            // Every so many expansions of this attempt, as its bytes grow
            // with them.
            let expanded = self.closed.len() as u64;
            if expanded.is_multiple_of(CHECK_EVERY) && self.bytes() > self.room {
                return End::OutOfRoom;
            }
            search.best = search.best.max(game.cards_home(&state));
            let id = self.closed.len() as u32;
            self.closed.push(Closed { parent, mv });
            if game.is_dead_end(&state) {
                continue;
            }
            let (moves, children) = (&mut self.moves, &mut self.children);
            if let Some(mv) = expand(search, &state, mv, table, moves, children) {
                return End::Won(super::line(game, &self.closed, id, mv, &[]));
            }
            for (&mv, &(state, key, hash)) in self.moves.iter().zip(&self.children) {
                if table.insert_hashed(key, hash) {
                    let parent = id;
                    self.open
                        .push(game.score(&state), Open { state, parent, mv });
                }
            }
        }
    }

    /// Bytes the expanded and queued positions take, room to grow included.
    fn bytes(&self) -> usize {
        self.closed.capacity() * size_of::<Closed<G::Move>>() + self.open.bytes()
    }
}

/// Puts every move from `state` (reached by `last`) in `moves`, and in
/// `children` the positions they lead to with their keys and the keys'
/// hashes; gives a move that wins at once, if there is one. Each child's
/// key is worked out first, its table slot fetched meanwhile, so that the
/// cache misses of the lookups that follow overlap rather than come one by
/// one.
fn expand<G: Game>(
    search: &mut Search<G>,
    state: &G::State,
    last: Option<G::Move>,
    table: &impl Visited<G::Key>,
    moves: &mut Vec<G::Move>,
    children: &mut Vec<(G::State, G::Key, u64)>,
) -> Option<G::Move> {
    let game = search.game;
    moves.clear();
    let ask = Ask {
        narrowing: 0,
        ordered: false,
    };
    game.moves(state, last, ask, moves);
    children.clear();
    for &mv in moves.iter() {
        let child = game.play(state, mv);
        if game.is_won(&child) {
            search.best = game.cards_home(&child);
            return Some(mv);
        }
        let key = game.key(&child);
        children.push((child, key, table.prefetch(key)));
    }
    None
}

/// How many positions a thread of a shared best-first search takes from
/// the queue at a time. Each take locks the queue; more would expand
/// positions further from the best ones now known.
const LOT: usize = 16;

/// A position in the queue of a shared best-first search: the start, with
/// no move, is queued like the others.
type Queued<G> = Open<<G as Game>::State, Option<<G as Game>::Move>>;

/// The positions one thread expanded, in order.
type Expanded<G> = Vec<Closed<<G as Game>::Move>>;

/// The best-first search that the threads searching one deal share (see
/// [`super::solve_parallel`]): one queue, one table of the positions
/// queued (the workers' shared table, which says which thread first met a
/// position), and each thread's list of the positions it expanded.
///
/// Each thread takes a lot of the best positions from the queue, expands
/// them, and queues the children that the table had not seen, all
/// together when it takes its next lot; it is busy from one take to the
/// next. The deal is lost when the queue is empty and no thread is busy,
/// for the reason a search on one thread is lost when its queue runs dry:
/// each child of an expanded position was either queued by the thread
/// that expanded it, or met in the table, which holds only positions some
/// thread queued; a position queued is expanded, or is in the lot or
/// among the children of a busy thread. So with none busy and the queue
/// empty, the expanded positions hold the start and every child of each.
/// A position the table forgets, or never stores because another thread
/// held its slot, is only queued again.
///
/// Once the queue and the lists outgrow their room, the search stops on
/// every thread, and full walks take its place, as on one thread; they
/// share the same table, emptied once every thread has left the search
/// (see [`Frontier::leave`]).
pub(super) struct Frontier<G: Game> {
    front: Mutex<Front<G>>,
    /// Each thread's expanded positions, in the order it expanded them
    /// (see [`Frontier::id`]): read only to rebuild a winning line.
    closed: Box<[Mutex<Expanded<G>>]>,
    /// Bytes the lists in `closed` take, room to grow included.
    closed_bytes: AtomicUsize,
    /// Set once the search is full, every member has left it and the
    /// table is empty.
    emptied: AtomicBool,
}

/// The part of a [`Frontier`] that changes at each take.
struct Front<G: Game> {
    open: Queue<Queued<G>>,
    /// Threads between two takes, whose children are not yet queued.
    busy: usize,
    /// Set once the queue ran dry with no thread busy.
    lost: bool,
    /// Set once the queue and the lists of expanded positions outgrew the
    /// room of the search: it stops on every thread.
    full: bool,
    /// Threads in the search: that took a lot, or tried to, before it was
    /// full, and have not left.
    members: usize,
}

impl<G: Game> Frontier<G> {
    /// A search from `root` on `threads` threads; the caller records the
    /// root in the shared table.
    pub(super) fn new(game: &G, root: G::State, threads: usize) -> Frontier<G> {
        let mut open = Queue::new();
        let start = Open {
            state: root,
            parent: ROOT,
            mv: None,
        };
        open.push(game.score(&root), start);
        Frontier {
            front: Mutex::new(Front {
                open,
                busy: 0,
                lost: false,
                full: false,
                members: 0,
            }),
            closed: (0..threads).map(|_| Mutex::new(Vec::new())).collect(),
            closed_bytes: AtomicUsize::new(0),
            emptied: AtomicBool::new(false),
        }
    }

    /// Counts a member thread that left the search, once it was full or
    /// as the thread stopped (it holds nothing of it then). If the search
    /// is full, the last to leave gives back the search's memory and
    /// empties `table` for the walks that take the search's place (see
    /// [`Frontier::wait_emptied`]); a thread that comes to the search
    /// after that finds it full, and never joins.
    fn leave(&self, table: &SharedTable<G::Key>) {
        let mut front = self.front();
        front.members -= 1;
        if front.members == 0 && front.full {
            front.open = Queue::new();
            // Let go of the queue before the table: a thread that holds a
            // view of the table may be waiting for the queue, to find the
            // search full and leave the table.
            drop(front);
            for closed in &self.closed {
                *closed.lock().expect("no thread panics holding it") = Vec::new();
            }
            table.forget_all();
            self.emptied.store(true, Ordering::Release);
        }
    }

    /// Waits, once this thread is out of the full search, until every
    /// member has left and the table is empty for the walks that take its
    /// place; or until the search must stop. The members come to it at
    /// their next turn at the search, or as they stop.
    pub(super) fn wait_emptied(&self, search: &Search<G>) -> Result<(), Stop> {
        while !self.emptied.load(Ordering::Acquire) {
            search.check()?;
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        Ok(())
    }

    /// The id of the `index`-th position `thread` expanded, as a parent
    /// is named in the queue; `None` past what a `u32` can name.
    fn id(&self, thread: usize, index: usize) -> Option<u32> {
        let id = index.checked_mul(self.closed.len())?.checked_add(thread)?;
        u32::try_from(id).ok().filter(|&id| id != ROOT)
    }

    fn front(&self) -> std::sync::MutexGuard<'_, Front<G>> {
        self.front
            .lock()
            .expect("no thread panics holding the queue")
    }

    /// The moves from the start to the position `at`, then `last`.
    fn line(&self, game: &G, at: u32, last: G::Move) -> Vec<notation::Move> {
        let threads = self.closed.len();
        let step = |id: u32| {
            let (thread, index) = (id as usize % threads, id as usize / threads);
            let closed = self.closed[thread]
                .lock()
                .expect("no thread panics holding it");
            let Closed { parent, mv } = closed[index];
            (parent, mv)
        };
        super::line_through(game, step, at, last, &[])
    }
}

/// One thread's part in a [`Frontier`], kept between the turns of its
/// tactic.
pub(super) struct SharedBestFirst<G: Game> {
    thread: usize,
    /// The lot taken from the queue, best first, with the scores they were
    /// queued at; `lot[next..]` not yet expanded.
    lot: Vec<(i32, Queued<G>)>,
    next: usize,
    /// Children to queue at the next take.
    outbox: Vec<(i32, Queued<G>)>,
    /// Positions expanded since the last take, not yet in this thread's
    /// list; `kept` are.
    recorded: Vec<Closed<G::Move>>,
    kept: usize,
    busy: bool,
    /// Whether this thread is a member of the search (see [`Front::members`]).
    member: bool,
    moves: Vec<G::Move>,
    children: Vec<(G::State, G::Key, u64)>,
    pub(super) room: usize,
}

impl<G: Game> SharedBestFirst<G> {
    pub(super) fn new(thread: usize, room: usize) -> SharedBestFirst<G> {
        SharedBestFirst {
            thread,
            lot: Vec::new(),
            next: 0,
            outbox: Vec::new(),
            recorded: Vec::new(),
            kept: 0,
            busy: false,
            member: false,
            moves: Vec::new(),
            children: Vec::new(),
            room,
        }
    }

    /// Expands on until a win, the end of the reachable positions, or the
    /// end of the turn's nodes, as [`BestFirst::resume`] does.
    pub(super) fn resume(
        &mut self,
        search: &mut Search<G>,
        frontier: &Frontier<G>,
        table: &mut SharedView<G::Key>,
    ) -> End<notation::Move> {
        let game = search.game;
        loop {
            if self.next == self.lot.len()
                && let Some(end) = self.take(search, frontier, table)
            {
                return end;
            }
            if let Err(end) = search.count_node() {
                self.give_back(frontier);
                return end;
            }
            let (_, Open { state, parent, mv }) = self.lot[self.next];
            self.next += 1;
            search.best = search.best.max(game.cards_home(&state));
            let Some(id) = frontier.id(self.thread, self.kept + self.recorded.len()) else {
                frontier.front().full = true;
                self.give_back(frontier);
                return End::OutOfRoom;
            };
            self.recorded.push(Closed { parent, mv });
            if game.is_dead_end(&state) {
                continue;
            }
            let (moves, children) = (&mut self.moves, &mut self.children);
            if let Some(mv) = expand(search, &state, mv, table, moves, children) {
                self.flush(frontier);
                return End::Won(frontier.line(game, id, mv));
            }
            for (&mv, &(child, key, hash)) in self.moves.iter().zip(&self.children) {
                if table.visit(key, hash) == Visit::Fresh {
                    let open = Open {
                        state: child,
                        parent: id,
                        mv: Some(mv),
                    };
                    self.outbox.push((game.score(&child), open));
                }
            }
        }
    }

    /// Queues the children of the last lot and takes the next one; waits
    /// while the queue is empty and other threads are busy. `None` once
    /// there is a lot to expand.
    fn take(
        &mut self,
        search: &Search<G>,
        frontier: &Frontier<G>,
        table: &mut SharedView<G::Key>,
    ) -> Option<End<notation::Move>> {
        self.flush(frontier);
        loop {
            let mut front = frontier.front();
            self.queue(&mut front);
            if front.full {
                return Some(End::OutOfRoom);
            }
            if !self.member {
                front.members += 1;
                self.member = true;
            }
            let used = front.open.bytes() + frontier.closed_bytes.load(Ordering::Relaxed);
            if used > self.room {
                front.full = true;
                return Some(End::OutOfRoom);
            }
            self.lot.clear();
            self.next = 0;
            let left = search.turn_end.saturating_sub(search.nodes);
            let want = (LOT as u64).min(left).max(1) as usize;
            while self.lot.len() < want
                && let Some(item) = front.open.pop_scored()
            {
                self.lot.push(item);
            }
            if !self.lot.is_empty() {
                front.busy += 1;
                self.busy = true;
                return None;
            }
            front.lost |= front.busy == 0;
            if front.lost {
                return Some(End::Lost);
            }
            drop(front);
            // Another thread's children are still to come; it may be
            // waiting for this one to let go of the table, to grow it.
            if let Err(stop) = search.check() {
                return Some(End::Stopped(stop));
            }
            table.wait();
            std::thread::yield_now();
        }
    }

    /// Leaves the search, if this thread is a member (see
    /// [`Frontier::leave`]): as it stops, or once the search is full.
    pub(super) fn quit(&mut self, frontier: &Frontier<G>, table: &SharedTable<G::Key>) {
        if std::mem::take(&mut self.member) {
            frontier.leave(table);
        }
    }

    /// Puts back what this thread holds, for the others to go on with.
    fn give_back(&mut self, frontier: &Frontier<G>) {
        self.flush(frontier);
        let mut front = frontier.front();
        for &(score, open) in &self.lot[self.next..] {
            front.open.push(score, open);
        }
        self.lot.clear();
        self.next = 0;
        self.queue(&mut front);
    }

    /// Queues the children waiting in the outbox; this thread is no longer
    /// busy.
    fn queue(&mut self, front: &mut Front<G>) {
        for (score, open) in self.outbox.drain(..) {
            front.open.push(score, open);
        }
        if std::mem::take(&mut self.busy) {
            front.busy -= 1;
        }
    }

    /// Adds the positions expanded since the last take to this thread's
    /// list, before any child of theirs is queued, so that another thread
    /// can rebuild a line through them.
    fn flush(&mut self, frontier: &Frontier<G>) {
        if self.recorded.is_empty() {
            return;
        }
        let mut closed = frontier.closed[self.thread]
            .lock()
            .expect("no thread panics holding it");
        let before = closed.capacity();
        closed.append(&mut self.recorded);
        self.kept = closed.len();
        let grown = (closed.capacity() - before) * size_of::<Closed<G::Move>>();
        frontier.closed_bytes.fetch_add(grown, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::Queue;

    /// Highest score first, oldest first within a score, whether a score
    /// comes in above, below or between those queued before.
    #[test]
    fn the_queue_gives_the_highest_score_first_and_the_oldest_within_it() {
        let mut queue = Queue::new();
        let pushed = [(5, 'a'), (2, 'b'), (5, 'c'), (-3, 'd'), (9, 'e'), (2, 'f')];
        for (score, item) in pushed {
            queue.push(score, item);
        }
        let mut popped = Vec::new();
        while let Some(item) = queue.pop() {
            popped.push(item);
            if item == 'a' {
                queue.push(7, 'g');
                queue.push(-10, 'h');
            }
        }
        assert_eq!(popped, ['e', 'a', 'g', 'c', 'b', 'f', 'd', 'h']);
    }
}
