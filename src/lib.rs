//! patience: exact solvers for solitaire games.
//!
//! A library with a thin command line on top. Each game has a fast engine
//! ([`games`]) searched by one generic depth-first search ([`search`]), and
//! plain reference rules ([`mod@reference`]) that check it.
//!
//! The module docs are the design's reference for developers, and link
//! freely to private items: read them with `cargo doc --document-private-items`.
#![allow(rustdoc::private_intra_doc_links)]

pub mod alloc;
pub mod batch;
pub mod bench;
pub mod board;
pub mod card;
pub mod deal;
pub mod game;
pub mod games;
pub mod key;
pub mod notation;
pub mod play;
pub mod pysol;
pub mod quote;
pub mod reference;
pub mod row;
pub mod search;
pub mod stats;
