//! Speed of every game: the quick bench sets of `patience bench`, and the
//! calls the search makes for every position it expands.
//!
//! The quick sets are the same deals and caps as `patience bench --quick`
//! (`patience::bench`, version in the benchmark's name), so the two
//! measure the same searches; the full sets take a minute per game, too
//! long to sample. The hot paths split a search's time into the engine's
//! share (moves, play, keys) and the table's (insert, lookup), so a change
//! in a set's time can be traced to its part.
//!
//! `cargo bench --bench games` took 1 min 9 s on two cores, under load
//! and building included; `-- --quick` gives rough figures in 25 s.

use std::collections::{HashSet, VecDeque};
use std::hint::black_box;
use std::time::Duration;

use clap::ValueEnum;
use criterion::measurement::WallTime;
use criterion::{
    BenchmarkGroup, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use patience::bench::{self, Set, Size};
use patience::board::Board;
use patience::game::{Ask, Game};
use patience::games::{DealNumber, GameKind};
use patience::search::Table;
use patience::with_game;

/// A deal of each game, for the table benchmarks: the keys are those of
/// the positions nearest its start. The mid-game positions below come from
/// these deals.
fn deal(game: GameKind) -> DealNumber {
    match game {
        GameKind::AllInARow => DealNumber::Pysol(28),
        GameKind::Raglan => DealNumber::Numbered(3),
        GameKind::Lanes => DealNumber::Numbered(1),
        GameKind::RowsOfFour => DealNumber::Numbered(6),
        GameKind::Alexandria => DealNumber::Numbered(8),
    }
}

/// A mid-game position of each game's [`deal`], for the hot paths: written
/// out rather than played to, so that it stays the same whatever order the
/// engine tries moves in. (From it, All in a Row reaches too few positions
/// to fill a table, hence the deal's start for those.)
///
/// All in a Row: PySolFC game 28 after the first 19 moves of a win, with
/// three moves open (3S, AD and 3H onto the 2S). The others: numbered
/// deals part way along the win `patience solve` found at commit 4d7e3a4,
/// with several moves open: Raglan deal 3 after 34 of 106 moves, Lanes
/// deal 1 after 44 of 134, Rows of Four deal 6 after 118 of 295,
/// Alexandria deal 8 after 118 of 359.
fn mid_game(game: GameKind) -> &'static str {
    match game {
        GameKind::AllInARow => {
            "\
Foundations: 2S
: 7H 8D 5C 6D
: JS 6H 3C 6C
: 4S 7D
: 7C 8C 3S
: KD QC 4H
: 9S AD
: 9C TC 9D
: 5H AH 2C 3H
: 8S KH
: QD 2H TH
: JH 4D
: 5S
:
"
        }
        GameKind::Raglan => {
            "\
Foundations: 7H AD 3C 3S
Reserve: KH - QS 4D 5C -
: 8C 4S JD 5D 9D JS KC QD
: 8D 6S 5S 2D JH TC
: TS QC 7C
: KD KS QH JC
: 7S 6D
: 9C
: TD 6C TH 9S 8H
: 9H 8S 7D
: 4C 3D
"
        }
        GameKind::Lanes => {
            "\
Foundations: 3H 3S 2C 6D
Stock: KH 7C 9D 8H JC 4H 5C 8D
Waste: 4S 7S 3C 6S 9S QS 6H TH 5S 4C JD KS
: KC QH
:
:
: 8C QD KD QC JH TS
: 7D TC JS TD 9C
: 9H 8S 7H 6C 5H
"
        }
        GameKind::RowsOfFour => {
            "\
Foundations: 2D 4H TC 5C 3S AS 2H -
Stock: 3S QD KC 8S 3D 9H 7S 5H 3H JS 7D 4S JC 6C 3D 8C KD 6H JS 5S
Waste: TS 5S 8S TS 8D KD 5D TD 7H QH QC 9S QD 9D JD TH KS 2S 2D 4H 7S JD QS AD
:
: QS 6S 5D
: 9D 6D KH JC TC
: KH QC JH TD 9S 8H
: 8H 7D 6H
: 7H 9H KS QH JH TH 9C 8D 7C 6S
: 4D
: 4S KC 6D 5H 4D
"
        }
        GameKind::Alexandria => {
            "\
Foundations: AH 4C 3D AH 4S 3D - - - - - -
Stock: 5C 9S QC AS 7S 2H 8S 5D 7C 5C TC 6D 4D 5C AD 7H 2H AH AC 5D 3C 5H 2H 9D KC 5H 5S 8C 5H TC 7D QC QH 3H 2C 8D 3S QH 7H JC AS 4H 7C 3D KS JD TS 8H QD JC QC
Waste: TD 9H KD 7S 8H 7H 4D JC KC KS KD JH 6D JD 6H 6C 9S 6S 8D TD TH 2D
: KH QS JD TS 9D
: KH
: KH | 9D 8S
: KS QD JS TH 9C 8H
: 4S 8C QS 7D | 7S 6H 5S 4H 3C
: TS 6H | QD
: 9C 8S 4D 4S | 9H
: 9S TD 6S | 6S 5D 4C 3H 2C
: AC 2S | JH
: JS KC | 6C
: KD QS JH TC 9H 8C 7D 6C
: QH JS TH 9C 8D 7C 6D 5S 4H 3S
: 4C 3H 2S
"
        }
    }
}

/// Keys for the table benchmarks, of positions a search meets: many keys
/// of similar positions, not random words the hash would find easier or
/// harder. Every game's [`deal`] reaches this many.
const TABLE_KEYS: usize = 100_000;

fn benches(c: &mut Criterion) {
    for &game in GameKind::value_variants() {
        let mut group = c.benchmark_group(game.name());
        bench_set(&mut group, game);
        with_game!(game, G => {
            let board = Board::parse(mid_game(game)).expect("a mid-game board");
            let mid_game = G::new(&board).expect("a position of its game");
            hot_paths(&mut group, &mid_game);
            let board = game.deal(deal(game)).expect("a deal of its game");
            let start = G::new(&board).expect("a dealt board is a valid position");
            table(&mut group, &start);
        });
        group.finish();
    }
}

/// The game's quick bench set, deal after deal on one thread, each with
/// fresh tables as `patience bench` solves it.
///
/// A run takes a tenth of a second or more, so as in `benches/solve.rs`
/// each benchmark makes ten samples of one run each, after a single
/// warm-up run; criterion warns that ten samples do not fit in the short
/// measurement time, which is expected.
fn bench_set(group: &mut BenchmarkGroup<'_, WallTime>, game: GameKind) {
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(1));
    let set = Set::of(game, Size::Quick);
    let id = format!(
        "bench-{}-quick-{}..{}",
        bench::VERSION,
        set.deals.start(),
        set.deals.end()
    );
    group.bench_function(id, |b| {
        b.iter(|| {
            set.deals.clone().fold(0, |nodes, n| {
                nodes + set.solve(n).expect("a bench deal solves").nodes
            })
        })
    });
}

/// The engine calls the search makes for every position it expands, timed
/// alone: generating the moves and playing each, and the table key.
fn hot_paths<G: Game>(group: &mut BenchmarkGroup<'_, WallTime>, game: &G) {
    group
        .sampling_mode(SamplingMode::Auto)
        .sample_size(100)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1));
    let state = game.initial();

    let mut moves = Vec::new();
    group.bench_function("moves+play", |b| {
        b.iter(|| {
            let state = black_box(&state);
            moves.clear();
            game.moves(state, None, Ask::FULL, &mut moves);
            for &mv in &moves {
                black_box(game.play(state, mv));
            }
        })
    });

    group.bench_function("key", |b| b.iter(|| game.key(black_box(&state))));
}

/// The table's two operations on the keys of the positions nearest the
/// deal's start: inserting them all into a new table, which grows as in a
/// search, and looking up every one in a table holding half of them, as
/// many lookups miss.
fn table<G: Game>(group: &mut BenchmarkGroup<'_, WallTime>, game: &G) {
    let keys = nearest_keys(game, TABLE_KEYS);
    assert_eq!(keys.len(), TABLE_KEYS, "the deal has fewer positions");
    // A pass over the keys takes milliseconds: twenty samples of one pass
    // or a few each, not a hundred, keep the whole within a few minutes.
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1))
        .throughput(Throughput::Elements(keys.len() as u64));

    group.bench_function("table-insert", |b| {
        b.iter(|| {
            let mut table = Table::new(bench::MEMORY);
            for &key in &keys {
                table.insert(key);
            }
            table.peak()
        })
    });

    let mut half = Table::new(bench::MEMORY);
    for &key in keys.iter().step_by(2) {
        half.insert(key);
    }
    group.bench_function("table-lookup", |b| {
        b.iter(|| keys.iter().filter(|&&key| half.contains(key)).count())
    });
}

/// The keys of up to `count` positions reached from the game's start,
/// breadth first.
fn nearest_keys<G: Game>(game: &G, count: usize) -> Vec<G::Key> {
    let start = game.initial();
    let mut seen = HashSet::from([game.key(&start)]);
    let mut keys = vec![game.key(&start)];
    let mut queue = VecDeque::from([start]);
    let mut moves = Vec::new();
    while let Some(state) = queue.pop_front() {
        moves.clear();
        game.moves(&state, None, Ask::FULL, &mut moves);
        for &mv in &moves {
            let next = game.play(&state, mv);
            let key = game.key(&next);
            if seen.insert(key) {
                keys.push(key);
                if keys.len() == count {
                    return keys;
                }
                queue.push_back(next);
            }
        }
    }
    keys
}

criterion_group! {
    name = game_benches;
    // Drawing the plots took three of the four minutes of a whole run
    // (3 min 55 s with them, 1 min without, under load); criterion's
    // figures and comparisons with the last run stay.
    config = Criterion::default().without_plots();
    targets = benches
}
criterion_main!(game_benches);
