//! The games the server holds: each behind its own lock, with a version channel that
//! wakes the pages watching it; a cap on their number; and the janitor that stops the
//! engine of a game nobody watches and forgets games left alone, so a server that runs
//! for hours holds no more than its cap.

use super::engine::{Engine, Event, Level};
use super::session::{Player, Refusal, Session};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};
use tinh::variant::Variant;
use tokio::sync::watch;

/// Limits of the server's memory and processes.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_games: usize,
    /// Stop a game's engine after this long with no page attached and no request.
    pub engine_idle: Duration,
    /// Forget a game after this long with no page attached and no request.
    pub game_idle: Duration,
}

pub struct GameCell {
    session: Mutex<Session>,
    version: watch::Sender<u64>,
    closed: AtomicBool,
}

impl GameCell {
    fn lock(&self) -> MutexGuard<'_, Session> {
        // A panic inside one request must not make the game unusable.
        self.session.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Run `f` on the session as a request: marks activity, lets the engine act on the
    /// result, and wakes the watching pages.
    pub fn with<R>(self: &Arc<Self>, f: impl FnOnce(&mut Session) -> R) -> R {
        let mut s = self.lock();
        s.last_active = Instant::now();
        let r = f(&mut s);
        self.drive(&mut s);
        s.revision += 1;
        drop(s);
        self.version.send_modify(|v| *v += 1);
        r
    }

    /// Read the session without touching it (the event streams).
    pub fn peek<R>(&self, f: impl FnOnce(&Session) -> R) -> R {
        f(&self.lock())
    }

    fn drive(self: &Arc<Self>, s: &mut Session) {
        if self.is_closed() {
            return;
        }
        let weak = Arc::downgrade(self);
        s.drive(|variant, level| start_engine(weak, variant, level));
    }

    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }

    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }

    /// End the game for good: stop its engine and tell its pages.
    fn close(&self) {
        self.closed.store(true, Ordering::Relaxed);
        self.lock().park_engine();
        self.version.send_modify(|v| *v += 1);
    }

    /// A page attached (its event stream opened) or detached.
    pub fn attach(self: &Arc<Self>, attached: bool) {
        self.with(|s| {
            if attached {
                s.watchers += 1;
            } else {
                s.watchers = s.watchers.saturating_sub(1);
            }
        });
    }
}

/// The engine of a game reports to the game through a weak reference: a game that is
/// gone makes its engine quit.
fn start_engine(cell: Weak<GameCell>, variant: Variant, level: Level) -> Engine {
    Engine::start(
        variant,
        level,
        Box::new(move |event: Event| match cell.upgrade() {
            Some(c) if !c.is_closed() => {
                c.with(|s| s.on_engine(event));
                true
            }
            _ => false,
        }),
    )
}

pub struct Games {
    limits: Limits,
    map: Mutex<HashMap<String, Arc<GameCell>>>,
}

impl Games {
    pub fn new(limits: Limits) -> Games {
        Games {
            limits,
            map: Mutex::new(HashMap::new()),
        }
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Arc<GameCell>>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn create(
        &self,
        variant: Variant,
        fen: Option<&str>,
        players: [Player; 2],
        seed: Option<u64>,
    ) -> Result<Arc<GameCell>, Refusal> {
        let id = format!("{:032x}", rand::random::<u128>());
        let seed = seed.unwrap_or_else(rand::random);
        let session = Session::new(id.clone(), variant, fen, players, seed)?;
        let mut map = self.map();
        if map.len() >= self.limits.max_games {
            self.evict_unwatched(&mut map);
        }
        if map.len() >= self.limits.max_games {
            return Err(Refusal {
                status: 503,
                message: format!(
                    "the board holds its limit of {} games; close a game in another tab, or start the server with a larger --max-games",
                    self.limits.max_games
                ),
            });
        }
        let cell = Arc::new(GameCell {
            session: Mutex::new(session),
            version: watch::channel(0).0,
            closed: AtomicBool::new(false),
        });
        map.insert(id, cell.clone());
        drop(map);
        cell.with(|_| ());
        Ok(cell)
    }

    /// Make room by forgetting the game no page has watched for the longest time.
    fn evict_unwatched(&self, map: &mut HashMap<String, Arc<GameCell>>) {
        let oldest = map
            .iter()
            .filter_map(|(id, c)| c.peek(|s| (s.watchers == 0).then_some((s.last_active, id))))
            .min()
            .map(|(_, id)| id.clone());
        if let Some(id) = oldest
            && let Some(cell) = map.remove(&id)
        {
            log::info!("game {id} forgotten to make room for a new one");
            cell.close();
        }
    }

    pub fn get(&self, id: &str) -> Result<Arc<GameCell>, Refusal> {
        self.map().get(id).cloned().ok_or_else(|| Refusal {
            status: 404,
            message: format!(
                "no game '{id}' here (it ended, or was left alone too long): start a new game"
            ),
        })
    }

    pub fn remove(&self, id: &str) -> Result<(), Refusal> {
        let cell = self.map().remove(id);
        match cell {
            Some(c) => {
                c.close();
                Ok(())
            }
            None => self.get(id).map(|_| ()),
        }
    }

    /// (games held, engine processes running).
    pub fn counts(&self) -> (usize, usize) {
        let map = self.map();
        let engines = map
            .values()
            .filter(|c| c.peek(|s| s.engine_running()))
            .count();
        (map.len(), engines)
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// One round of the janitor: park idle engines, forget abandoned games.
    pub fn sweep(&self) {
        let mut map = self.map();
        let now = Instant::now();
        map.retain(|id, cell| {
            let (idle, watched) = cell.peek(|s| (now - s.last_active, s.watchers > 0));
            if watched {
                return true;
            }
            if idle >= self.limits.game_idle {
                log::info!("game {id} forgotten after {idle:?} without a page");
                cell.close();
                return false;
            }
            if idle >= self.limits.engine_idle {
                let parked = cell.lock().park_engine();
                if parked {
                    log::info!("engine of game {id} stopped: no page for {idle:?}");
                    cell.version.send_modify(|v| *v += 1);
                }
            }
            true
        });
    }

    /// Forget every game (shutdown): their engines quit.
    pub fn clear(&self) {
        for (_, cell) in self.map().drain() {
            cell.close();
        }
    }
}
