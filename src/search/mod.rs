//! The searcher: iterative deepening, alpha-beta, chance nodes, transposition table,
//! move ordering, time management and Lazy SMP threads, generic over `Game`.
//! (Skeleton: being written.)

pub mod bench;
