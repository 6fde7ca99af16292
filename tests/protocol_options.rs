//! The protocol's options: `setoption` parsing and range checks, and the `uci` listing.

use tinh::protocol::options::*;
use tinh::search::params::SearchParams;
use tinh::variant::Variant;

fn toks(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

#[test]
fn setoption_parses_names_case_insensitively_and_checks_ranges() {
    assert_eq!(
        parse_setoption(&toks("name hash value 128")),
        Ok(SetOption::Hash(128))
    );
    assert_eq!(
        parse_setoption(&toks("name move overhead value 100")),
        Ok(SetOption::MoveOverhead(100))
    );
    assert_eq!(
        parse_setoption(&toks("name Clear Hash")),
        Ok(SetOption::ClearHash)
    );
    assert_eq!(
        parse_setoption(&toks("name UCI_Variant value Chess")),
        Ok(SetOption::Variant(Variant::Chess))
    );
    assert_eq!(
        parse_setoption(&toks("name Ponder value TRUE")),
        Ok(SetOption::Ponder(true))
    );
    assert_eq!(
        parse_setoption(&toks("name PointTarget value 45")),
        Ok(SetOption::Rule("PointTarget", 45))
    );
    assert_eq!(
        parse_setoption(&toks("name rfpmargin value 90")),
        Ok(SetOption::Param("RfpMargin", 90))
    );
    // A path keeps its inner spaces; no value (or `<empty>`) means the compiled-in weights.
    assert_eq!(
        parse_setoption(&toks("name EvalFile value /tmp/my weights.txt")),
        Ok(SetOption::EvalFile("/tmp/my weights.txt".into()))
    );
    for empty in [
        "name EvalFile",
        "name evalfile value",
        "name EvalFile value <empty>",
    ] {
        assert_eq!(
            parse_setoption(&toks(empty)),
            Ok(SetOption::EvalFile(String::new()))
        );
    }
    for bad in [
        "name Hash value 0",
        "name Hash value 999999999",
        "name Hash value x",
        "name Hash",
        "name Threads value 257",
        "name PointTarget value 46",
        "name PointTarget value -1",
        "name Move Overhead value 5001",
        "name Ponder value maybe",
        "name UCI_Variant value shogi",
        "name Nonsense value 1",
        "name RfpMargin value 100000",
        "name RfpMargin",
        "Hash value 1",
        "name",
    ] {
        assert!(parse_setoption(&toks(bad)).is_err(), "accepted '{bad}'");
    }
}

#[test]
fn options_listed() {
    let s = option_lines(Variant::RevealChess);
    assert!(s.contains(
        "option name UCI_Variant type combo default revealchess var mathchess var revealchess var chess"
    ));
    let max = tinh::search::tt::max_hash_mb();
    assert!(s.contains(&format!(
        "option name Hash type spin default 64 min 1 max {max}"
    )));
    assert!(s.contains("option name Clear Hash type button"));
    assert!(s.contains("option name PointTarget type spin default 0 min 0 max 45"));
    assert!(s.contains("option name EvalFile type string default <empty>"));
    // Search parameters are not listed by `uci`, only by `params`.
    assert!(!s.contains("RfpMargin"));
    let p = param_lines(&SearchParams::default());
    assert!(p.contains("option name RfpMargin type spin default 80 min 0 max 1000"));
}

#[test]
fn every_game_s_search_defaults_are_valid_settings() {
    use tinh::search::params::SearchSettings;
    for v in Variant::ALL {
        let defaults = tinh::with_game!(v.startpos(), g => g.search_defaults());
        for &(name, value) in defaults {
            SearchSettings::with(&[(name, value as i64)])
                .unwrap_or_else(|e| panic!("{v}: search default {name}={value}: {e}"));
        }
    }
}
