//! Quoting what a user typed in an error message: a short excerpt, never
//! the whole text, so that a bad token of a hundred megabytes gives a
//! one-line message, and control characters show as escapes.

use std::fmt;

/// The most characters of a text an error message quotes.
const SHOWN: usize = 24;

/// `text` in single quotes, cut to its first [`SHOWN`] characters (with
/// `...` and its length in bytes when cut), control characters escaped.
pub fn quote(text: &str) -> Quoted<'_> {
    Quoted(text)
}

/// See [`quote`].
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("'")?;
        for c in self.0.chars().take(SHOWN) {
            match c.is_control() {
                true => write!(f, "{}", c.escape_debug())?,
                false => write!(f, "{c}")?,
            }
        }
        match self.0.chars().nth(SHOWN) {
            Some(_) => write!(f, "...' ({} bytes)", self.0.len()),
            None => f.write_str("'"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_text_is_quoted_whole() {
        assert_eq!(quote("XX").to_string(), "'XX'");
        assert_eq!(quote("").to_string(), "''");
    }

    #[test]
    fn a_long_text_is_cut_and_its_length_given() {
        let long = "Q".repeat(100_000_000);
        let shown = quote(&long).to_string();
        assert_eq!(
            shown,
            format!("'{}...' (100000000 bytes)", "Q".repeat(SHOWN))
        );
    }

    #[test]
    fn control_characters_and_wide_ones_are_safe() {
        assert_eq!(quote("a\0b\n").to_string(), "'a\\0b\\n'");
        let wide = "é".repeat(30);
        assert_eq!(
            quote(&wide).to_string(),
            format!("'{}...' (60 bytes)", "é".repeat(SHOWN))
        );
    }
}
