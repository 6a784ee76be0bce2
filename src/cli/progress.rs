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
    /// With no terminal: how often a line is written, and when last.
    lines: Option<(Duration, Instant)>,
    count: Count,
    /// What the run has found so far.
    message: String,
}

/// The deals of a run done and left, for the time left.
///
/// A batch puts aside the deals that prove slow and solves them last, each
/// on every thread (see `patience::batch::Hard`). Counted at the rate of
/// the others, a run with only those left would say "about 1 s left" for as
/// long as they take; so they are counted apart, at what is left of their
/// limit when the run has a timeout.
struct Count {
    started: Instant,
    len: u64,
    done: u64,
    /// Deals put aside as slow, and how many of those are done.
    slow: u64,
    slow_done: u64,
    /// When the slow deal now on every thread started.
    slow_since: Option<Instant>,
    /// The most time a slow deal may take once it starts again.
    slow_limit: Option<Duration>,
}

impl DealProgress {
    /// Progress over `len` deals; `every` is how often a line is written
    /// when stderr is no terminal (zero: at every deal).
    pub fn new(len: u64, every: Duration) -> DealProgress {
        let now = Instant::now();
        let count = Count {
            started: now,
            len,
            done: 0,
            slow: 0,
            slow_done: 0,
            slow_since: None,
            slow_limit: None,
        };
        let (bar, lines) = match io::stderr().is_terminal() {
            true => {
                let bar = ProgressBar::new(len);
                bar.set_style(
                    ProgressStyle::with_template(
                        "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} deals, {rate}, {msg}",
                    )
                    .expect("the template is valid")
                    .with_key(
                        "rate",
                        |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = write!(w, "{:.0} deals/s", state.per_sec());
                        },
                    ),
                );
                (bar, None)
            }
            false => (ProgressBar::hidden(), Some((every, now))),
        };
        DealProgress {
            bar,
            lines,
            count,
            message: String::new(),
        }
    }

    /// Slow deals put aside may each take up to `limit` once they start
    /// again on every thread.
    pub fn with_slow_limit(mut self, limit: Option<Duration>) -> DealProgress {
        self.count.slow_limit = limit;
        self
    }

    /// Counts a deal done; `message` says what the run has found so far.
    pub fn done_one(&mut self, message: String) {
        self.bar.inc(1);
        self.count.done += 1;
        if self.count.slow_since.take().is_some() {
            self.count.slow_done += 1;
        }
        self.message = message;
        self.show();
        if let Some((every, last)) = &mut self.lines
            && last.elapsed() >= *every
        {
            *last = Instant::now();
            eprintln!("{}", self.count.line(&self.message, Instant::now()));
        }
    }

    /// Counts a deal put aside as slow.
    pub fn put_aside(&mut self) {
        self.count.slow += 1;
        self.show();
    }

    /// A slow deal starts again on every thread; `message` says so.
    pub fn slow_started(&mut self, message: String) {
        self.count.slow_since = Some(Instant::now());
        self.message = message;
        self.show();
    }

    /// Says what the run is doing, without a deal done.
    pub fn tell(&mut self, message: String) {
        self.message = message;
        self.show();
    }

    fn show(&self) {
        if self.lines.is_none() {
            let left = self.count.left(Instant::now());
            self.bar.set_message(format!("{}, {left}", self.message));
        }
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Count {
    /// `1,234 of 10,000 deals (12%), 890 won, 41 deals/s, about 4 min left`.
    fn line(&self, message: &str, now: Instant) -> String {
        let seconds = (now - self.started).as_secs_f64();
        let rate = self.done as f64 / seconds.max(1e-9);
        format!(
            "{} of {} deals ({:.0}%), {message}, {rate:.0} deals/s, {}",
            HumanCount(self.done),
            HumanCount(self.len),
            100.0 * self.done as f64 / self.len.max(1) as f64,
            self.left(now)
        )
    }

    /// The time left: `about 4 min left`, `about 30 s left, then 2 slow
    /// deals, up to 2 min`, `2 slow deals left, up to 2 min`.
    fn left(&self, now: Instant) -> String {
        let slow_left = self.slow - self.slow_done;
        let others_done = self.done - self.slow_done;
        let others_left = self.len.saturating_sub(self.done + slow_left);
        // The others are all done before the first slow deal starts again.
        let others_took = (now - self.started).as_secs_f64();
        let others = others_left as f64 * others_took / others_done.max(1) as f64;
        if slow_left == 0 {
            return format!("about {} left", duration(others));
        }
        let slow = match slow_left {
            1 => "1 slow deal".to_string(),
            n => format!("{n} slow deals"),
        };
        let up_to = self.slow_limit.map(|limit| {
            let running = self.slow_since.map_or(0.0, |t| (now - t).as_secs_f64());
            let most = slow_left as f64 * limit.as_secs_f64() - running;
            format!(", up to {}", duration(most.max(0.0)))
        });
        let up_to = up_to.unwrap_or_default();
        match others_left {
            0 => format!("{slow} left{up_to}"),
            _ => format!("about {} left, then {slow}{up_to}", duration(others)),
        }
    }
}

/// `12 s`, `4 min`, `1.5 h`.
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 5400.0 => format!("{:.0} min", s / 60.0),
        s => format!("{:.1} h", s / 3600.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run of 100 deals, 10 s in, with `done` done and `slow` put aside.
    fn count(done: u64, slow: u64, slow_done: u64) -> (Count, Instant) {
        let started = Instant::now();
        let count = Count {
            started,
            len: 100,
            done,
            slow,
            slow_done,
            slow_since: None,
            slow_limit: Some(Duration::from_secs(57)),
        };
        (count, started + Duration::from_secs(10))
    }

    #[test]
    fn the_time_left_is_at_the_rate_so_far() {
        let (count, now) = count(40, 0, 0);
        assert_eq!(count.left(now), "about 15 s left");
        assert_eq!(
            count.line("38 won", now),
            "40 of 100 deals (40%), 38 won, 4 deals/s, about 15 s left"
        );
    }

    /// Deals put aside are not counted at the others' rate, but at their
    /// limit, less what the one running has taken.
    #[test]
    fn slow_deals_are_counted_at_their_limit() {
        let (count, now) = count(40, 4, 0);
        assert_eq!(
            count.left(now),
            "about 14 s left, then 4 slow deals, up to 4 min"
        );
        let (mut count, now) = self::count(97, 4, 1);
        assert_eq!(count.left(now), "3 slow deals left, up to 3 min");
        count.slow_limit = None;
        assert_eq!(count.left(now), "3 slow deals left");
        let (mut count, now) = self::count(99, 2, 1);
        assert_eq!(count.left(now), "1 slow deal left, up to 57 s");
        count.slow_since = Some(count.started);
        assert_eq!(count.left(now), "1 slow deal left, up to 47 s");
    }
}
