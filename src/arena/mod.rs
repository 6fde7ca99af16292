//! The match runner: engine processes, openings, referee, adjudication, Elo/SPRT, PGN.
//! (Skeleton: being written.)

pub fn run_match_cli(_args: &[String]) -> Result<(), String> {
    Err("match is not written yet".into())
}

pub fn genopenings_cli(_args: &[String]) -> Result<(), String> {
    Err("genopenings is not written yet".into())
}
