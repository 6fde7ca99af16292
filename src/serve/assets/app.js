// Tinh's board: draws the state the server sends (SVG), offers the legal moves the server
// lists, and sends the person's moves. The server referees everything; this page never
// decides whether a move is legal.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);
const PIECE_NAMES = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };

const ui = {
  state: null,
  revision: -1,
  flipped: false,
  selected: null,
  hoverTarget: null,
  drag: null,
  events: null,
  lastToastPly: -1,
  busy: false,
};
// Exposed for debugging from the console and for the browser test.
window.tinh = ui;

// ----- server --------------------------------------------------------------------------

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (method === 'POST') {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body || {});
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new Error('cannot reach the server (is tinh serve still running?)');
  }
  if (res.status === 204) return null;
  const text = await res.text();
  let data = null;
  try { data = JSON.parse(text); } catch (e) { /* not JSON */ }
  if (!res.ok) throw new Error((data && data.error) || text || res.statusText);
  return data;
}

function showError(msg) {
  const el = $('error');
  el.textContent = msg;
  el.hidden = !msg;
}

function accept(state) {
  if (!state || state.revision < ui.revision) return;
  ui.revision = state.revision;
  const newGame = !ui.state || ui.state.id !== state.id;
  const plyChanged = !ui.state || ui.state.ply !== state.ply || newGame;
  ui.state = state;
  if (plyChanged) {
    ui.selected = null;
    ui.hoverTarget = null;
    hidePromo();
  }
  if (newGame) {
    hideToast();
    ui.lastToastPly = -1;
  }
  render();
  if (plyChanged && !newGame) announce(state);
}

function attach(id) {
  if (ui.events) ui.events.close();
  history.replaceState(null, '', '#game=' + id);
  $('btn-pgn').href = '/api/games/' + id + '/pgn';
  const es = new EventSource('/api/games/' + id + '/events');
  ui.events = es;
  es.addEventListener('state', (ev) => accept(JSON.parse(ev.data)));
  es.addEventListener('closed', () => {
    es.close();
    if (ui.state && ui.state.id === id) {
      $('status').textContent = 'This game was closed. Start a new one.';
    }
  });
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED && ui.events === es) {
      $('status').textContent = 'Lost the connection to the server. Reload the page, or start a new game.';
    }
  };
}

async function startGame(opts) {
  const old = ui.state && ui.state.id;
  const state = await api('POST', '/api/games', opts);
  if (old) api('DELETE', '/api/games/' + old).catch(() => {});
  ui.revision = -1;
  ui.state = null;
  ui.flipped = opts.players[0] !== 'human' && opts.players[1] === 'human';
  accept(state);
  attach(state.id);
}

async function sendMove(uci) {
  if (ui.busy || !ui.state) return;
  ui.busy = true;
  showError('');
  try {
    accept(await api('POST', '/api/games/' + ui.state.id + '/move', { move: uci, ply: ui.state.ply }));
  } catch (e) {
    showError(e.message);
  } finally {
    ui.busy = false;
  }
}

// ----- geometry ------------------------------------------------------------------------

function parseSquare(name) {
  return { f: name.charCodeAt(0) - 97, r: parseInt(name.slice(1), 10) - 1 };
}

function squareName(f, r) {
  return String.fromCharCode(97 + f) + (r + 1);
}

// Top-left corner of a square in board units (100 per square).
function squareXY(name) {
  const s = ui.state;
  const { f, r } = parseSquare(name);
  const col = ui.flipped ? s.files - 1 - f : f;
  const row = ui.flipped ? r : s.ranks - 1 - r;
  return { x: col * 100, y: row * 100 };
}

function squareAt(clientX, clientY) {
  const svg = $('board');
  const s = ui.state;
  if (!s) return null;
  const pt = svg.createSVGPoint();
  pt.x = clientX;
  pt.y = clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const col = Math.floor(p.x / 100);
  const row = Math.floor(p.y / 100);
  if (col < 0 || row < 0 || col >= s.files || row >= s.ranks) return null;
  const f = ui.flipped ? s.files - 1 - col : col;
  const r = ui.flipped ? row : s.ranks - 1 - row;
  return squareName(f, r);
}

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// ----- pieces --------------------------------------------------------------------------

// Chess pieces drawn for this board, in a 100 x 100 box.
const SHAPES = {
  P: [
    ['circle', { cx: 50, cy: 31, r: 12 }],
    ['path', { d: 'M41 44 H59 L64 70 H36 Z' }],
    ['path', { d: 'M27 86 C27 74 36 70 50 70 C64 70 73 74 73 86 Z' }],
  ],
  R: [
    ['path', { d: 'M25 87 V78 H75 V87 Z' }],
    ['path', { d: 'M33 78 L36 45 H64 L67 78 Z' }],
    ['path', { d: 'M29 45 V23 H38 V31 H46 V23 H54 V31 H62 V23 H71 V45 Z' }],
  ],
  B: [
    ['path', { d: 'M27 87 V79 H73 V79 V87 Z' }],
    ['path', { d: 'M38 79 C26 64 32 46 50 28 C68 46 74 64 62 79 Z' }],
    ['circle', { cx: 50, cy: 22, r: 6 }],
    ['path', { d: 'M45 55 L57 41', fill: 'none', 'stroke-width': 4, class: 'inner' }],
  ],
  N: [
    ['path', { d: 'M28 88 V80 H74 V88 Z' }],
    ['path', { d: 'M34 80 C32 70 38 62 46 56 C40 58 33 60 28 57 C22 54 21 47 26 43 L40 28 C41 24 42 20 44 15 L51 24 C65 24 77 38 74 56 C73 66 70 74 70 80 Z' }],
    ['circle', { cx: 42, cy: 34, r: 2.8, class: 'eye' }],
    ['path', { d: 'M53 29 C63 34 68 46 66 62', fill: 'none', 'stroke-width': 3, class: 'inner' }],
  ],
  Q: [
    ['path', { d: 'M27 87 V79 H73 V87 Z' }],
    ['path', { d: 'M32 79 L22 38 L38 58 L36 30 L47 55 L50 24 L53 55 L64 30 L62 58 L78 38 L68 79 Z' }],
    ['circle', { cx: 22, cy: 36, r: 5 }],
    ['circle', { cx: 36, cy: 28, r: 5 }],
    ['circle', { cx: 50, cy: 22, r: 5 }],
    ['circle', { cx: 64, cy: 28, r: 5 }],
    ['circle', { cx: 78, cy: 36, r: 5 }],
  ],
  K: [
    ['path', { d: 'M27 87 V79 H73 V87 Z' }],
    ['path', { d: 'M32 79 L26 50 C38 42 62 42 74 50 L68 79 Z' }],
    ['path', { d: 'M36 46 C36 32 64 32 64 46 Z' }],
    ['path', { d: 'M50 12 V34 M41 21 H59', fill: 'none', 'stroke-width': 5 }],
  ],
};

// A revealed piece is drawn whole; a face-down one as a tile in its side's colour that
// shows its shell (how it moves until it reveals) and a "?".
function drawChessPiece(g, letter, side, x, y, size, faceDown) {
  const scale = size / 100;
  const p = el('g', {
    transform: `translate(${x} ${y}) scale(${scale})`,
    class: `piece chess ${side === 0 ? 'light' : 'dark'}${faceDown ? ' face-down' : ''}`,
  }, g);
  let body = p;
  if (faceDown) {
    el('rect', { x: 9, y: 9, width: 82, height: 82, rx: 16, class: 'tile' }, p);
    body = el('g', { transform: 'translate(16 19) scale(0.68)', class: 'shell' }, p);
  }
  for (const [tag, attrs] of SHAPES[letter] || SHAPES.P) el(tag, attrs, body);
  if (faceDown) {
    el('circle', { cx: 78, cy: 22, r: 14, class: 'badge' }, p);
    const q = el('text', { x: 78, y: 23, class: 'badge-text' }, p);
    q.textContent = '?';
  }
  return p;
}

function drawNumberPiece(g, label, side, x, y, size) {
  const scale = size / 100;
  const p = el('g', {
    transform: `translate(${x} ${y}) scale(${scale})`,
    class: `piece number ${side === 0 ? 'first' : 'second'}${label === '0' ? ' zero' : ''}`,
  }, g);
  el('circle', { cx: 50, cy: 50, r: 41, class: 'disc' }, p);
  if (label === '0') el('circle', { cx: 50, cy: 50, r: 33, class: 'ring' }, p);
  const t = el('text', { x: 50, y: 52, class: 'num' }, p);
  t.textContent = label;
  return p;
}

function drawPiece(g, piece, x, y, size) {
  if (ui.state.style === 'numbers') return drawNumberPiece(g, piece.label, piece.side, x, y, size);
  return drawChessPiece(g, piece.label, piece.side, x, y, size, piece.face_down);
}

// A small stand-alone piece icon (pools, promotion picker).
function pieceIcon(letter, side, px) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('width', px);
  svg.setAttribute('height', px);
  svg.setAttribute('aria-hidden', 'true');
  drawChessPiece(svg, letter, side, 0, 0, 100, false);
  return svg;
}

// ----- board ---------------------------------------------------------------------------

function legalFrom(sq) {
  return (ui.state.legal || []).filter((m) => m.from === sq);
}

function render() {
  const s = ui.state;
  if (!s) return;
  document.body.dataset.variant = s.variant;
  $('game-title').textContent = s.title;
  drawBoard();
  renderPlayers();
  renderStatus();
  renderLastMove();
  renderSelection();
  renderEngine();
  renderPools();
  renderMoves();
  renderHelp();
  $('fen-out').value = s.fen;
  $('seed-note').textContent = s.pools ? `Reveals are drawn with seed ${s.seed}.` : '';
  $('btn-undo').disabled = s.ply === 0;
  $('btn-restart').hidden = s.engine.status !== 'dead';
}

function drawBoard() {
  const s = ui.state;
  const svg = $('board');
  svg.setAttribute('viewBox', `0 0 ${s.files * 100} ${s.ranks * 100}`);
  document.documentElement.style.setProperty('--aspect', String(s.files / s.ranks));
  svg.dataset.style = s.style;
  svg.textContent = '';
  const squares = el('g', { class: 'squares' }, svg);
  const marks = el('g', { class: 'marks' }, svg);
  const pieces = el('g', { class: 'pieces' }, svg);
  const overlay = el('g', { class: 'overlay' }, svg);
  el('g', { id: 'drag-layer' }, svg);

  const last = s.moves.length ? s.moves[s.moves.length - 1] : null;
  for (let r = 0; r < s.ranks; r++) {
    for (let f = 0; f < s.files; f++) {
      const name = squareName(f, r);
      const { x, y } = squareXY(name);
      const dark = (f + r) % 2 === 0;
      const rect = el('rect', { x, y, width: 100, height: 100, class: `sq ${dark ? 'dark' : 'light'}`, 'data-square': name }, squares);
      if (last && (name === last.from || name === last.to)) rect.classList.add('last');
      if (name === ui.selected) rect.classList.add('selected');
      if (name === s.check) rect.classList.add('check');
    }
  }
  // The 0s' home squares carry diagonal lines (seed 003's board).
  if (s.style === 'numbers') {
    for (const name of ['e2', 'e10']) {
      const { x, y } = squareXY(name);
      el('path', { d: `M${x + 8} ${y + 8} L${x + 92} ${y + 92} M${x + 92} ${y + 8} L${x + 8} ${y + 92}`, class: 'zero-mark' }, squares);
    }
  }

  if (last && last.reveal && s.moves.length - 1 === ui.lastToastPly) markSquare(marks, last.to, 'reveal-ring');
  const lastArith = last && last.arithmetic;
  if (lastArith) markSquare(marks, lastArith.support.sq, 'support-last');

  // Legal targets of the selected piece.
  if (ui.selected) {
    for (const m of legalFrom(ui.selected)) {
      const { x, y } = squareXY(m.to);
      if (m.capture) el('circle', { cx: x + 50, cy: y + 50, r: 44, class: 'target capture', 'data-target': m.to }, marks);
      else el('circle', { cx: x + 50, cy: y + 50, r: 15, class: 'target', 'data-target': m.to }, marks);
    }
  }
  const movable = new Set((s.legal || []).map((m) => m.from));
  for (const p of s.pieces) {
    if (ui.drag && ui.drag.from === p.sq && ui.drag.moved) continue;
    const { x, y } = squareXY(p.sq);
    const g = drawPiece(pieces, p, x, y, 100);
    g.setAttribute('data-square', p.sq);
    if (movable.has(p.sq)) g.setAttribute('data-movable', 'true');
  }
  drawCoordinates(pieces);
  // The capture being looked at: attacker, support, target and the arithmetic.
  const shown = hoveredCapture() || (lastArith && !ui.selected ? lastArith : null);
  if (shown) drawArithmetic(overlay, shown, !!hoveredCapture());
}

function drawCoordinates(g) {
  const s = ui.state;
  for (let f = 0; f < s.files; f++) {
    const name = squareName(f, ui.flipped ? s.ranks - 1 : 0);
    const { x, y } = squareXY(name);
    const t = el('text', { x: x + 94, y: y + 94, class: 'coord file' }, g);
    t.textContent = String.fromCharCode(97 + f);
  }
  for (let r = 0; r < s.ranks; r++) {
    const name = squareName(ui.flipped ? s.files - 1 : 0, r);
    const { x, y } = squareXY(name);
    const t = el('text', { x: x + 5, y: y + 20, class: 'coord rank' }, g);
    t.textContent = String(r + 1);
  }
}

function markSquare(g, name, cls) {
  const { x, y } = squareXY(name);
  el('rect', { x: x + 4, y: y + 4, width: 92, height: 92, rx: 10, class: cls }, g);
}

function hoveredCapture() {
  if (!ui.selected || !ui.hoverTarget) return null;
  const m = legalFrom(ui.selected).find((x) => x.to === ui.hoverTarget && x.arithmetic);
  return m ? m.arithmetic : null;
}

function drawArithmetic(g, a, preview) {
  const from = squareXY(a.attacker.sq);
  const to = squareXY(a.target.sq);
  markSquare(g, a.support.sq, 'support');
  markSquare(g, a.target.sq, 'victim');
  el('line', { x1: from.x + 50, y1: from.y + 50, x2: to.x + 50, y2: to.y + 50, class: preview ? 'capture-line preview' : 'capture-line' }, g);
  const label = a.sums[0] || '';
  const w = Math.max(150, label.length * 21 + 30);
  const s = ui.state;
  let lx = to.x + 50 - w / 2;
  lx = Math.max(4, Math.min(s.files * 100 - w - 4, lx));
  let ly = to.y - 48;
  if (ly < 4) ly = to.y + 104;
  el('rect', { x: lx, y: ly, width: w, height: 44, rx: 10, class: 'sum-box' }, g);
  const t = el('text', { x: lx + w / 2, y: ly + 23, class: 'sum-text' }, g);
  t.textContent = label;
}

// ----- input: click and drag -----------------------------------------------------------

function myTurn() {
  const s = ui.state;
  return s && !s.result && (s.legal || []).length > 0;
}

function onPointerDown(ev) {
  if (!myTurn() || ev.button > 0) return;
  const sq = squareAt(ev.clientX, ev.clientY);
  if (!sq) return;
  if (ui.selected && legalFrom(ui.selected).some((m) => m.to === sq)) {
    ev.preventDefault();
    chooseMove(ui.selected, sq);
    return;
  }
  if (legalFrom(sq).length) {
    ev.preventDefault();
    ui.selected = sq;
    ui.hoverTarget = null;
    ui.drag = { from: sq, pointer: ev.pointerId, moved: false, x0: ev.clientX, y0: ev.clientY };
    $('board').setPointerCapture(ev.pointerId);
    render();
  } else if (ui.selected) {
    ui.selected = null;
    render();
  }
}

function onPointerMove(ev) {
  const sq = squareAt(ev.clientX, ev.clientY);
  const d = ui.drag;
  if (d && d.pointer === ev.pointerId) {
    if (!d.moved && Math.hypot(ev.clientX - d.x0, ev.clientY - d.y0) > 6) {
      d.moved = true;
      drawBoard();
    }
    if (d.moved) drawDragged(ev);
  }
  if (ui.selected && sq !== ui.hoverTarget) {
    ui.hoverTarget = legalFrom(ui.selected).some((m) => m.to === sq) ? sq : null;
    if (!(d && d.moved)) drawBoard();
    renderSelection();
  }
}

function drawDragged(ev) {
  const layer = document.getElementById('drag-layer');
  if (!layer) return;
  layer.textContent = '';
  const piece = ui.state.pieces.find((p) => p.sq === ui.drag.from);
  if (!piece) return;
  const svg = $('board');
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX;
  pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  drawPiece(layer, piece, p.x - 55, p.y - 55, 110).classList.add('dragging');
}

function onPointerUp(ev) {
  const d = ui.drag;
  if (!d || d.pointer !== ev.pointerId) return;
  ui.drag = null;
  const sq = squareAt(ev.clientX, ev.clientY);
  if (d.moved && sq && sq !== d.from && legalFrom(d.from).some((m) => m.to === sq)) {
    chooseMove(d.from, sq);
    return;
  }
  render();
}

// A move from `from` to `to`; several moves share the squares only when a promotion or
// backup letter tells them apart: the person picks it.
function chooseMove(from, to) {
  const options = legalFrom(from).filter((m) => m.to === to);
  if (options.length === 1) {
    ui.selected = null;
    sendMove(options[0].uci);
  } else if (options.length > 1) {
    showPromo(options);
  }
}

function showPromo(options) {
  const box = $('promo');
  box.textContent = '';
  const backup = options[0].reveals;
  const title = document.createElement('p');
  title.textContent = backup ? 'Backup piece, used if it reveals as a pawn:' : 'Promote to:';
  box.appendChild(title);
  const side = ui.state.to_move;
  for (const letter of ['q', 'r', 'b', 'n']) {
    const m = options.find((o) => o.promotion === letter);
    if (!m) continue;
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.promotion = letter;
    b.title = PIECE_NAMES[letter.toUpperCase()];
    b.appendChild(pieceIcon(letter.toUpperCase(), side, 56));
    b.addEventListener('click', () => { hidePromo(); ui.selected = null; sendMove(m.uci); });
    box.appendChild(b);
  }
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.className = 'cancel';
  cancel.textContent = 'Cancel';
  cancel.addEventListener('click', () => { hidePromo(); render(); });
  box.appendChild(cancel);
  box.hidden = false;
}

function hidePromo() {
  $('promo').hidden = true;
}

// ----- panels --------------------------------------------------------------------------

function sideName(side) {
  return ui.state.sides[side];
}

function renderPlayers() {
  const s = ui.state;
  const bottom = ui.flipped ? 1 : 0;
  for (const [id, side] of [['bar-bottom', bottom], ['bar-top', 1 - bottom]]) {
    const bar = $(id);
    bar.textContent = '';
    bar.className = `player-bar side-${side}${s.to_move === side && !s.result ? ' to-move' : ''}`;
    const dot = document.createElement('span');
    dot.className = 'dot';
    bar.appendChild(dot);
    const name = document.createElement('span');
    name.className = 'name';
    const who = s.players[side];
    name.textContent = `${sideName(side)} · ${who.kind === 'human' ? (s.players[1 - side].kind === 'human' ? 'Player' : 'You') : who.label}`;
    bar.appendChild(name);
    if (s.points) {
      const pts = document.createElement('span');
      pts.className = 'points';
      pts.textContent = `captured ${s.points[side]} point${s.points[side] === 1 ? '' : 's'}`;
      bar.appendChild(pts);
    }
  }
}

function renderStatus() {
  const s = ui.state;
  const st = $('status');
  st.className = 'status';
  if (s.result) {
    st.textContent = s.result.text;
    st.classList.add('over');
    return;
  }
  const who = s.players[s.to_move];
  if (who.kind === 'tinh') {
    if (s.engine.status === 'dead') {
      st.textContent = `Tinh stopped: ${s.engine.message}. Press “Restart Tinh” to go on.`;
      st.classList.add('bad');
    } else {
      st.textContent = `${sideName(s.to_move)} to move: Tinh is thinking…`;
    }
  } else {
    const you = s.players[1 - s.to_move].kind === 'human' ? sideName(s.to_move) : `Your move (${sideName(s.to_move)})`;
    st.textContent = s.players[1 - s.to_move].kind === 'human' ? `${you} to move` : you;
    if (s.check) st.textContent += ': check!';
  }
}

function describeArithmetic(a, side) {
  const other = sideName(1 - side);
  const frag = document.createDocumentFragment();
  const chip = (cls, text) => {
    const c = document.createElement('span');
    c.className = 'chip ' + cls;
    c.textContent = text;
    frag.appendChild(c);
  };
  chip('attacker', `${a.attacker.n} on ${a.attacker.sq}`);
  chip('support', `support ${a.support.n} on ${a.support.sq}`);
  chip('sum', a.sums.join('  ·  '));
  chip('victim', `takes ${other}'s ${a.target.n} on ${a.target.sq}`);
  return frag;
}

function revealText(m) {
  const r = m.reveal;
  const name = PIECE_NAMES[r.letter] || r.letter;
  return `${sideName(m.side)}'s face-down piece revealed a ${name} on ${m.to} (chance ${r.weight} in ${r.total})`;
}

// The last move of each side, newest first: what was played, a capture's arithmetic,
// a reveal and its odds.
function renderLastMove() {
  const s = ui.state;
  const box = $('lastmove');
  box.textContent = '';
  if (!s.moves.length) {
    box.textContent = 'No move yet.';
    return;
  }
  for (const m of s.moves.slice(-2).reverse()) {
    const item = document.createElement('div');
    item.className = 'lm';
    const head = document.createElement('div');
    head.className = 'lm-head';
    head.textContent = `${sideName(m.side)} played ${m.text}${m.by_engine ? ' (Tinh)' : ''}`;
    item.appendChild(head);
    if (m.arithmetic) {
      const d = document.createElement('div');
      d.className = 'arith';
      d.appendChild(describeArithmetic(m.arithmetic, m.side));
      item.appendChild(d);
    }
    if (m.reveal) {
      const d = document.createElement('div');
      d.className = 'reveal-line';
      d.textContent = revealText(m);
      item.appendChild(d);
    }
    box.appendChild(item);
  }
}

function renderSelection() {
  const box = $('selection');
  const s = ui.state;
  box.textContent = '';
  if (!s || !ui.selected) {
    box.hidden = true;
    return;
  }
  const moves = legalFrom(ui.selected);
  const captures = moves.filter((m) => m.arithmetic);
  const reveals = moves.some((m) => m.reveals);
  box.hidden = !(captures.length || reveals);
  if (captures.length) {
    const h = document.createElement('div');
    h.className = 'sel-head';
    h.textContent = `Captures of the ${s.pieces.find((p) => p.sq === ui.selected).label} on ${ui.selected}:`;
    box.appendChild(h);
    for (const m of captures) {
      const row = document.createElement('div');
      row.className = 'arith' + (m.to === ui.hoverTarget ? ' hot' : '');
      row.appendChild(describeArithmetic(m.arithmetic, s.to_move));
      box.appendChild(row);
    }
  }
  if (reveals && s.pools) {
    const pool = s.pools[s.to_move].filter((e) => e.count > 0);
    const h = document.createElement('div');
    h.className = 'sel-head';
    h.textContent = 'This face-down piece reveals, when it moves, as: ' +
      pool.map((e) => `${PIECE_NAMES[e.letter]} ${Math.round(e.probability * 100)}%`).join(', ');
    box.appendChild(h);
  }
}

function fmtNodes(n) {
  if (n >= 1e6) return (n / 1e6).toFixed(1) + ' M';
  if (n >= 1e3) return (n / 1e3).toFixed(1) + ' k';
  return String(n);
}

function renderEngine() {
  const s = ui.state;
  const panel = $('panel-engine');
  panel.hidden = s.engine.status === 'none';
  if (panel.hidden) return;
  const t = s.thinking;
  const stateText = {
    thinking: '· thinking…', ready: '', starting: '· starting', off: '', dead: '· stopped',
  }[s.engine.status] || '';
  $('engine-state').textContent = stateText;
  panel.classList.toggle('live', !!(t && t.live));
  $('th-label').textContent = t ? t.label : (s.pools ? 'expected value' : 'score');
  $('th-depth').textContent = t ? `${t.depth}/${t.seldepth}` : '–';
  $('th-score').textContent = t ? (t.bound ? (t.bound === 'lowerbound' ? '≥ ' : '≤ ') : '') + t.score : '–';
  $('th-nodes').textContent = t ? fmtNodes(t.nodes) : '–';
  $('th-time').textContent = t ? (t.time_ms / 1000).toFixed(2) + ' s' : '–';
  $('th-pv').textContent = t && t.pv.length ? t.pv.join(' ') : '–';
  const note = $('engine-note');
  const text = s.engine.status === 'dead' ? s.engine.message : (s.engine.note || s.message || '');
  note.textContent = text;
  note.hidden = !text;
}

function renderPools() {
  const s = ui.state;
  const panel = $('panel-pools');
  panel.hidden = !s.pools;
  if (!s.pools) return;
  const box = $('pools');
  box.textContent = '';
  for (const side of [0, 1]) {
    const row = document.createElement('div');
    row.className = 'pool';
    const total = s.pools[side].reduce((a, e) => a + e.count, 0);
    const h = document.createElement('div');
    h.className = 'pool-name';
    h.textContent = `${sideName(side)} (${total} left)`;
    row.appendChild(h);
    for (const e of s.pools[side]) {
      const cell = document.createElement('div');
      cell.className = 'pool-entry' + (e.count ? '' : ' empty');
      cell.title = `${PIECE_NAMES[e.letter]}: ${e.count} left, ${Math.round(e.probability * 100)}% per reveal`;
      cell.appendChild(pieceIcon(e.letter, side, 24));
      const c = document.createElement('span');
      c.className = 'count';
      c.textContent = `×${e.count}`;
      cell.appendChild(c);
      const p = document.createElement('span');
      p.className = 'prob';
      p.textContent = `${Math.round(e.probability * 100)}%`;
      cell.appendChild(p);
      row.appendChild(cell);
    }
    box.appendChild(row);
  }
}

function renderMoves() {
  const s = ui.state;
  const list = $('movelist');
  list.textContent = '';
  let row = null;
  s.moves.forEach((m, i) => {
    if (m.side === 0 || !row) {
      row = document.createElement('li');
      const n = document.createElement('span');
      n.className = 'n';
      n.textContent = `${Math.floor(i / 2) + 1}.`;
      row.appendChild(n);
      if (m.side === 1) {
        const gap = document.createElement('span');
        gap.className = 'mv';
        gap.textContent = '…';
        row.appendChild(gap);
      }
      list.appendChild(row);
    }
    const mv = document.createElement('span');
    mv.className = 'mv' + (m.capture ? ' capture' : '') + (m.reveal ? ' reveal' : '') + (i === s.moves.length - 1 ? ' current' : '');
    if (m.reveal) {
      const base = m.text.slice(0, -1);
      mv.textContent = base;
      const r = document.createElement('b');
      r.textContent = m.text.slice(-1);
      r.title = 'revealed as a ' + (PIECE_NAMES[m.reveal.letter] || m.reveal.letter);
      mv.appendChild(r);
    } else {
      mv.textContent = m.text;
    }
    if (m.arithmetic) mv.title = `${m.arithmetic.sums.join(' · ')} takes ${m.arithmetic.target.n}`;
    row.appendChild(mv);
  });
  list.scrollTop = list.scrollHeight;
}

function renderHelp() {
  const s = ui.state;
  const help = $('panel-help');
  if (s.style === 'numbers') {
    help.textContent = 'Math Chess: a piece n moves 1 to n squares in a straight line; 0 never moves. ' +
      'To capture, a piece jumps a friendly support next to it: the distance from the support to the target ' +
      'is A + B, A − B, A × B (units digit), A ÷ B or A mod B. Capturing the 0 wins.';
  } else if (s.pools) {
    help.textContent = 'Reveal Chess: face-down pieces (?) move like the piece that starts on their square, ' +
      'then turn into a piece drawn from their side’s pool; the pools show the odds.';
  } else {
    help.textContent = 'Chess. Drag a piece or click it, then click its target.';
  }
}

// A reveal just played: a short notice over the board (the last-move panel keeps it).
function announce(s) {
  const m = s.moves[s.moves.length - 1];
  if (!m || !m.reveal) return;
  ui.lastToastPly = s.moves.length - 1;
  const t = $('toast');
  const name = PIECE_NAMES[m.reveal.letter] || m.reveal.letter;
  t.textContent = `${m.to}: revealed a ${name} (${m.reveal.weight} in ${m.reveal.total})`;
  t.hidden = false;
  clearTimeout(ui.toastTimer);
  ui.toastTimer = setTimeout(hideToast, 3000);
  drawBoard();
}

function hideToast() {
  $('toast').hidden = true;
}

// ----- set-up --------------------------------------------------------------------------

function setupNames() {
  const v = document.querySelector('input[name=variant]:checked').value;
  const math = v === 'mathchess';
  $('side0-name').textContent = math ? 'Blue (first)' : 'White (first)';
  $('side1-name').textContent = math ? 'Red' : 'Black';
  $('fs-side').hidden = $('opponent').value === 'human';
}

function openSetup() {
  $('setup-error').hidden = true;
  setupNames();
  if (!$('setup').open) $('setup').showModal();
}

async function submitSetup(ev) {
  ev.preventDefault();
  const form = $('setup-form');
  const variant = form.variant.value;
  const opponent = form.opponent.value;
  let side = form.side.value;
  if (side === 'random') side = Math.random() < 0.5 ? '0' : '1';
  const players = opponent === 'human' ? ['human', 'human'] : (side === '0' ? ['human', opponent] : [opponent, 'human']);
  const fen = form.fen.value.trim();
  const body = { variant, players };
  if (fen) body.fen = fen;
  $('btn-start').disabled = true;
  try {
    await startGame(body);
    $('setup').close();
    form.fen.value = '';
    form.querySelector('details').open = false;
    showError('');
  } catch (e) {
    const err = $('setup-error');
    err.textContent = e.message;
    err.hidden = false;
  } finally {
    $('btn-start').disabled = false;
  }
}

// ----- start ---------------------------------------------------------------------------

function init() {
  const board = $('board');
  board.addEventListener('pointerdown', onPointerDown);
  board.addEventListener('pointermove', onPointerMove);
  board.addEventListener('pointerup', onPointerUp);
  board.addEventListener('pointercancel', () => { ui.drag = null; render(); });
  board.addEventListener('pointerleave', () => {
    if (!ui.drag && ui.hoverTarget) { ui.hoverTarget = null; render(); }
  });
  $('btn-new').addEventListener('click', openSetup);
  $('btn-cancel').addEventListener('click', () => $('setup').close());
  $('setup-form').addEventListener('submit', submitSetup);
  for (const r of document.querySelectorAll('input[name=variant]')) r.addEventListener('change', setupNames);
  $('opponent').addEventListener('change', setupNames);
  $('btn-flip').addEventListener('click', () => { ui.flipped = !ui.flipped; render(); });
  $('btn-undo').addEventListener('click', async () => {
    if (!ui.state) return;
    try {
      accept(await api('POST', '/api/games/' + ui.state.id + '/undo', {}));
      showError('');
    } catch (e) { showError(e.message); }
  });
  $('btn-restart').addEventListener('click', async () => {
    try {
      accept(await api('POST', '/api/games/' + ui.state.id + '/engine', {}));
      showError('');
    } catch (e) { showError(e.message); }
  });
  $('btn-copy').addEventListener('click', async () => {
    const input = $('fen-out');
    input.select();
    try { await navigator.clipboard.writeText(input.value); } catch (e) { document.execCommand('copy'); }
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && ui.selected) { ui.selected = null; hidePromo(); render(); }
  });

  const m = /game=([0-9a-f]+)/.exec(location.hash);
  if (m) {
    api('GET', '/api/games/' + m[1]).then((s) => {
      ui.flipped = s.players[0].kind !== 'human' && s.players[1].kind === 'human';
      accept(s);
      attach(s.id);
    }).catch(() => openSetup());
  } else {
    openSetup();
  }
}

document.addEventListener('DOMContentLoaded', init);
