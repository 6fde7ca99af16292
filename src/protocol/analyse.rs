//! `tinh analyse`: a position, the search's progress in readable lines, the best move.

use crate::variant::Variant;

#[derive(clap::Args, Debug, Clone)]
pub struct AnalyseArgs {
    #[arg(long)]
    pub fen: Option<String>,
    #[arg(long)]
    pub moves: Option<String>,
    #[arg(long)]
    pub depth: Option<u32>,
    #[arg(long)]
    pub movetime: Option<u64>,
    #[arg(long)]
    pub nodes: Option<u64>,
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
}

pub fn run(_variant: Variant, _args: AnalyseArgs) -> Result<(), String> {
    Err("analyse is not written yet".into())
}
