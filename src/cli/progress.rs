//! What a long run shows on stderr while it works.

use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{HumanCount, ProgressBar, ProgressState, ProgressStyle};

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

/// How far a run of deals has got, on stderr: a bar on a terminal;
/// elsewhere (a pipe, `nohup`, a cluster job's log) a line every `every`.
pub struct DealProgress {
    bar: ProgressBar,
    lines: Option<Lines>,
}

/// The state of the progress lines written when stderr is no terminal.
struct Lines {
    every: Duration,
    started: Instant,
    last: Instant,
    done: u64,
    len: u64,
    message: String,
}

impl DealProgress {
    /// Progress over `len` deals; `every` is how often a line is written
    /// when stderr is no terminal (zero: at every deal).
    pub fn new(len: u64, every: Duration) -> DealProgress {
        if io::stderr().is_terminal() {
            let bar = ProgressBar::new(len);
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} deals, {rate}, {msg}, \
                     ETA {eta}",
                )
                .expect("the template is valid")
                .with_key(
                    "rate",
                    |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.0} deals/s", state.per_sec());
                    },
                ),
            );
            return DealProgress { bar, lines: None };
        }
        let now = Instant::now();
        DealProgress {
            bar: ProgressBar::hidden(),
            lines: Some(Lines {
                every,
                started: now,
                last: now,
                done: 0,
                len,
                message: String::new(),
            }),
        }
    }

    /// Counts a deal done; `message` says what the run has found so far.
    pub fn done_one(&mut self, message: String) {
        self.bar.inc(1);
        self.tell(message);
        if let Some(lines) = &mut self.lines {
            lines.done += 1;
            if lines.last.elapsed() >= lines.every {
                lines.last = Instant::now();
                eprintln!("{}", lines.line());
            }
        }
    }

    /// Says what the run is doing, without a deal done.
    pub fn tell(&mut self, message: String) {
        match &mut self.lines {
            Some(lines) => lines.message = message,
            None => self.bar.set_message(message),
        }
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Lines {
    /// `1,234 of 10,000 deals (12%), 890 won, 41 deals/s, about 4 min left`.
    fn line(&self) -> String {
        let seconds = self.started.elapsed().as_secs_f64();
        let rate = self.done as f64 / seconds.max(1e-9);
        let left = (self.len - self.done.min(self.len)) as f64 / rate.max(1e-9);
        let left = match left {
            s if s < 90.0 => format!("{s:.0} s"),
            s if s < 5400.0 => format!("{:.0} min", s / 60.0),
            s => format!("{:.1} h", s / 3600.0),
        };
        format!(
            "{} of {} deals ({:.0}%), {}, {rate:.0} deals/s, about {left} left",
            HumanCount(self.done),
            HumanCount(self.len),
            100.0 * self.done as f64 / self.len.max(1) as f64,
            self.message
        )
    }
}
