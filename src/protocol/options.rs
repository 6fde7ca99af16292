//! The engine's options: what `uci` lists, how `setoption` is parsed and checked, and the
//! settings they make. Besides the fixed options there are the games' rule options (each
//! game lists its own, e.g. a point target) and the search parameters
//! (`search/params.rs`), which `setoption` accepts by name but `uci` does not list: the
//! `params` command lists them for tuners.

use crate::game::RuleOption;
use crate::search::params::{self, SearchParams, SearchSettings};
use crate::search::{FEATURES, FeatureSpec, Options};
use crate::variant::Variant;
use std::sync::Arc;

#[derive(Clone, Copy, Debug)]
enum OptKind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Button,
    Combo,
}

#[derive(Clone, Copy, Debug)]
struct OptSpec {
    name: &'static str,
    kind: OptKind,
}

/// The `Hash` maximum is the machine's (`tt::max_hash_mb`: half its memory), decided at
/// run time: the advertised range is one the machine can honour.
const MAX_BY_MEMORY: i64 = -1;

const OPTIONS: &[OptSpec] = &[
    OptSpec {
        name: "UCI_Variant",
        kind: OptKind::Combo,
    },
    OptSpec {
        name: "Hash",
        kind: OptKind::Spin {
            default: 64,
            min: 1,
            max: MAX_BY_MEMORY,
        },
    },
    OptSpec {
        name: "Threads",
        kind: OptKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    OptSpec {
        name: "MultiPV",
        kind: OptKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    OptSpec {
        name: "Clear Hash",
        kind: OptKind::Button,
    },
    OptSpec {
        name: "Ponder",
        kind: OptKind::Check { default: false },
    },
    OptSpec {
        name: "Move Overhead",
        kind: OptKind::Spin {
            default: 50,
            min: 0,
            max: 5000,
        },
    },
];

fn rule_spec(o: RuleOption) -> OptSpec {
    OptSpec {
        name: o.name,
        kind: OptKind::Spin {
            default: o.default,
            min: o.min,
            max: o.max,
        },
    }
}

/// The check option of a search feature switch (its default: the generic one; a game may
/// differ, see `option_lines`).
fn feature_option(f: &FeatureSpec) -> OptSpec {
    OptSpec {
        name: f.name,
        kind: OptKind::Check { default: f.default },
    }
}

/// Every listed option: the fixed ones, with the games' rule options after `Move Overhead`
/// and the search feature switches (switched off only to measure what each is worth,
/// Tinh against itself without it; see README) last.
fn listed() -> Vec<OptSpec> {
    let mut out = Vec::new();
    for o in OPTIONS {
        let mut o = *o;
        if let OptKind::Spin { max, .. } = &mut o.kind
            && *max == MAX_BY_MEMORY
        {
            *max = crate::search::tt::max_hash_mb() as i64;
        }
        out.push(o);
        if o.name == "Move Overhead" {
            out.extend(Variant::all_rule_options().into_iter().map(rule_spec));
        }
    }
    out.extend(FEATURES.iter().map(feature_option));
    out
}

fn find(name: &str) -> Option<OptSpec> {
    listed()
        .into_iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
}

/// Check a value for a spin option against its range (shared with `tinh analyse`).
pub fn check_spin(name: &str, n: i64) -> Result<(), String> {
    let Some(OptSpec {
        kind: OptKind::Spin { min, max, .. },
        ..
    }) = find(name)
    else {
        panic!("'{name}' is not a spin option");
    };
    if n < min || n > max {
        return Err(format!(
            "option '{name}' value {n} is out of range {min}..={max}"
        ));
    }
    Ok(())
}

pub fn spin_default(name: &str) -> i64 {
    match find(name) {
        Some(OptSpec {
            kind: OptKind::Spin { default, .. },
            ..
        }) => default,
        _ => panic!("'{name}' is not a spin option"),
    }
}

/// The `option name ...` lines of the `uci` answer; the variant's default is the one the
/// loop was started with (`--variant`), and so are the feature switches' defaults (a game
/// may turn a feature on or off for itself).
pub fn option_lines(start_variant: Variant) -> String {
    let (_, features) = start_variant.search_values(&SearchSettings::default());
    let mut s = String::new();
    for mut o in listed() {
        if let (OptKind::Check { default }, Some(on)) = (&mut o.kind, features.get(o.name)) {
            *default = on;
        }
        let line = match o.kind {
            OptKind::Spin { default, min, max } => {
                format!(
                    "option name {} type spin default {default} min {min} max {max}",
                    o.name
                )
            }
            OptKind::Check { default } => {
                format!("option name {} type check default {default}", o.name)
            }
            OptKind::Button => format!("option name {} type button", o.name),
            OptKind::Combo => {
                let vars: String = Variant::ALL
                    .iter()
                    .map(|v| format!(" var {}", v.name()))
                    .collect();
                format!(
                    "option name {} type combo default {}{vars}",
                    o.name,
                    start_variant.name()
                )
            }
        };
        s.push_str(&line);
        s.push('\n');
    }
    s
}

/// The `params` command's answer: every search parameter as a spin option line (what
/// SPSA tuners read), with its current value as the default.
pub fn param_lines(current: &SearchParams) -> String {
    let mut s = String::new();
    for p in params::PARAMS {
        let v = current.get(p.name).unwrap_or(p.default);
        s.push_str(&format!(
            "option name {} type spin default {v} min {} max {}\n",
            p.name, p.min, p.max
        ));
    }
    s
}

/// A validated `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetOption {
    Variant(Variant),
    Hash(usize),
    Threads(usize),
    MultiPv(usize),
    ClearHash,
    Ponder(bool),
    MoveOverhead(u64),
    /// A game's rule option: (its name, value).
    Rule(&'static str, i64),
    /// One of the `Search_*` switches: (option name, on).
    Feature(&'static str, bool),
    /// A search parameter: (its name, value).
    Param(&'static str, i64),
}

/// Parse `setoption name <name words> [value <value words>]` (the arguments after
/// `setoption`). Names are matched case-insensitively; values are checked against the
/// option's type and range.
pub fn parse_setoption(args: &[&str]) -> Result<SetOption, String> {
    if args.first() != Some(&"name") {
        return Err("setoption: expected 'setoption name <option> [value <value>]'".into());
    }
    let rest = &args[1..];
    let vpos = rest.iter().position(|&t| t == "value");
    let (name_toks, value_toks) = match vpos {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let name = name_toks.join(" ");
    if name.is_empty() {
        return Err("setoption: missing option name".into());
    }
    let value = value_toks.map(|v| v.join(" "));
    let need_value = |option: &str| -> Result<String, String> {
        match value.as_deref() {
            Some(v) if !v.is_empty() => Ok(v.to_string()),
            _ => Err(format!("setoption: option '{option}' needs a value")),
        }
    };
    let integer = |option: &str, v: &str| -> Result<i64, String> {
        v.parse()
            .map_err(|_| format!("setoption: option '{option}' value '{v}' is not an integer"))
    };
    let Some(spec) = find(&name) else {
        if let Some(p) = params::spec(&name) {
            let v = need_value(p.name)?;
            let n = integer(p.name, &v)?;
            SearchParams::default()
                .set(p.name, n)
                .map_err(|e| format!("setoption: {e}"))?;
            return Ok(SetOption::Param(p.name, n));
        }
        return Err(format!("setoption: unknown option '{name}'"));
    };
    match spec.kind {
        OptKind::Spin { .. } => {
            let v = need_value(spec.name)?;
            let n = integer(spec.name, &v)?;
            check_spin(spec.name, n).map_err(|e| format!("setoption: {e}"))?;
            Ok(match spec.name {
                "Hash" => SetOption::Hash(n as usize),
                "Threads" => SetOption::Threads(n as usize),
                "MultiPV" => SetOption::MultiPv(n as usize),
                "Move Overhead" => SetOption::MoveOverhead(n as u64),
                rule => SetOption::Rule(rule, n),
            })
        }
        OptKind::Check { .. } => {
            let v = need_value(spec.name)?;
            let b = match v.to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => {
                    return Err(format!(
                        "setoption: option '{}' value '{v}' is not true or false",
                        spec.name
                    ));
                }
            };
            Ok(if spec.name == "Ponder" {
                SetOption::Ponder(b)
            } else {
                SetOption::Feature(spec.name, b)
            })
        }
        OptKind::Button => Ok(SetOption::ClearHash),
        OptKind::Combo => {
            let v = need_value(spec.name)?;
            v.parse::<Variant>()
                .map(SetOption::Variant)
                .map_err(|e| format!("setoption: option '{}': {e}", spec.name))
        }
    }
}

/// Engine settings as the options set them.
#[derive(Clone, Debug)]
pub struct Settings {
    pub variant: Variant,
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    pub move_overhead_ms: u64,
    /// Every rule option's value, by name (the games that offer one apply it).
    pub rules: Vec<(&'static str, i64)>,
    /// Search parameters and feature switches set by `setoption`.
    pub search: SearchSettings,
    /// The loaded evaluation weights text, if any.
    pub eval_text: Option<Arc<String>>,
}

impl Settings {
    pub fn new(variant: Variant) -> Self {
        Settings {
            variant,
            hash_mb: spin_default("Hash") as usize,
            threads: spin_default("Threads") as usize,
            multipv: spin_default("MultiPV") as usize,
            ponder: false,
            move_overhead_ms: spin_default("Move Overhead") as u64,
            rules: Variant::all_rule_options()
                .iter()
                .map(|o| (o.name, o.default))
                .collect(),
            search: SearchSettings::default(),
            eval_text: None,
        }
    }

    /// Apply a validated option that changes only settings (not the table or position).
    pub fn apply(&mut self, opt: &SetOption) {
        match *opt {
            SetOption::Variant(v) => self.variant = v,
            SetOption::Hash(mb) => self.hash_mb = mb,
            SetOption::Threads(n) => self.threads = n,
            SetOption::MultiPv(n) => self.multipv = n,
            SetOption::ClearHash => {}
            SetOption::Ponder(b) => self.ponder = b,
            SetOption::MoveOverhead(ms) => self.move_overhead_ms = ms,
            SetOption::Rule(name, v) => {
                if let Some(r) = self.rules.iter_mut().find(|(n, _)| *n == name) {
                    r.1 = v;
                }
            }
            // Both checked by `parse_setoption`.
            SetOption::Feature(name, on) => {
                let _ = self.search.set(name, on as i64);
            }
            SetOption::Param(name, v) => {
                let _ = self.search.set(name, v);
            }
        }
    }

    /// What a search started now runs with.
    pub fn search_options(&self) -> Options {
        Options {
            threads: self.threads,
            multipv: self.multipv,
            move_overhead_ms: self.move_overhead_ms,
            eval_text: self.eval_text.clone(),
            settings: self.search.clone(),
        }
    }
}
