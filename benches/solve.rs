//! Speed of the All in a Row solver on fixed PySolFC deals.
//!
//! Whole solves measure what a user waits for; the hot paths split that
//! into the engine's share (moves, play, keys), so a change in a solve's
//! time can be traced to the engine or to the search around it. Every
//! deal is named by its PySolFC game number, so figures from different
//! commits compare like with like.
//!
//! `cargo bench --bench solve` takes about two minutes on two cores;
//! `-- --quick` gives rough figures in well under a minute.

use std::hint::black_box;
use std::ops::RangeInclusive;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, criterion_group, criterion_main};
use patience::board::Board;
use patience::game::{Ask, Game};
use patience::games::GameKind;
use patience::games::all_in_a_row::AllInARow;
use patience::search::{Limits, Tables, Verdict, solve};

/// PySolFC games solved one after another, as one batch worker solves
/// its share: a mix of quick wins and lost deals that take longer to
/// prove, timed as a whole.
const BATCH: RangeInclusive<u64> = 1..=100;

/// PySolFC games whose searches were among black-hole-solver's largest on
/// games 1..=10000 (by positions expanded, 3380 is first, 509 third and
/// 463 sixth). All three are lost, so they are searched to the end: the
/// worst case for time and table size.
const HARD: [u64; 3] = [463, 509, 3380];

/// A position for the hot paths: PySolFC game 28 after the first 19 moves
/// of a win. Written out rather than played to, so that it stays the same
/// whatever order the engine tries moves in. Three moves are open: 3S, AD
/// and 3H onto the 2S.
const MID_GAME: &str = "\
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
";

fn pysol_engine(n: u64) -> AllInARow {
    let board = GameKind::AllInARow
        .pysol_deal(n)
        .expect("a PySolFC game number");
    AllInARow::new(&board).expect("a dealt board is a valid position")
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("all-in-a-row");
    solves(&mut group);
    hot_paths(&mut group);
    group.finish();
}

/// Whole solves with default limits, one table reused throughout as a
/// batch worker reuses its own.
///
/// A solve here takes from tenths of a second to seconds, so each
/// benchmark makes ten samples of one solve each, after a single warm-up
/// solve: the fewest criterion allows. The short measurement time is what
/// keeps it at one solve a sample on any machine; criterion warns that ten
/// samples do not fit in it, which is expected.
fn solves(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(1));
    let limits = Limits::default();
    let mut table = Tables::new(limits.memory);

    let batch: Vec<AllInARow> = BATCH.map(pysol_engine).collect();
    let id = format!("pysol-{}..{}", BATCH.start(), BATCH.end());
    group.bench_function(id, |b| {
        b.iter(|| {
            batch
                .iter()
                .filter(|game| solve(*game, &limits, &mut table).verdict == Verdict::Won)
                .count()
        })
    });

    for n in HARD {
        let game = pysol_engine(n);
        group.bench_function(format!("pysol-{n}"), |b| {
            b.iter(|| solve(&game, &limits, &mut table).verdict)
        });
    }
}

/// The engine calls the search makes for every position it expands, timed
/// alone: generating the moves and playing each, and the table key.
fn hot_paths(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .sampling_mode(SamplingMode::Auto)
        .sample_size(100)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    let board = Board::parse(MID_GAME).expect("MID_GAME is a board");
    let game = AllInARow::new(&board).expect("MID_GAME is an All in a Row position");
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

criterion_group!(solve_benches, benches);
criterion_main!(solve_benches);
