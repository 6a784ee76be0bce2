//! patience: exact solvers for solitaire games.
pub mod card;
pub mod pysol;
