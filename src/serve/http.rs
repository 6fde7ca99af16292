//! The HTTP face of the board: the page and its own assets (embedded in the binary; the
//! server serves nothing else), the JSON API, the event stream of each game, and the
//! guards that keep a local server safe: requests must name this server as their Host
//! (no DNS rebinding), come from its own page when a browser says where from, and send
//! JSON; bodies are small; every refusal is a JSON `{"error": ...}` with a clear message.

use super::games::{GameCell, Games};
use super::session::{Player, Refusal, Session};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::stream::{self, Stream};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tinh::variant::Variant;

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");
const ICON_SVG: &str = include_str!("assets/icon.svg");

/// Largest request body accepted.
const MAX_BODY: usize = 16 * 1024;

pub struct App {
    pub games: Games,
    /// Host header values this server answers to (empty: any, when bound to a
    /// non-loopback address on purpose).
    pub hosts: Vec<String>,
    pub keep_alive: Duration,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST);
        json_response(status, &serde_json::json!({ "error": self.message }))
    }
}

fn json_response(status: StatusCode, value: &serde_json::Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        value.to_string(),
    )
        .into_response()
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(|| asset("text/html; charset=utf-8", INDEX_HTML)))
        .route(
            "/app.js",
            get(|| asset("text/javascript; charset=utf-8", APP_JS)),
        )
        .route(
            "/style.css",
            get(|| asset("text/css; charset=utf-8", STYLE_CSS)),
        )
        .route("/icon.svg", get(|| asset("image/svg+xml", ICON_SVG)))
        .route("/api/health", get(health))
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(game_state).delete(delete_game))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/engine", post(restart_engine))
        .route("/api/games/{id}/events", get(events))
        .route("/api/games/{id}/pgn", get(pgn))
        .fallback(|| async {
            Refusal {
                status: 404,
                message: "not found".into(),
            }
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

async fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// Host, Origin and Content-Type checks, and the security headers of every answer.
async fn guard(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    if let Err(r) = check_request(&app, req.method(), req.headers()) {
        return with_security_headers(r.into_response());
    }
    with_security_headers(next.run(req).await)
}

fn check_request(app: &App, method: &Method, headers: &HeaderMap) -> Result<(), Refusal> {
    let forbidden = |m: String| Refusal {
        status: 403,
        message: m,
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !app.hosts.is_empty() && !app.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
        return Err(forbidden(format!(
            "this board answers only to {} (the request named host '{host}')",
            app.hosts.join(" or ")
        )));
    }
    if let Some(origin) = headers.get(header::ORIGIN).and_then(|h| h.to_str().ok())
        && origin != format!("http://{host}")
    {
        return Err(forbidden(format!(
            "requests from other sites ('{origin}') are refused"
        )));
    }
    if *method == Method::POST {
        let ct = headers
            .get(header::CONTENT_TYPE)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        if !ct.starts_with("application/json") {
            return Err(Refusal {
                status: 415,
                message: "send JSON with Content-Type: application/json".into(),
            });
        }
    }
    Ok(())
}

fn with_security_headers(mut r: Response) -> Response {
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
        ),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// Parse a JSON body; an empty body reads as `{}`.
fn parse_body<T: DeserializeOwned>(body: &Bytes) -> Result<T, Refusal> {
    let text = if body.iter().all(u8::is_ascii_whitespace) {
        &b"{}"[..]
    } else {
        &body[..]
    };
    serde_json::from_slice(text).map_err(|e| Refusal::bad(format!("malformed request: {e}")))
}

async fn health(State(app): State<Arc<App>>) -> Response {
    let (games, engines) = app.games.counts();
    json_response(
        StatusCode::OK,
        &serde_json::json!({
            "games": games,
            "engines": engines,
            "max_games": app.games.limits().max_games,
            "version": env!("CARGO_PKG_VERSION"),
        }),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    variant: String,
    #[serde(default)]
    fen: Option<String>,
    players: [String; 2],
    #[serde(default)]
    seed: Option<u64>,
}

async fn create_game(State(app): State<Arc<App>>, body: Bytes) -> Result<Response, Refusal> {
    let req: NewGame = parse_body(&body)?;
    let variant: Variant = req.variant.parse().map_err(Refusal::bad)?;
    let players = [
        Player::parse(&req.players[0]).map_err(Refusal::bad)?,
        Player::parse(&req.players[1]).map_err(Refusal::bad)?,
    ];
    let cell = app
        .games
        .create(variant, req.fen.as_deref(), players, req.seed)?;
    Ok(state_response(StatusCode::CREATED, &cell))
}

fn state_response(status: StatusCode, cell: &Arc<GameCell>) -> Response {
    json_response(status, &cell.peek(|s| s.state()))
}

async fn game_state(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, Refusal> {
    let cell = app.games.get(&id)?;
    cell.with(|_| ());
    Ok(state_response(StatusCode::OK, &cell))
}

async fn delete_game(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, Refusal> {
    app.games.remove(&id)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
    #[serde(default)]
    ply: Option<usize>,
}

async fn play_move(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, Refusal> {
    let req: MoveRequest = parse_body(&body)?;
    act(&app, &id, |s| s.play_human(&req.mv, req.ply))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Empty {}

async fn undo(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, Refusal> {
    parse_body::<Empty>(&body)?;
    act(&app, &id, Session::undo)
}

async fn restart_engine(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, Refusal> {
    parse_body::<Empty>(&body)?;
    act(&app, &id, Session::restart_engine)
}

/// Do `f` to game `id` and answer with the state it leaves.
fn act(
    app: &App,
    id: &str,
    f: impl FnOnce(&mut Session) -> Result<(), Refusal>,
) -> Result<Response, Refusal> {
    let cell = app.games.get(id)?;
    cell.with(f)?;
    Ok(state_response(StatusCode::OK, &cell))
}

async fn pgn(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, Refusal> {
    let cell = app.games.get(&id)?;
    let text = cell.peek(|s| s.pgn());
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8",
            ),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"tinh-game.pgn\"",
            ),
        ],
        text,
    )
        .into_response())
}

/// Counts the page as attached while its stream lives; detaching when the browser goes
/// away (the connection drops the stream) starts the game's idle clock.
struct Attached(Arc<GameCell>);

impl Drop for Attached {
    fn drop(&mut self) {
        self.0.attach(false);
    }
}

/// Where an event stream stands.
enum Phase {
    Start,
    Watch,
    Done,
}

/// Server-sent events: the whole state at once, then again after every change (changes
/// in a burst are coalesced by the version channel), and a last `closed` event when the
/// game is closed or forgotten.
async fn events(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Refusal> {
    let cell = app.games.get(&id)?;
    cell.attach(true);
    let rx = cell.subscribe();
    let s = stream::unfold(
        (Attached(cell), rx, Phase::Start),
        |(guard, mut rx, phase)| async move {
            match phase {
                Phase::Done => return None,
                // The sender lives in the game this stream holds: it never closes first.
                Phase::Watch => rx.changed().await.ok()?,
                Phase::Start => {}
            }
            rx.borrow_and_update();
            if guard.0.is_closed() {
                let ev = Event::default()
                    .event("closed")
                    .data("this game was closed");
                return Some((Ok(ev), (guard, rx, Phase::Done)));
            }
            let data = guard.0.peek(|s| s.state()).to_string();
            let ev = Event::default().event("state").data(data);
            Some((Ok(ev), (guard, rx, Phase::Watch)))
        },
    );
    Ok(Sse::new(s).keep_alive(KeepAlive::new().interval(app.keep_alive)))
}
