//! The transposition table: shared by all search threads without locks. Each entry is two
//! `AtomicU64`s, the key XOR-ed with the data and the data, so a torn write (two threads
//! writing one entry at once) shows up as a key mismatch and is ignored, never as a wrong
//! hit. Entries are grouped in 64-byte clusters of four; replacement prefers an empty
//! slot, then the same position, then the shallowest or oldest entry.

use super::params::SearchParams;
use crate::game::{MATE_BOUND, Score};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU8, AtomicU64, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    None = 0,
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

impl TtBound {
    /// The bound a value found with window (alpha, beta), alpha < beta, gives: at or
    /// below alpha an upper bound, at or above beta a lower bound, else exact.
    #[inline]
    pub fn of(value: Score, alpha: Score, beta: Score) -> Self {
        if value <= alpha {
            TtBound::Upper
        } else if value >= beta {
            TtBound::Lower
        } else {
            TtBound::Exact
        }
    }

    fn from_bits(b: u64) -> Self {
        match b & 3 {
            1 => TtBound::Upper,
            2 => TtBound::Lower,
            3 => TtBound::Exact,
            _ => TtBound::None,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub mv: u16,
    pub score: Score,
    pub eval: Score,
    pub depth: i32,
    pub bound: TtBound,
}

#[repr(C, align(64))]
struct Cluster {
    slots: [(AtomicU64, AtomicU64); 4],
}

pub struct TranspositionTable {
    clusters: Clusters,
    age: AtomicU8,
    /// The replacement parameters of the search in progress (`TtKeepDeeper`,
    /// `TtAgeWeight`), set by `new_search`.
    keep_deeper: AtomicI32,
    age_weight: AtomicI32,
}

// Data layout: move 16 | score 16 | eval 16 | depth 8 | bound 2 | age 6.
fn pack(mv: u16, score: Score, eval: Score, depth: i32, bound: TtBound, age: u8) -> u64 {
    (mv as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (((depth.clamp(-1, 254) + 1) as u8 as u64) << 48)
        | ((bound as u64) << 56)
        | (((age & 63) as u64) << 58)
}

fn unpack(data: u64) -> (TtHit, u8) {
    (
        TtHit {
            mv: data as u16,
            score: (data >> 16) as u16 as i16 as Score,
            eval: (data >> 32) as u16 as i16 as Score,
            depth: ((data >> 48) & 0xff) as i32 - 1,
            bound: TtBound::from_bits(data >> 56),
        },
        ((data >> 58) & 63) as u8,
    )
}

/// Mate scores are stored relative to the node (distance from here), not the root.
pub fn score_to_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

pub fn score_from_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

impl TtHit {
    /// The stored score, if it settles a search of (alpha, beta) at `ply` by itself: an
    /// exact score, or a bound on the right side of the window.
    #[inline]
    pub fn cutoff(&self, alpha: Score, beta: Score, ply: usize) -> Option<Score> {
        let s = score_from_tt(self.score, ply);
        match self.bound {
            TtBound::Exact => Some(s),
            TtBound::Lower if s >= beta => Some(s),
            TtBound::Upper if s <= alpha => Some(s),
            _ => None,
        }
    }
}

/// The largest table the `Hash` option offers, in MiB: half the machine's physical memory
/// (`MemTotal` in `/proc/meminfo`), so that the advertised range is one the machine can
/// honour; 4096 where the system does not say. Never below the option's default (64).
pub fn max_hash_mb() -> usize {
    static MAX: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| {
        memory_mb("MemTotal")
            .map(|total| total / 2)
            .unwrap_or(4096)
            .clamp(64, 1 << 25)
    })
}

/// A field of `/proc/meminfo` (`MemTotal`, `MemAvailable`) in MiB; `None` where the system
/// has no such file (not Linux) or the field is missing.
fn memory_mb(field: &str) -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_meminfo(&text, field)
}

fn parse_meminfo(text: &str, field: &str) -> Option<usize> {
    let line = text.lines().find(|l| l.split(':').next() == Some(field))?;
    let kb: usize = line
        .split(':')
        .nth(1)?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024)
}

/// The table's memory: `len` clusters on a 64-byte boundary (a 2 MiB one for a table of
/// 2 MiB or more), zeroed by the allocator.
///
/// Why not a `Vec<Cluster>`: the system allocator zeroes memory of an alignment above 16
/// bytes by writing it, so a 64 MiB table cost 35 ms at start-up (up to 0.9 s on a loaded
/// machine, all charged to the first `go` of a piped script), and a large `Hash` wrote
/// every byte before the first search. Memory of 16-byte alignment comes zeroed from
/// `calloc`, as pages the system zeroes when first touched; the boundary is found inside
/// it.
///
/// Why 2 MiB: every probe lands on a random cluster, so with 4 KiB pages nearly every
/// probe also misses the TLB. On Linux the table asks for transparent huge pages
/// (`madvise`), which the kernel gives only to 2 MiB-aligned ranges; on an idle machine
/// the Reveal Chess start reached depth 9 1.24 times as fast with them, chess 1.15 times.
struct Clusters {
    base: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
    first: *const Cluster,
    len: usize,
    /// The thread that faults the huge pages in (see `fault_in`), joined before the
    /// memory goes.
    fault_in: Option<FaultIn>,
}

// SAFETY: `Clusters` owns its memory alone, and a `Cluster` is atomics only (Sync).
unsafe impl Send for Clusters {}
unsafe impl Sync for Clusters {}

impl std::ops::Deref for Clusters {
    type Target = [Cluster];
    fn deref(&self) -> &[Cluster] {
        // SAFETY: `first` points at `len` zero-initialised clusters inside the allocation,
        // 64-byte aligned (see `allocate`); all-zero bytes are a valid `Cluster`.
        unsafe { std::slice::from_raw_parts(self.first, self.len) }
    }
}

impl Drop for Clusters {
    fn drop(&mut self) {
        if let Some(f) = self.fault_in.take() {
            // It touches this memory: stopped and done before the memory goes.
            f.stop.store(true, Ordering::Relaxed);
            let _ = f.thread.join();
        }
        // SAFETY: allocated in `allocate` with exactly this layout.
        unsafe { std::alloc::dealloc(self.base.as_ptr(), self.layout) }
    }
}

/// The size of a huge page on x86-64 and most Linux machines: the table's alignment.
const HUGE_PAGE: usize = 2 << 20;

/// Asks Linux to back the range with transparent huge pages before it is touched; whether
/// the advice was taken. Only advice: where the kernel has them off (or on other systems)
/// the table keeps 4 KiB pages.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, bytes: usize) -> bool {
    // SAFETY: the range lies inside one live allocation; MADV_HUGEPAGE changes no contents.
    let rc = unsafe { libc::madvise(start.cast(), bytes, libc::MADV_HUGEPAGE) };
    if rc != 0 {
        log::debug!(
            "transposition table: no huge pages ({})",
            std::io::Error::last_os_error()
        );
    }
    rc == 0
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _bytes: usize) -> bool {
    false
}

/// `n` empty clusters, or an error if the allocator cannot give them: a table that does
/// not fit is an error line, never an abort.
fn allocate(n: usize) -> Result<Clusters, String> {
    let fail = || format!("cannot allocate {n} table clusters");
    let len = n.max(1);
    let table_bytes = len
        .checked_mul(std::mem::size_of::<Cluster>())
        .ok_or_else(fail)?;
    let align = if table_bytes >= HUGE_PAGE {
        HUGE_PAGE
    } else {
        std::mem::align_of::<Cluster>()
    };
    let bytes = table_bytes.checked_add(align).ok_or_else(fail)?;
    let layout = std::alloc::Layout::from_size_align(bytes, 16).map_err(|_| fail())?;
    // SAFETY: the layout's size is not zero.
    let base =
        std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) }).ok_or_else(fail)?;
    let offset = base.as_ptr().align_offset(align);
    // SAFETY: `offset` < `align`, so `n` clusters from there end inside the allocation.
    let first = unsafe { base.as_ptr().add(offset) } as *const Cluster;
    let mut fault_in = None;
    if align == HUGE_PAGE && advise_huge_pages(first as *mut u8, table_bytes) {
        fault_in = start_fault_in(first, len);
    }
    Ok(Clusters {
        base,
        layout,
        first,
        len,
        fault_in,
    })
}

/// Faults every huge page of a new table in, on a thread of its own. A huge page is
/// zeroed whole at its first write, so a search on a fresh table stalled on dozens of them
/// in its first thousand probes, before its first look at the clock (`go movetime 20`
/// right after start-up took up to 229 ms on a loaded 2-core machine, where the 64 MiB
/// take about 0.2 s to fault in); with 4 KiB pages the same cost was spread over the
/// search. The thread starts at once and the engine answers meanwhile (`ucinewgame`
/// writes the whole table anyway). `None` if no thread could be started: then the
/// search faults the pages in itself.
fn start_fault_in(first: *const Cluster, len: usize) -> Option<FaultIn> {
    let table = Table(first, len);
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let thread_stop = stop.clone();
    let thread = std::thread::Builder::new()
        .name("tt-fault-in".into())
        .spawn(move || table.fault_in(&thread_stop))
        .ok()?;
    Some(FaultIn { thread, stop })
}

/// The thread of `start_fault_in`, and its signal to give up (a table dropped early).
struct FaultIn {
    thread: std::thread::JoinHandle<()>,
    stop: std::sync::Arc<AtomicBool>,
}

/// A table's clusters, for the fault-in thread: `Clusters` joins it before the memory goes.
struct Table(*const Cluster, usize);

// SAFETY: a `Cluster` is atomics only; the memory outlives the thread (see above).
unsafe impl Send for Table {}

impl Table {
    fn fault_in(self, stop: &AtomicBool) {
        let Table(first, len) = self;
        let per_page = HUGE_PAGE / std::mem::size_of::<Cluster>();
        for i in (0..len).step_by(per_page) {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            // SAFETY: `i` < `len`, inside the live table. An atomic write that changes
            // nothing (a search may be storing into the same cluster); not `fetch_or(0)`,
            // which the compiler turns into a load, and a load maps the shared zero page.
            let cluster = unsafe { &*first.add(i) };
            let _ = cluster.slots[0]
                .0
                .compare_exchange(0, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
}

impl TranspositionTable {
    /// A table of `mb` MiB. Panics if it cannot be allocated: for the fixed sizes of
    /// bench and tests; sizes a user chooses go through `try_new`.
    pub fn new(mb: usize) -> Self {
        Self::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of `mb` MiB, or why not: more than the memory available now (the system
    /// would let the allocation succeed and then kill the process when the table is
    /// used), or an allocation that fails.
    pub fn try_new(mb: usize) -> Result<Self, String> {
        let mb = mb.max(1);
        if let Some(available) = memory_mb("MemAvailable")
            && mb > available
        {
            return Err(format!(
                "a {mb} MiB table does not fit: {available} MiB of memory is available"
            ));
        }
        let bytes = mb
            .checked_mul(1 << 20)
            .ok_or_else(|| format!("a {mb} MiB table is beyond this machine's address space"))?;
        let n = (bytes / std::mem::size_of::<Cluster>()).max(1);
        let clusters = allocate(n).map_err(|e| format!("a {mb} MiB table: {e}"))?;
        let defaults = SearchParams::default();
        Ok(TranspositionTable {
            clusters,
            age: AtomicU8::new(0),
            keep_deeper: AtomicI32::new(defaults.tt_keep_deeper),
            age_weight: AtomicI32::new(defaults.tt_age_weight),
        })
    }

    /// The table's size in MiB.
    pub fn size_mb(&self) -> usize {
        (self.clusters.len() * std::mem::size_of::<Cluster>()) >> 20
    }

    pub fn clear(&self) {
        for c in self.clusters.iter() {
            for (k, d) in &c.slots {
                k.store(0, Ordering::Relaxed);
                d.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// A new search begins: older entries become preferred victims.
    pub fn new_search(&self, params: &SearchParams) {
        self.keep_deeper
            .store(params.tt_keep_deeper, Ordering::Relaxed);
        self.age_weight
            .store(params.tt_age_weight, Ordering::Relaxed);
        self.age.store(
            (self.age.load(Ordering::Relaxed) + 1) & 63,
            Ordering::Relaxed,
        );
    }

    #[inline]
    fn cluster(&self, key: u64) -> &Cluster {
        // Multiply-shift maps the key onto the table without a modulo.
        let idx = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[idx]
    }

    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch(
                self.cluster(key) as *const Cluster as *const i8,
                _MM_HINT_T0,
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let c = self.cluster(key);
        for (k, d) in &c.slots {
            let data = d.load(Ordering::Relaxed);
            if k.load(Ordering::Relaxed) ^ data == key && data != 0 {
                let (hit, _) = unpack(data);
                if hit.bound != TtBound::None {
                    return Some(hit);
                }
            }
        }
        None
    }

    #[inline]
    pub fn store(&self, key: u64, mv: u16, score: Score, eval: Score, depth: i32, bound: TtBound) {
        let c = self.cluster(key);
        let age = self.age.load(Ordering::Relaxed);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, (k, d)) in c.slots.iter().enumerate() {
            let data = d.load(Ordering::Relaxed);
            if data == 0 {
                victim = i;
                break;
            }
            if k.load(Ordering::Relaxed) ^ data == key {
                let (old, _) = unpack(data);
                // Keep a result of this position searched more than `TtKeepDeeper`
                // plies deeper, whatever its bound, unless ours is exact.
                if bound != TtBound::Exact
                    && old.depth > depth + self.keep_deeper.load(Ordering::Relaxed)
                {
                    return;
                }
                let mv = if mv == 0 { old.mv } else { mv };
                let new = pack(mv, score, eval, depth, bound, age);
                k.store(key ^ new, Ordering::Relaxed);
                d.store(new, Ordering::Relaxed);
                return;
            }
            let (old, old_age) = unpack(data);
            let age_gap = (age.wrapping_sub(old_age) & 63) as i32;
            let worth = old.depth - self.age_weight.load(Ordering::Relaxed) * age_gap;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let new = pack(mv, score, eval, depth, bound, age);
        let (k, d) = &c.slots[victim];
        k.store(key ^ new, Ordering::Relaxed);
        d.store(new, Ordering::Relaxed);
    }

    /// Permille of sampled slots written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.clusters.len().min(250);
        let mut used = 0;
        for c in &self.clusters[..sample] {
            for (_, d) in &c.slots {
                let data = d.load(Ordering::Relaxed);
                if data != 0 && unpack(data).1 == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        tt.store(0xdead_beef_1234_5678, 0x1234, -321, 45, 7, TtBound::Lower);
        let hit = tt.probe(0xdead_beef_1234_5678).expect("hit");
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound),
            (0x1234, -321, 45, 7, TtBound::Lower)
        );
        assert!(tt.probe(0x1111).is_none());
    }

    #[test]
    fn mate_scores_are_node_relative() {
        let s = MATE_BOUND + 50;
        assert_eq!(score_from_tt(score_to_tt(s, 9), 9), s);
        assert_eq!(score_from_tt(score_to_tt(-s, 4), 4), -s);
        assert_eq!(score_to_tt(123, 9), 123);
    }

    #[test]
    fn a_table_that_cannot_be_allocated_is_an_error_not_an_abort() {
        // Beyond the address space: refused before any memory is touched.
        assert!(TranspositionTable::try_new(usize::MAX).is_err());
        assert!(TranspositionTable::try_new(1 << 40).is_err());
        // The allocation itself failing (2^62 bytes) is an error too.
        assert!(allocate(1 << 56).is_err());
        assert!(allocate(usize::MAX).is_err());
        let tt = TranspositionTable::try_new(2).expect("2 MiB");
        assert_eq!(tt.size_mb(), 2);
    }

    #[test]
    fn a_new_table_is_empty_and_its_clusters_fill_cache_lines() {
        for mb in [1, 3, 64] {
            let tt = TranspositionTable::new(mb);
            // From 2 MiB on, the table starts on a huge-page boundary.
            let align = if mb >= 2 { HUGE_PAGE } else { 64 };
            assert_eq!(tt.clusters.as_ptr() as usize % align, 0, "{mb} MiB");
            assert_eq!(tt.clusters.len(), (mb << 20) / 64);
            assert!(tt.clusters.iter().all(|c| {
                c.slots
                    .iter()
                    .all(|(k, d)| k.load(Ordering::Relaxed) == 0 && d.load(Ordering::Relaxed) == 0)
            }));
            assert_eq!(tt.hashfull(), 0);
        }
    }

    #[test]
    fn a_table_dropped_or_used_while_its_pages_fault_in_is_sound() {
        // Dropped at once: the fault-in thread is stopped and joined before the memory goes.
        for _ in 0..20 {
            drop(TranspositionTable::new(64));
        }
        // Used at once: stores made while the thread writes its no-ops are kept.
        let tt = TranspositionTable::new(64);
        let keys: Vec<u64> = (1..=2000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for &k in &keys {
            tt.store(k, 7, 11, 13, 5, TtBound::Exact);
        }
        if let Some(f) = tt.clusters.fault_in.as_ref() {
            while !f.thread.is_finished() {
                std::thread::yield_now();
            }
        }
        assert!(
            keys.iter()
                .all(|&k| tt.probe(k).is_some_and(|h| h.score == 11))
        );
    }

    #[test]
    fn memory_figures_are_read_in_mib() {
        let text = "MemTotal:       24684084 kB\nMemFree:  1 kB\nMemAvailable:   23254092 kB\n";
        assert_eq!(parse_meminfo(text, "MemTotal"), Some(24105));
        assert_eq!(parse_meminfo(text, "MemAvailable"), Some(22709));
        assert_eq!(parse_meminfo(text, "Mem"), None);
        assert_eq!(parse_meminfo("MemTotal: lots\n", "MemTotal"), None);
        let max = max_hash_mb();
        assert!((64..=1 << 25).contains(&max));
    }

    #[test]
    fn torn_entry_is_a_miss() {
        let tt = TranspositionTable::new(1);
        let key = 0x0123_4567_89ab_cdef;
        tt.store(key, 1, 10, 10, 3, TtBound::Exact);
        // Corrupt the data half as a racing writer would: the XOR check must reject it.
        let c = tt.cluster(key);
        for (_, d) in &c.slots {
            if d.load(Ordering::Relaxed) != 0 {
                d.fetch_xor(1 << 20, Ordering::Relaxed);
            }
        }
        assert!(tt.probe(key).is_none());
    }
}
