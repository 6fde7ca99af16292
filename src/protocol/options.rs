//! The engine's options: what `uci` lists, how `setoption` is parsed and checked, and the
//! settings they make. Besides the fixed options there are the games' rule options (each
//! game lists its own, e.g. a point target) and the search parameters
//! (`search/params.rs`), which `setoption` accepts by name but `uci` does not list: the
//! `params` command lists them for tuners.

use crate::game::RuleOption;
use crate::search::params::{self, SearchParams, SearchSettings};
use crate::search::skill::{FULL_SKILL, LEVEL_NAMES, RANDOM_SKILL, StrengthRequest};
use crate::search::{FEATURES, FeatureSpec, Options};
use crate::variant::Variant;
use std::sync::Arc;

#[derive(Clone, Copy, Debug)]
enum OptKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    Combo,
    /// A UCI string option whose default is empty (`default <empty>`).
    Text,
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
    // A weights text (`tinh tune --out`) over the game's compiled-in evaluation weights.
    OptSpec {
        name: "EvalFile",
        kind: OptKind::Text,
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

/// The largest `Seed`: kept to 31 bits, which every GUI's spin control holds.
pub const MAX_SEED: i64 = i32::MAX as i64;

/// The `UCI_Elo` range: from the lowest calibrated rating of any game (the random mover's
/// 0) to the highest (the strongest game's level 5); each game reads a value above its
/// own range as its level 5.
fn elo_range() -> (i64, i64) {
    Variant::ALL
        .iter()
        .fold((i64::MAX, i64::MIN), |(lo, hi), v| {
            let (a, b) = with_game!(v.startpos(), g => g.strength_scale().elo_range());
            (lo.min(a), hi.max(b))
        })
}

/// `UCI_Elo`'s default: the lowest game's level 1, so that a GUI that turns on
/// `UCI_LimitStrength` without a value gets a beginner, not the random mover.
fn elo_default() -> i64 {
    Variant::ALL
        .iter()
        .map(|v| {
            with_game!(v.startpos(), g => {
                let scale = g.strength_scale();
                scale.elo_for_skill(scale.levels[0]).round() as i64
            })
        })
        .min()
        .unwrap_or(0)
}

/// The options that set the playing strength (`search/skill.rs`) and its seed.
fn strength_specs() -> [OptSpec; 5] {
    let (elo_min, elo_max) = elo_range();
    let spin = |name, default, min, max| OptSpec {
        name,
        kind: OptKind::Spin { default, min, max },
    };
    [
        spin("Level", 0, 0, LEVEL_NAMES.len() as i64),
        OptSpec {
            name: "UCI_LimitStrength",
            kind: OptKind::Check { default: false },
        },
        spin("UCI_Elo", elo_default(), elo_min, elo_max),
        spin("Skill Level", FULL_SKILL, RANDOM_SKILL, FULL_SKILL),
        spin("Seed", 0, 0, MAX_SEED),
    ]
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
            out.extend(strength_specs());
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
            OptKind::Text => format!("option name {} type string default <empty>", o.name),
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
    /// A weights file to load over the compiled-in weights; empty: the compiled-in ones.
    EvalFile(String),
    /// `Level` 1..=5, 0 none.
    Level(u8),
    LimitStrength(bool),
    Elo(i64),
    SkillLevel(i64),
    /// `Seed`; 0: a new seed from the clock for every game.
    Seed(u64),
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
                "Level" => SetOption::Level(n as u8),
                "UCI_Elo" => SetOption::Elo(n),
                "Skill Level" => SetOption::SkillLevel(n),
                "Seed" => SetOption::Seed(n as u64),
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
            Ok(match spec.name {
                "Ponder" => SetOption::Ponder(b),
                "UCI_LimitStrength" => SetOption::LimitStrength(b),
                feature => SetOption::Feature(feature, b),
            })
        }
        OptKind::Button => Ok(SetOption::ClearHash),
        OptKind::Text => {
            // `<empty>` is how GUIs send back an empty string option's default.
            let v = value.unwrap_or_default();
            let v = if v == "<empty>" { String::new() } else { v };
            Ok(SetOption::EvalFile(v))
        }
        OptKind::Combo => {
            let v = need_value(spec.name)?;
            v.parse::<Variant>()
                .map(SetOption::Variant)
                .map_err(|e| format!("setoption: option '{}': {e}", spec.name))
        }
    }
}

/// Whether a weights text names only weights of `variant`'s evaluation, each once.
fn weights_fit(variant: Variant, text: &str) -> Result<(), String> {
    with_game!(&variant.startpos(), g => crate::eval::weights_for(g, Some(text)).map(|_| ()))
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
    /// The loaded evaluation weights text, if any, and the file it came from.
    pub eval_text: Option<Arc<String>>,
    pub eval_file: String,
    /// The strength options as set.
    pub strength: StrengthRequest,
    /// The `Seed` option (0: from the clock).
    pub seed: u64,
    /// The seed of the game being played: `seed`, or with `Seed` 0 one drawn from the
    /// clock when the engine starts and at each new game.
    pub game_seed: u64,
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
            eval_file: String::new(),
            strength: StrengthRequest {
                elo: spin_default("UCI_Elo"),
                ..Default::default()
            },
            seed: 0,
            game_seed: crate::seed::from_clock(),
        }
    }

    /// A new game begins (`ucinewgame`): with `Seed` 0 it gets a fresh seed from the clock,
    /// so the weakened levels do not replay the last game's moves.
    pub fn new_game(&mut self) {
        if self.seed == 0 {
            self.game_seed = crate::seed::from_clock();
            log::debug!("Seed 0: this game's seed is {}", self.game_seed);
        }
    }

    /// Apply a validated option that changes only settings (not the table or position).
    /// Only `EvalFile` can fail (the file unreadable, or not weights of the current game):
    /// the settings are then unchanged.
    pub fn apply(&mut self, opt: &SetOption) -> Result<(), String> {
        match opt {
            SetOption::EvalFile(path) => return self.load_eval_file(path),
            _ => self.apply_checked(opt),
        }
        Ok(())
    }

    fn apply_checked(&mut self, opt: &SetOption) {
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
            SetOption::EvalFile(_) => unreachable!("applied by load_eval_file"),
            SetOption::Level(n) => self.strength.level = n,
            SetOption::LimitStrength(b) => self.strength.limit_strength = b,
            SetOption::Elo(e) => self.strength.elo = e,
            SetOption::SkillLevel(s) => self.strength.skill_level = s,
            SetOption::Seed(seed) => {
                self.seed = seed;
                self.game_seed = seed;
                self.new_game();
            }
        }
    }

    /// `EvalFile`: read a weights text and check it against the current game's weights;
    /// an empty path goes back to the compiled-in weights.
    fn load_eval_file(&mut self, path: &str) -> Result<(), String> {
        if path.is_empty() {
            self.eval_text = None;
            self.eval_file.clear();
            return Ok(());
        }
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!("setoption: EvalFile: cannot read {path}: {e} (previous weights kept)")
        })?;
        weights_fit(self.variant, &text).map_err(|e| {
            format!(
                "setoption: EvalFile: {path} does not hold {} weights: {e} (previous weights kept)",
                self.variant
            )
        })?;
        self.eval_text = Some(Arc::new(text));
        self.eval_file = path.to_string();
        Ok(())
    }

    /// After a variant change: a loaded weights file that does not fit the new game is
    /// dropped; the returned line says so.
    pub fn recheck_eval_file(&mut self) -> Option<String> {
        let text = self.eval_text.as_ref()?;
        let e = weights_fit(self.variant, text).err()?;
        let line = format!(
            "EvalFile {} does not hold {} weights ({e}): compiled-in weights in use",
            self.eval_file, self.variant
        );
        self.eval_text = None;
        self.eval_file.clear();
        Some(line)
    }

    /// What a search started now runs with.
    pub fn search_options(&self) -> Options {
        Options {
            threads: self.threads,
            multipv: self.multipv,
            move_overhead_ms: self.move_overhead_ms,
            eval_text: self.eval_text.clone(),
            settings: self.search.clone(),
            strength: self.strength,
            seed: self.game_seed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_listed_once() {
        let names: Vec<String> = listed().iter().map(|o| o.name.to_lowercase()).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
    }
}
