//! Speed of the All in a Row solver on fixed PySolFC deals.
//!
//! Whole solves measure what a user waits for; `benches/games.rs` splits
//! that into the engine's share (moves, play, keys) and the table's, for
//! every game. Every deal is named by its PySolFC game number, so figures
//! from different commits compare like with like.
//!
//! `cargo bench --bench solve` took 42 s on two cores, under load.

use std::ops::RangeInclusive;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, criterion_group, criterion_main};
use patience::game::Game;
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

fn pysol_engine(n: u64) -> AllInARow {
    let board = GameKind::AllInARow
        .pysol_deal(n)
        .expect("a PySolFC game number");
    AllInARow::new(&board).expect("a dealt board is a valid position")
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("all-in-a-row");
    solves(&mut group);
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

criterion_group!(solve_benches, benches);
criterion_main!(solve_benches);
