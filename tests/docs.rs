//! The documents a user reads hold true: every command of the README runs
//! as shown and prints what it shows, its links lead somewhere, and
//! `docs/RULES.md` is the project's contract.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A command of a `console` block and the output shown under it.
struct Example {
    line: usize,
    command: String,
    output: Vec<String>,
}

/// The `$ ` commands of the ```console blocks of a Markdown text.
fn examples(markdown: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (index, line) in markdown.lines().enumerate() {
        match (in_console, line.trim_end()) {
            (false, "```console") => in_console = true,
            (true, "```") => in_console = false,
            (true, text) => match text.strip_prefix("$ ") {
                Some(command) => examples.push(Example {
                    line: index + 1,
                    command: command.to_string(),
                    output: Vec::new(),
                }),
                None => examples
                    .last_mut()
                    .expect("a console block starts with a command")
                    .output
                    .push(text.to_string()),
            },
            _ => {}
        }
    }
    examples
}

/// Whether `line` matches `pattern`, in which `[..]` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    let [first, middle @ .., last] = parts.as_slice() else {
        return pattern == line;
    };
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Whether `actual` matches `expected`, in which a line `...` stands for
/// any lines, none included.
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, after)| line_matches(first, line) && lines_match(rest, after)),
    }
}

#[test]
fn patterns_match_as_documented() {
    assert!(line_matches("in [..] s", "in 0.013 s"));
    assert!(!line_matches("in [..] s", "in 0.013 ms"));
    assert!(line_matches("a [..] b [..]", "a x b y"));
    let expected: Vec<String> = ["a", "...", "z"].map(String::from).to_vec();
    assert!(lines_match(&expected, &["a", "b", "c", "z"]));
    assert!(lines_match(&expected, &["a", "z"]));
    assert!(!lines_match(&expected, &["a", "b"]));
}

/// Runs the README's commands in order in one empty folder, with the
/// built `patience` first on the PATH, and checks each prints what the
/// README shows under it. `cargo run --release -- ARGS` runs as
/// `patience ARGS`; other `cargo` commands are CI's own and are skipped.
#[test]
#[cfg_attr(debug_assertions, ignore = "solves 1100 deals: run with --release")]
fn every_readme_command_runs_as_shown() {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_patience"));
    let path = std::env::join_paths(
        std::iter::once(binary.parent().unwrap().to_path_buf()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .unwrap();
    let dir = tempfile::TempDir::new().unwrap();
    let readme = read(&root().join("README.md"));
    let examples = examples(&readme);
    assert!(examples.len() >= 8, "{} examples", examples.len());
    for example in examples {
        let command = match example.command.strip_prefix("cargo run --release -- ") {
            Some(args) => format!("patience {args}"),
            None if example.command.starts_with("cargo ") => continue,
            None => example.command.clone(),
        };
        let output = Command::new("sh")
            .args(["-c", &command])
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(
            output.status.success(),
            "README line {}: `{command}` failed: {}",
            example.line,
            String::from_utf8_lossy(&output.stderr)
        );
        let actual: Vec<&str> = stdout.lines().collect();
        assert!(
            lines_match(&example.output, &actual),
            "README line {}: `{command}` printed\n{stdout}\nnot\n{}",
            example.line,
            example.output.join("\n")
        );
    }
}

/// The README stays a user's page, and its links lead to files.
#[test]
fn the_readme_is_short_and_its_links_resolve() {
    let readme = read(&root().join("README.md"));
    assert!(
        readme.lines().count() <= 250,
        "the README grew past 250 lines"
    );
    for link in readme.split("](").skip(1) {
        let target = link.split(')').next().unwrap();
        if target.starts_with("http") {
            continue;
        }
        assert!(root().join(target).exists(), "README links to {target}");
    }
}

/// `docs/RULES.md` is the contract of the project's shared folder, copied
/// so that a fresh clone has it; when that folder is there, they agree.
#[test]
fn the_rules_are_the_shared_contract() {
    let ours = read(&root().join("docs/RULES.md"));
    assert!(ours.starts_with("# The five games"), "{}", &ours[..40]);
    let shared = root().join("../shared/RULES.md");
    if shared.exists() {
        assert_eq!(
            ours,
            read(&shared),
            "docs/RULES.md differs from ../shared/RULES.md"
        );
    }
}
