//! The command line's quantities: times (`--timeout`), sizes (`--memory`)
//! and thread counts (`--threads`), each read with an error that says
//! which forms are accepted.

use std::num::NonZero;
use std::time::Duration;

use patience::search::DEFAULT_MEMORY;

/// A `--timeout`: a time, or `none`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLimit(pub Option<Duration>);

/// The forms a time may take, for error messages.
const TIME_FORMS: &str = "30s, 500ms, 2m, 1h, 1m30s, 1.5 (seconds) or none";

/// Parses a `--timeout`: a time as [`parse_duration`] reads it, or `none`.
pub fn parse_time_limit(text: &str) -> Result<TimeLimit, String> {
    match text.trim() {
        "none" => Ok(TimeLimit(None)),
        time => parse_duration(time).map(|time| TimeLimit(Some(time))),
    }
}

/// Parses a time: numbers each followed by a unit (`ms`, `s`, `m` or
/// `min`, `h`), added up, as in `1h30m` or `1m 30s`; or one plain number
/// of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let bad = || format!("'{}' is not a time: write {TIME_FORMS}", text.trim());
    let mut rest = text.trim();
    if rest.is_empty() {
        return Err(bad());
    }
    if let Ok(seconds) = rest.parse::<f64>() {
        return seconds_to_duration(seconds, text);
    }
    let mut seconds = 0.0;
    while !rest.is_empty() {
        let (value, unit, after) = number_and_unit(rest).ok_or_else(bad)?;
        seconds += value
            * match unit {
                "ms" => 0.001,
                "s" | "sec" => 1.0,
                "m" | "min" => 60.0,
                "h" => 3600.0,
                _ => return Err(bad()),
            };
        rest = after.trim_start();
    }
    seconds_to_duration(seconds, text)
}

fn seconds_to_duration(seconds: f64, text: &str) -> Result<Duration, String> {
    if seconds.is_nan() || seconds < 0.0 {
        return Err(format!(
            "'{}' is not a time: write {TIME_FORMS}",
            text.trim()
        ));
    }
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| format!("'{}' is too long a time", text.trim()))
}

/// Splits `2.5G...` into 2.5, `G` and what follows: a number at least 0,
/// then a unit of letters.
fn number_and_unit(text: &str) -> Option<(f64, &str, &str)> {
    let digits = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, rest) = text.split_at(digits);
    let rest = rest.trim_start();
    let letters = rest
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(rest.len());
    let (unit, after) = rest.split_at(letters);
    let value: f64 = number.parse().ok()?;
    (value.is_finite() && value >= 0.0).then_some((value, unit, after))
}

/// Parses `512M`, `2G`, `64K` (powers of 1024; `MB`, `MiB` also) or a
/// number of bytes, no more than the machine's memory (`machine`, when
/// known): a cap past it would only end in the process being killed.
pub fn parse_size(text: &str, machine: Option<u64>) -> Result<usize, String> {
    let upper = text.trim().to_ascii_uppercase();
    let (value, unit) = match number_and_unit(&upper) {
        Some((value, unit, "")) => (value, unit),
        _ => return Err(format!("'{}' is not a size like 512M or 2G", text.trim())),
    };
    let scale = match unit.trim_end_matches('B').trim_end_matches('I') {
        "" => 1u64,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => {
            return Err(format!(
                "'{}': unknown unit '{unit}' (use K, M or G)",
                text.trim()
            ));
        }
    };
    let bytes = value * scale as f64;
    let most = machine.unwrap_or(u64::MAX).min(usize::MAX as u64);
    if bytes > most as f64 {
        return Err(match machine {
            Some(machine) => format!(
                "'{}' is more than this machine's memory ({:.1} GiB)",
                text.trim(),
                machine as f64 / (1u64 << 30) as f64
            ),
            None => format!("'{}' is too large a size", text.trim()),
        });
    }
    Ok(bytes as usize)
}

/// The machine's memory in bytes, if the system says.
pub fn machine_memory() -> Option<u64> {
    // SAFETY: sysconf reads a system setting and has no preconditions.
    let (pages, page) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    (pages > 0 && page > 0).then(|| pages as u64 * page as u64)
}

/// The default `--memory`, as the option's text: a quarter of `machine`'s
/// memory, at most 4G, or the library's default (1G) when the system does
/// not say. Lanes' hard losses fill a table of tens of millions of
/// positions, and a table at its cap searches again what it forgot
/// (`docs/tuning.md`); a quarter leaves room for the searches' own
/// memory, which may take as much again, and for the rest of the machine.
pub fn default_memory(machine: Option<u64>) -> String {
    const MOST: u64 = 4 << 30;
    let bytes = machine.map_or(DEFAULT_MEMORY as u64, |machine| (machine / 4).min(MOST));
    match bytes % (1 << 30) {
        0 => format!("{}G", bytes >> 30),
        _ => format!("{}M", bytes >> 20),
    }
}

/// [`default_memory`] of this machine, worked out once.
pub fn machine_default_memory() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| default_memory(machine_memory()))
}

/// The number of threads to run: `given`, or every core when not given.
/// Past the cores more threads only slow a search (and tens of thousands
/// cannot even be started), so a larger count is cut to the cores, with
/// the warning returned beside it; 0 is an error.
pub fn thread_count(given: Option<usize>) -> Result<(usize, Option<String>), String> {
    let cores = std::thread::available_parallelism().map_or(1, NonZero::get);
    match given {
        None => Ok((cores, None)),
        Some(0) => Err("--threads must be at least 1".into()),
        Some(n) if n > cores => Ok((
            cores,
            Some(format!(
                "--threads {n} is more than the {cores} cores here: using {cores}"
            )),
        )),
        Some(n) => Ok((n, None)),
    }
}

/// A size in bytes as a person reads it: `512 KiB`, `2.0 MiB`, `1.5 GiB`.
pub fn human_bytes(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64),
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64),
        b => format!("{:.0} KiB", b as f64 / 1024.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default `--memory` is a quarter of the machine's, at most 4G,
    /// 1G when unknown, and a size `--memory` itself accepts.
    #[test]
    fn the_default_memory_is_a_quarter_of_the_machine_at_most_4g() {
        const GIB: u64 = 1 << 30;
        for (machine, default, bytes) in [
            (Some(24 * GIB), "4G", 4 * GIB),
            (Some(8 * GIB), "2G", 2 * GIB),
            (Some(3 * GIB), "768M", 768 << 20),
            (None, "1G", GIB),
        ] {
            let text = default_memory(machine);
            assert_eq!(text, default, "{machine:?}");
            assert_eq!(parse_size(&text, machine), Ok(bytes as usize));
        }
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("1m30s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("1h 5m 2s"), Ok(Duration::from_secs(3902)));
        assert_eq!(parse_duration("2 min"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1.5h"), Ok(Duration::from_secs(5400)));
        for bad in ["fast", "3 weeks", "-1s", "", "1m30", "s", "1..2s", "1h-5m"] {
            let err = parse_duration(bad).unwrap_err();
            assert!(err.contains("1m30s"), "{bad}: {err}");
        }
        assert!(
            parse_duration("99999999999999999999999h")
                .unwrap_err()
                .contains("too long")
        );
    }

    #[test]
    fn time_limits() {
        assert_eq!(parse_time_limit("none"), Ok(TimeLimit(None)));
        assert_eq!(
            parse_time_limit("10s"),
            Ok(TimeLimit(Some(Duration::from_secs(10))))
        );
        assert!(parse_time_limit("never").is_err());
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("512M", None), Ok(512 << 20));
        assert_eq!(parse_size("2G", None), Ok(2 << 30));
        assert_eq!(parse_size("64kib", None), Ok(64 << 10));
        assert_eq!(parse_size("1000", None), Ok(1000));
        assert!(parse_size("lots", None).is_err());
        assert!(parse_size("3Q", None).is_err());
        assert!(parse_size("1G2", None).is_err());
        let huge = parse_size("99999999999999999999G", None).unwrap_err();
        assert!(huge.contains("too large"), "{huge}");
        let machine = Some(8u64 << 30);
        assert_eq!(parse_size("8G", machine), Ok(8 << 30));
        let over = parse_size("9G", machine).unwrap_err();
        assert!(
            over.contains("more than this machine's memory (8.0 GiB)"),
            "{over}"
        );
    }

    #[test]
    fn thread_counts() {
        let cores = std::thread::available_parallelism().unwrap().get();
        assert_eq!(thread_count(None), Ok((cores, None)));
        assert_eq!(thread_count(Some(1)), Ok((1, None)));
        assert!(thread_count(Some(0)).is_err());
        let (n, warning) = thread_count(Some(99_999)).unwrap();
        assert_eq!(n, cores);
        assert!(warning.unwrap().contains("99999 is more than"));
    }
}
