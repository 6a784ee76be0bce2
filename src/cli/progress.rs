//! What a long run shows on stderr while it works.

use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use patience::search::Progress;

/// A spinner on stderr, when it is a terminal, while a search runs past
/// half a second: time, positions searched, most cards home. It ends when
/// `done` is set and the thread unparked.
pub fn show_progress(progress: &Progress, done: &AtomicBool) {
    /// Quick solves end before the spinner would show, and draw nothing.
    const QUIET: Duration = Duration::from_millis(500);
    const TICK: Duration = Duration::from_millis(100);
    if !io::stderr().is_terminal() {
        return;
    }
    let started = std::time::Instant::now();
    let spinner = ProgressBar::hidden();
    while !done.load(Ordering::Relaxed) {
        std::thread::park_timeout(TICK);
        if spinner.is_hidden() && started.elapsed() >= QUIET {
            spinner.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            spinner.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .expect("the template is valid"),
            );
        }
        spinner.set_message(format!(
            "{} positions, {} cards home at best",
            indicatif::HumanCount(progress.nodes()),
            progress.best()
        ));
        spinner.tick();
    }
    spinner.finish_and_clear();
}

/// A bar of deals done on stderr, when it is a terminal.
pub fn progress_bar(len: u64) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} deals, {per_sec}, {msg}, ETA {eta}",
        )
        .expect("the template is valid"),
    );
    bar.set_message("0 won");
    bar
}
