//! `tinh serve`: a local web server with one page, a board on which people play Math
//! Chess, Reveal Chess and chess against Tinh (five levels or full strength) or each
//! other on the same device. The server referees every game with Tinh's rules code and
//! runs one engine process per game (`tinh uci`, spoken to through protocol.md).
//!
//! Layout: `http` (routes, guards, assets, event streams), `games` (the games held, their
//! limits and the janitor), `session` (one game: referee, undo, state, PGN), `engine` (the
//! engine process actor and the level mapping), `view` (what the page draws of each game),
//! `assets/` (the page: HTML, JS, CSS and SVG, embedded in the binary; no build step).
//!
//! Web stack: axum on Tokio (hyper underneath): the most used and best kept Rust HTTP
//! stack, with server-sent events built in; trimmed to HTTP/1 without its default
//! features. It lives in the binary, not the library, so the test programs that link the
//! library do not carry it.

mod engine;
mod games;
mod http;
mod session;
mod view;

use games::{Games, Limits};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on. The default answers this machine only; another address lets
    /// anyone who can reach it play.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Most games held at once (each may run one engine process).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub max_games: u64,
    /// Seconds without a page attached after which a game's engine is stopped (it
    /// restarts when the game goes on).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub engine_idle: u64,
    /// Seconds without a page attached after which a game is forgotten.
    #[arg(long, default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..=604_800))]
    pub game_idle: u64,
}

pub fn run(args: ServeArgs) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    let result = runtime.block_on(serve(args));
    // Engine actors still running are dropped here, which kills their processes.
    runtime.shutdown_timeout(Duration::from_secs(1));
    result
}

async fn serve(args: ServeArgs) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
        .await
        .map_err(|e| {
            format!(
                "cannot listen on {}:{}: {e} (try another --port, or --port 0 for any free one)",
                args.host, args.port
            )
        })?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the listening address: {e}"))?;
    let local_only = args.host == "localhost" || addr.ip().is_loopback();
    if !local_only {
        log::warn!(
            "listening on {addr}: anyone who can reach this address can play and start engines"
        );
    }
    let engine_idle = Duration::from_secs(args.engine_idle);
    let app = Arc::new(http::App {
        games: Games::new(Limits {
            max_games: args.max_games as usize,
            engine_idle,
            game_idle: Duration::from_secs(args.game_idle),
        }),
        hosts: if local_only {
            allowed_hosts(addr)
        } else {
            Vec::new()
        },
        keep_alive: (engine_idle / 2).clamp(Duration::from_secs(1), Duration::from_secs(15)),
    });
    let janitor = {
        let app = app.clone();
        let every = (engine_idle / 2).clamp(Duration::from_millis(200), Duration::from_secs(5));
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                app.games.sweep();
            }
        })
    };
    let shown = if addr.ip().is_unspecified() {
        SocketAddr::new(IpAddr::from([127, 0, 0, 1]), addr.port())
    } else {
        addr
    };
    println!("Tinh board: http://{shown}/  (Ctrl-C stops the server)");
    let server = axum::serve(listener, http::router(app.clone()));
    let result = tokio::select! {
        r = server => r.map_err(|e| format!("server error: {e}")),
        _ = shutdown_signal() => {
            eprintln!("stopping: closing {} game(s)", app.games.counts().0);
            Ok(())
        }
    };
    janitor.abort();
    app.games.clear();
    // Let the engines read their `quit`.
    tokio::time::sleep(Duration::from_millis(200)).await;
    result
}

/// The Host header values a loopback server answers to.
fn allowed_hosts(addr: SocketAddr) -> Vec<String> {
    let port = addr.port();
    let mut hosts = vec![
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ];
    if port == 80 {
        hosts.extend(["127.0.0.1", "localhost", "[::1]"].map(String::from));
    }
    hosts
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = ctrl_c => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = ctrl_c.await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}
