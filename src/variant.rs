//! The games Tinh plays, by protocol name: the one list of games in the program. Each
//! entry of `variants!` below names a variant, its protocol name, the type that plays it
//! (a `Game`) and its start position; from that list come `Variant`, `Position` (a
//! position of any variant) and `with_game!`, which runs generic code on the concrete
//! game inside a `Position`. Everything else about a game is asked of the game itself.

use crate::game::{Game, RuleOption};
use crate::search::Features;
use crate::search::params::{SearchParams, SearchSettings};
use std::fmt;
use std::str::FromStr;

macro_rules! variants {
    ($d:tt $( $(#[$doc:meta])* $variant:ident = $name:literal : $game:ty = $start:expr; )+) => {
        /// A variant Tinh plays.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Variant {
            $( $(#[$doc])* $variant, )+
        }

        impl Variant {
            /// Every variant, in the order `uci` lists them.
            pub const ALL: &[Variant] = &[$(Variant::$variant),+];

            /// The protocol name (`UCI_Variant`, `--variant`).
            pub fn name(self) -> &'static str {
                match self {
                    $(Variant::$variant => $name,)+
                }
            }

            /// The start position.
            pub fn startpos(self) -> Position {
                match self {
                    $(Variant::$variant => Position::$variant($start),)+
                }
            }
        }

        /// A position of any variant. Generic code reaches the game through `with_game!`.
        /// Not boxed: a program holds a handful of these.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug)]
        pub enum Position {
            $( $variant($game), )+
        }

        impl Position {
            /// The variant this position belongs to.
            pub fn variant(&self) -> Variant {
                match self {
                    $(Position::$variant(_) => Variant::$variant,)+
                }
            }

            /// A position of the same variant and rule settings read from a FEN.
            pub fn with_fen(&self, fen: &str) -> Result<Position, String> {
                match self {
                    $(Position::$variant(g) => g.with_fen(fen).map(Position::$variant),)+
                }
            }

            /// A position of the same variant from a line of an opening suite (EPD).
            pub fn with_epd(&self, line: &str) -> Result<Position, String> {
                match self {
                    $(Position::$variant(g) => g.with_epd(line).map(Position::$variant),)+
                }
            }
        }

        /// Run `$body` with `$g` bound to the concrete game inside a `Position` (`&mut`
        /// when `$pos` is borrowed mutably), so generic code monomorphises per game. The
        /// `Game` trait is in scope inside `$body`.
        #[macro_export]
        macro_rules! with_game {
            ($d pos:expr, $d g:ident => $d body:expr) => {
                match $d pos {
                    $( $crate::variant::Position::$variant($d g) => {
                        #[allow(unused_imports)]
                        use $crate::game::Game as _;
                        $d body
                    } )+
                }
            };
        }
    };
}

variants! { $
    /// Math Chess (Cờ Toán Việt Nam): the default.
    MathChess = "mathchess": crate::mathchess::Board = crate::mathchess::Board::startpos();
    /// Reveal Chess (Cờ vua úp): chess with face-down pieces.
    RevealChess = "revealchess": crate::revealchess::Board = crate::revealchess::Board::startpos(false);
    /// Standard chess: Reveal Chess with nothing face-down.
    Chess = "chess": crate::revealchess::Board = crate::revealchess::Board::startpos(true);
}

impl Variant {
    /// A position of this variant from a FEN.
    pub fn from_fen(self, fen: &str) -> Result<Position, String> {
        self.startpos().with_fen(fen)
    }

    /// The variants for a help text: "mathchess (default), revealchess or chess".
    pub fn names_for_help() -> String {
        let names: Vec<String> = Variant::ALL
            .iter()
            .map(|v| {
                if *v == Variant::default() {
                    format!("{v} (default)")
                } else {
                    v.to_string()
                }
            })
            .collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }

    /// The search parameters and features a search of this variant runs with, given the
    /// user's settings over the game's own defaults (`Game::search_defaults`).
    pub fn search_values(self, settings: &SearchSettings) -> (SearchParams, Features) {
        settings.resolve(with_game!(self.startpos(), g => g.search_defaults()))
    }

    /// The rule settings of every variant, each once (for the protocol's option list).
    pub fn all_rule_options() -> Vec<RuleOption> {
        let mut out: Vec<RuleOption> = Vec::new();
        for v in Variant::ALL {
            for o in with_game!(v.startpos(), g => g.rule_options()) {
                if !out.iter().any(|x| x.name == o.name) {
                    out.push(*o);
                }
            }
        }
        out
    }
}

/// The first listed variant (Math Chess) is the default everywhere.
impl Default for Variant {
    fn default() -> Self {
        Variant::ALL[0]
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Variant::ALL
            .iter()
            .copied()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
                format!("unknown variant '{s}' (expected {})", names.join(", "))
            })
    }
}

impl Position {
    pub fn to_fen(&self) -> String {
        with_game!(self, g => g.to_fen())
    }

    /// Set the rule settings this game offers (the others are ignored); before any move.
    pub fn set_rule_options(&mut self, rules: &[(&str, i64)]) {
        with_game!(self, g => {
            for &(name, value) in rules {
                if g.rule_options().iter().any(|o| o.name.eq_ignore_ascii_case(name)) {
                    g.set_rule_option(name, value);
                }
            }
        });
    }

    /// Apply a list of moves in `position ... moves` notation; stops at the first bad one
    /// with an error naming it (the position is then unchanged: work on a copy).
    pub fn apply_moves<'a>(
        &mut self,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), String> {
        for (i, m) in moves.into_iter().enumerate() {
            with_game!(self, g => {
                let (mv, o) = g.parse_move(m).map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
                g.make(mv, o);
            });
        }
        Ok(())
    }
}
