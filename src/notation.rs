//! The move notation of RULES.md, one move a line, as `solve` prints it and
//! `verify` reads it.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::card::Card;
use crate::quote::quote;

/// Where a card is taken from or put.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// A tableau pile, counted from 0 here and from 1 in the text.
    Tableau(u8),
    /// A reserve place, counted from 0 here and from 1 in the text.
    Reserve(u8),
    Waste,
    Foundation,
}

/// One move in the notation of RULES.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// `count` cards headed by `card` (the deepest one moved) go from one
    /// place to another; `count` is 1 except for runs.
    Play {
        from: Place,
        to: Place,
        card: Card,
        count: u8,
    },
    /// The stock's top card, `card`, turned onto the waste.
    Draw(Card),
    /// The waste turned over into the stock.
    Redeal,
}

impl Move {
    /// A single card from one place to another.
    pub const fn single(from: Place, to: Place, card: Card) -> Move {
        Move::Play {
            from,
            to,
            card,
            count: 1,
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Tableau(i) => write!(f, "t{}", i + 1),
            Place::Reserve(i) => write!(f, "r{}", i + 1),
            Place::Waste => f.write_str("w"),
            Place::Foundation => f.write_str("f"),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play {
                from,
                to,
                card,
                count,
            } => {
                write!(f, "{from} {to} {card}")?;
                if *count > 1 {
                    write!(f, " x{count}")?;
                }
                Ok(())
            }
            Move::Draw(card) => write!(f, "draw {card}"),
            Move::Redeal => f.write_str("redeal"),
        }
    }
}

/// Why a line is not a move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{} is not a move: {reason}", quote(text))]
pub struct ParseMoveError {
    pub text: String,
    pub reason: String,
}

impl FromStr for Place {
    type Err = String;

    fn from_str(s: &str) -> Result<Place, String> {
        let numbered = |rest: &str| -> Result<u8, String> {
            match rest.parse::<u32>() {
                Ok(0) => Err(format!(
                    "{} is not a place (piles and reserve places count from 1)",
                    quote(s)
                )),
                Ok(n) => u8::try_from(n - 1).map_err(|_| format!("there is no place {}", quote(s))),
                Err(_) => Err(format!(
                    "{} is not a place (expected tN, rN, w or f)",
                    quote(s)
                )),
            }
        };
        match s {
            "w" => Ok(Place::Waste),
            "f" => Ok(Place::Foundation),
            _ if s.starts_with('t') => numbered(&s[1..]).map(Place::Tableau),
            _ if s.starts_with('r') => numbered(&s[1..]).map(Place::Reserve),
            _ => Err(format!(
                "{} is not a place (expected tN, rN, w or f)",
                quote(s)
            )),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let err = |reason: String| ParseMoveError {
            text: s.trim().to_string(),
            reason,
        };
        let words: Vec<&str> = s.split_whitespace().collect();
        let card = |word: &str| word.parse::<Card>().map_err(|e| err(e.to_string()));
        match words.as_slice() {
            ["redeal"] => Ok(Move::Redeal),
            ["draw", c] => Ok(Move::Draw(card(c)?)),
            [from, to, c, rest @ ..] => {
                let count = match rest {
                    [] => 1,
                    [x] => x
                        .strip_prefix('x')
                        .and_then(|n| n.parse::<u8>().ok())
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| err(format!("{} is not a run length like x3", quote(x))))?,
                    _ => return Err(err("too many words".into())),
                };
                Ok(Move::Play {
                    from: from.parse().map_err(err)?,
                    to: to.parse().map_err(err)?,
                    card: card(c)?,
                    count,
                })
            }
            _ => Err(err(
                "expected 'FROM TO CARD [xN]', 'draw CARD' or 'redeal'".into()
            )),
        }
    }
}

/// Reads a move list: one move a line, `#` comments and blank lines skipped.
/// Each move comes with its line number, for error messages.
pub fn parse_moves(text: &str) -> Result<Vec<(usize, Move)>, (usize, ParseMoveError)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(n, line)| line.parse().map(|m| (n, m)).map_err(|e| (n, e)))
        .collect()
}

/// What a move list says it solves: `solve` starts its output with the
/// comment `# GAME, DEAL`. Returns the two, when the first line has that
/// form; the caller knows which game names are real.
pub fn heading(text: &str) -> Option<(&str, &str)> {
    let first = text.lines().next()?.strip_prefix('#')?;
    let (game, deal) = first.split_once(',')?;
    Some((game.trim(), deal.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_rules_md_round_trips() {
        for text in [
            "t3 f 5H",
            "r2 t7 9C",
            "w t1 QD",
            "t4 t9 7S x3",
            "draw 8C",
            "redeal",
        ] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
        }
    }

    #[test]
    fn bad_moves_say_why() {
        for (text, why) in [
            ("t0 f 5H", "count from 1"),
            ("q3 f 5H", "not a place"),
            ("t5 to f", "'to' is not a place (expected tN"),
            ("t999 f 5H", "there is no place 't999'"),
            ("t3 f 5X", "not a card"),
            ("t3 t4 5H y2", "run length"),
            ("t3", "expected"),
            ("draw", "expected"),
        ] {
            let err = text.parse::<Move>().unwrap_err().to_string();
            assert!(err.contains(why), "{text}: {err}");
        }
    }

    #[test]
    fn a_heading_names_game_and_deal() {
        let text = "# all-in-a-row, deal 7\nt1 f 2C\n";
        assert_eq!(heading(text), Some(("all-in-a-row", "deal 7")));
        assert_eq!(heading("t1 f 2C\n# raglan, deal 7\n"), None);
        assert_eq!(heading("# just a note\n"), None);
        assert_eq!(heading(""), None);
    }

    #[test]
    fn move_lists_skip_comments_and_keep_line_numbers() {
        let moves = parse_moves("# won\n\nt1 f AS\n  t2 f 2S \n").unwrap();
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[1].0, 4);
        let (line, _) = parse_moves("t1 f AS\nbogus\n").unwrap_err();
        assert_eq!(line, 2);
    }
}
