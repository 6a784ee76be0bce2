//! `bench`: fixed, versioned sets of deals timed, to compare builds.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use indicatif::HumanCount;

use patience::bench::{self, Set, Size};
use patience::games::GameKind;
use patience::search::Verdict;

use crate::emit;
use crate::progress::DealProgress;
use crate::units::human_bytes;

/// How often a progress line goes to a standard error that is no terminal.
const REPORT_EVERY: Duration = Duration::from_secs(10);

/// `bench`: each game's fixed set timed.
pub fn run_bench(games: &[GameKind], size: Size, threads: usize, json: bool) -> Result<ExitCode> {
    if !json {
        let sets = match size {
            Size::Full => "",
            Size::Quick => ", quick sets",
        };
        let plural = if threads == 1 { "" } else { "s" };
        emit(format_args!(
            "bench {}{sets}, {threads} thread{plural}\n",
            bench::VERSION
        ))?;
    }
    for &game in games {
        let set = Set::of(game, size);
        let mut progress = DealProgress::new(set.deals.clone().count() as u64, REPORT_EVERY);
        progress.tell(format!("{game}, 0 won"));
        let mut won = 0;
        let summary = set.run(threads, |deal| {
            won += (deal.verdict == Verdict::Won) as u64;
            progress.done_one(format!("{game}, {won} won"));
        })?;
        progress.finish();
        if json {
            emit(format_args!("{}\n", serde_json::to_string(&summary)?))?;
        } else {
            emit(format_args!("{}", bench_text(&summary)))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn bench_text(s: &bench::Summary) -> String {
    let millis = |micros: u64| micros as f64 / 1000.0;
    format!(
        "{}: numbered deals {}..{}, each at most {} positions and {} of table\n  \
         {} deals in {:.2} s: {:.0} deals/s; {} won, {} lost, {} unknown\n  \
         {} positions: {} a second\n  \
         per deal: median {:.1} ms, worst {:.1} ms (deal {})\n  \
         table peak: {} positions, {}\n",
        s.game,
        s.first_deal,
        s.last_deal,
        HumanCount(s.max_nodes),
        human_bytes(s.memory),
        s.deals,
        s.seconds,
        s.deals_per_second,
        s.won,
        s.lost,
        s.unknown,
        HumanCount(s.nodes),
        HumanCount(s.nodes_per_second as u64),
        millis(s.median_micros),
        millis(s.worst_micros),
        s.worst_deal,
        HumanCount(s.table_peak as u64),
        human_bytes(s.table_bytes),
    )
}
