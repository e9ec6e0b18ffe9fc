// qipu's web board: place stones or draw a shape, see what was played next and in which games.
// Plain JavaScript, no library: the page must work offline from the binary alone. Every state
// of the board lives in the URL's hash, so back/forward and a shared link give it back.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const PAGE = 20;
const $ = (sel) => document.querySelector(sel);

// ---- state -------------------------------------------------------------------------------

function emptyState() {
  return {
    size: 19,
    black: [], white: [],          // SGF points ("pd")
    toMove: "B",                   // the move tool's next colour
    last: "",                      // the last move played, marked on the board
    pattern: false, anywhere: false,
    region: null,                  // [x0, y0, x1, y1], inclusive; null: the whole board
    marks: {},                     // point -> "?", "x" or "o" (pattern mode)
    symmetry: true, swap: false, next: "",
    byMonth: false,                // the date profile per month instead of per year
    moves: [],                     // the moves played in order since the last other edit ("Bpd")
    sequence: false,               // search those moves as a sequence (a joseki anywhere)
    player: "", event: "", from: "", to: "", winner: "", query: "",
    sort: "indexed", offset: 0,
    view: "",                      // "file\tgame\tk\thit\tline" of the game (or variation line) in the viewer
    mk: false,                     // Mistakes mode: the search of /api/mistakes instead of the explorer
    mkLoss: "10%", mkPlayer: "", mkSince: "", mkUntil: "", mkSort: "",
    mkOffset: 0,                   // the page of its hits
    mkFrom: "",                    // the explorer's query it searches from (URL parameters); "": all games
  };
}

// The Mistakes mode's fields: state key, URL key, default.
const MK_KEYS = [["mkLoss", "ml", "10%"], ["mkPlayer", "mp", ""], ["mkSince", "ms", ""], ["mkUntil", "mu", ""], ["mkSort", "mo", ""]];

let state = emptyState();
let tool = "move";
let regionStart = null;            // first corner while marking a region
let answer = null;                 // the last answer shown
let clientSort = null;             // {key, up}: a column sorted within the page
let searchSeq = 0;

function encodeState(s) {
  const p = new URLSearchParams();
  const put = (k, v, dflt) => { if (v !== dflt) p.set(k, String(v)); };
  put("s", s.size, 19);
  put("b", s.black.join(","), "");
  put("w", s.white.join(","), "");
  put("t", s.toMove, "B");
  put("l", s.last, "");
  put("pat", s.pattern ? 1 : 0, 0);
  put("any", s.anywhere ? 1 : 0, 0);
  if (s.region) p.set("r", s.region.join(","));
  const marks = Object.entries(s.marks).map(([pt, m]) => pt + m).join(",");
  put("m", marks, "");
  put("sym", s.symmetry ? 1 : 0, 1);
  put("sw", s.swap ? 1 : 0, 0);
  put("n", s.next, "");
  put("bm", s.byMonth ? 1 : 0, 0);
  put("mv", s.moves.join(","), "");
  put("sq", s.sequence ? 1 : 0, 0);
  for (const k of ["player", "event", "from", "to", "winner", "query"]) put(k, s[k], "");
  put("sort", s.sort, "indexed");
  put("o", s.offset, 0);
  put("v", s.view, "");
  put("mk", s.mk ? 1 : 0, 0);
  for (const [k, key, dflt] of MK_KEYS) put(key, s[k], dflt);
  put("mf", s.mkOffset, 0);
  put("mq", s.mkFrom, "");
  return p.toString();
}

function decodeState(hash) {
  const s = emptyState();
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const size = parseInt(p.get("s") || "19", 10);
  if (size >= 2 && size <= 52) s.size = size;
  const pts = (v) => (v || "").split(",").filter((x) => /^[a-zA-Z]{2}$/.test(x) && onBoard(x, s.size));
  s.black = pts(p.get("b"));
  s.white = pts(p.get("w")).filter((x) => !s.black.includes(x));
  s.toMove = p.get("t") === "W" ? "W" : "B";
  s.last = p.get("l") || "";
  s.pattern = p.get("pat") === "1";
  s.anywhere = p.get("any") === "1";
  const r = (p.get("r") || "").split(",").map((x) => parseInt(x, 10));
  if (r.length === 4 && r.every((x) => x >= 0 && x < s.size)) s.region = r;
  for (const m of (p.get("m") || "").split(",")) {
    if (/^[a-zA-Z]{2}[?xo]$/.test(m) && onBoard(m.slice(0, 2), s.size)) s.marks[m.slice(0, 2)] = m[2];
  }
  s.symmetry = p.get("sym") !== "0";
  s.swap = p.get("sw") === "1";
  s.next = ["B", "W"].includes(p.get("n")) ? p.get("n") : "";
  s.byMonth = p.get("bm") === "1";
  s.moves = (p.get("mv") || "").split(",").filter((m) => /^[BW][a-zA-Z]{2}$/.test(m) && onBoard(m.slice(1), s.size));
  s.sequence = p.get("sq") === "1";
  for (const k of ["player", "event", "from", "to", "winner", "query"]) s[k] = p.get(k) || "";
  s.sort = ["indexed", "positions", "oldest", "newest"].includes(p.get("sort")) ? p.get("sort") : "indexed";
  s.offset = Math.max(0, parseInt(p.get("o") || "0", 10) || 0);
  s.view = p.get("v") || "";
  s.mk = p.get("mk") === "1";
  for (const [k, key, dflt] of MK_KEYS) s[k] = p.get(key) ?? dflt;
  if (!["", "newest", "oldest"].includes(s.mkSort)) s.mkSort = "";
  s.mkOffset = Math.max(0, parseInt(p.get("mf") || "0", 10) || 0);
  s.mkFrom = p.get("mq") || "";
  return s;
}

// A new state: a new history entry (so Back returns to this one), then a new search.
function commit(change) {
  const next = structuredClone(state);
  change(next);
  state = next;
  history.pushState(null, "", "#" + encodeState(state));
  refresh();
}

window.addEventListener("popstate", () => {
  state = decodeState(location.hash);
  syncForm();
  refresh();
});

// The metadata box shows the state's filter when the state comes from the URL (a link, Back);
// otherwise it keeps what the user is typing until it is submitted.
function syncForm() {
  for (const k of ["player", "event", "from", "to", "winner", "query"]) $("#f-" + k).value = state[k];
  $("#mk-loss").value = state.mkLoss;
  $("#mk-player").value = state.mkPlayer;
  $("#mk-since").value = state.mkSince;
  $("#mk-until").value = state.mkUntil;
  $("#mk-sort").value = state.mkSort;
}

// ---- board geometry and rules ------------------------------------------------------------

const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const GTP = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

function pt(x, y) { return LETTERS[x] + LETTERS[y]; }
function xy(p) { return [LETTERS.indexOf(p[0]), LETTERS.indexOf(p[1])]; }
function onBoard(p, size) { const [x, y] = xy(p); return x >= 0 && y >= 0 && x < size && y < size; }
function gtp(p, size) {
  if (!p) return "pass";
  const [x, y] = xy(p);
  return (x < GTP.length ? GTP[x] : "?") + (size - y);
}

function neighbours(p, size) {
  const [x, y] = xy(p);
  return [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]]
    .filter(([a, b]) => a >= 0 && b >= 0 && a < size && b < size)
    .map(([a, b]) => pt(a, b));
}

// The group of the stone at p and whether it has a liberty, on a board map point -> colour.
function group(board, p, size) {
  const colour = board.get(p);
  const seen = new Set([p]);
  const todo = [p];
  let free = false;
  while (todo.length) {
    for (const n of neighbours(todo.pop(), size)) {
      const c = board.get(n);
      if (!c) free = true;
      else if (c === colour && !seen.has(n)) { seen.add(n); todo.push(n); }
    }
  }
  return { stones: seen, free };
}

// Plays `colour` at p with captures (and suicide, as the index's engine replays it).
function play(s, colour, p) {
  const board = new Map();
  for (const b of s.black) board.set(b, "B");
  for (const w of s.white) board.set(w, "W");
  board.set(p, colour);
  const other = colour === "B" ? "W" : "B";
  for (const n of neighbours(p, s.size)) {
    if (board.get(n) === other) {
      const g = group(board, n, s.size);
      if (!g.free) for (const x of g.stones) board.delete(x);
    }
  }
  const own = group(board, p, s.size);
  if (!own.free) for (const x of own.stones) board.delete(x);
  s.black = [...board].filter(([, c]) => c === "B").map(([q]) => q);
  s.white = [...board].filter(([, c]) => c === "W").map(([q]) => q);
  delete s.marks[p];
  s.toMove = other;
  s.last = p;
}

// ---- drawing -----------------------------------------------------------------------------

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function stars(size) {
  const at = size === 19 ? [3, 9, 15] : size === 13 ? [3, 6, 9] : size === 9 ? [2, 4, 6] : [];
  const out = [];
  for (const a of at) for (const b of at) out.push([a, b]);
  return out;
}

// Draws a board: stones, marks, the region, continuation labels; `onClick(point)` if given.
function drawBoard(container, opt) {
  const size = opt.size;
  const svg = el("svg", { viewBox: `-1.3 -1.3 ${size + 1.6} ${size + 1.6}`, role: "img" });
  el("rect", { x: -1.3, y: -1.3, width: size + 1.6, height: size + 1.6, fill: "#dcb35c" }, svg);
  const lines = el("g", { stroke: "#3b2a10", "stroke-width": 0.04 }, svg);
  for (let i = 0; i < size; i++) {
    el("line", { x1: 0, y1: i, x2: size - 1, y2: i }, lines);
    el("line", { x1: i, y1: 0, x2: i, y2: size - 1 }, lines);
  }
  for (const [a, b] of stars(size)) el("circle", { cx: a, cy: b, r: 0.1, fill: "#3b2a10" }, svg);
  for (let i = 0; i < size; i++) {
    for (const y of [-0.85, size - 0.15]) el("text", { x: i, y, class: "coord" }, svg).textContent = GTP[i] || "";
    for (const x of [-0.85, size - 0.15]) el("text", { x, y: i, class: "coord" }, svg).textContent = String(size - i);
  }
  if (opt.region) {
    const [x0, y0, x1, y1] = opt.region;
    el("rect", {
      x: x0 - 0.5, y: y0 - 0.5, width: x1 - x0 + 1, height: y1 - y0 + 1,
      fill: "rgba(31,111,235,.10)", stroke: "#1f6feb", "stroke-width": 0.08, "stroke-dasharray": "0.3 0.15",
    }, svg);
  }
  if (opt.regionStart) {
    const [x, y] = xy(opt.regionStart);
    el("rect", { x: x - 0.5, y: y - 0.5, width: 1, height: 1, fill: "none", stroke: "#1f6feb", "stroke-width": 0.1 }, svg);
  }
  const stones = el("g", {}, svg);
  const put = (p, colour) => {
    const [x, y] = xy(p);
    el("circle", {
      cx: x, cy: y, r: 0.47, "data-stone": colour, "data-pt": p,
      fill: colour === "B" ? "#111" : "#fafafa", stroke: "#111", "stroke-width": 0.04,
    }, stones);
  };
  opt.black.forEach((p) => put(p, "B"));
  opt.white.forEach((p) => put(p, "W"));
  if (opt.last && (opt.black.includes(opt.last) || opt.white.includes(opt.last))) {
    const [x, y] = xy(opt.last);
    el("circle", {
      cx: x, cy: y, r: 0.2, fill: "none", "stroke-width": 0.07,
      stroke: opt.black.includes(opt.last) ? "#fff" : "#111",
    }, svg);
  }
  // Stones whose move was a mistake (the viewer of an analysed game): a red ring.
  for (const p of opt.rings || []) {
    const [x, y] = xy(p);
    el("circle", { cx: x, cy: y, r: 0.5, fill: "none", stroke: "#cf222e", "stroke-width": 0.09, class: "mistake-ring", "data-pt": p }, svg);
  }
  for (const [p, m] of Object.entries(opt.marks || {})) {
    const [x, y] = xy(p);
    el("text", { x, y, class: m === "?" ? "mark any" : "mark" }, svg).textContent = m;
  }
  // Continuations: the most played move at each point, its share of all next moves; the
  // twelve most played points only, so that rare replies do not hide the board (the table
  // lists them all).
  const labels = new Map();
  const occupied = (p) => opt.black.includes(p) || opt.white.includes(p);
  for (const c of opt.continuations || []) {
    if (labels.size >= 12) break;
    if (c.point && !labels.has(c.point) && !occupied(c.point)) labels.set(c.point, c);
  }
  const total = (opt.continuations || []).reduce((n, c) => n + c.count, 0) || 1;
  for (const [p, c] of labels) {
    const [x, y] = xy(p);
    const share = (100 * c.count) / total;
    const g = el("g", { class: "cont", "data-pt": p }, svg);
    el("circle", {
      cx: x, cy: y, r: 0.46, class: "cont-label", "data-pt": p, "data-color": c.color,
      fill: c.color === "B" ? "rgba(20,20,20,.78)" : "rgba(255,255,255,.88)",
      stroke: winColour(c), "stroke-width": 0.09,
    }, g);
    el("text", { x, y, class: "label", fill: c.color === "B" ? "#fff" : "#111" }, g).textContent =
      share >= 9.95 ? share.toFixed(0) : share.toFixed(1);
    // A move that cost its players much on average (costly): a red dot on the label's shoulder.
    if (costly(c)) el("circle", { cx: x + 0.34, cy: y - 0.34, r: 0.14, class: "cont-loss", fill: "#cf222e", stroke: "#fff", "stroke-width": 0.04 }, g);
    const engine = engineWords(c);
    el("title", {}, g).textContent =
      `${c.color === "B" ? "Black" : "White"} ${gtp(p, size)}: ${c.count} (${share.toFixed(1)}%)` +
      (opt.tenuki && c.tenuki !== undefined ? `, ${c.count - c.tenuki} directly, ${c.tenuki} after tenuki` : "") +
      `, Black wins ${pct(c.black_wins, c.count)}, White wins ${pct(c.white_wins, c.count)}` +
      (engine ? `; engine: ${engine}` : "") + (costly(c) ? " (the red dot: a mean loss of 10% or 3 points or more)" : "") +
      (opt.labelHint ? ` (${opt.labelHint})` : "");
  }
  if (opt.onClick) {
    const hits = el("g", { fill: "transparent" }, svg);
    for (let x = 0; x < size; x++) {
      for (let y = 0; y < size; y++) {
        const r = el("rect", { x: x - 0.5, y: y - 0.5, width: 1, height: 1, "data-pt": pt(x, y), class: "pt" }, hits);
        r.addEventListener("click", () => opt.onClick(pt(x, y)));
      }
    }
  }
  container.replaceChildren(svg);
}

// Green when the side that played the move won more often, red when it lost more often.
function winColour(c) {
  const mine = c.color === "B" ? c.black_wins : c.white_wins;
  const theirs = c.color === "B" ? c.white_wins : c.black_wins;
  if (mine + theirs === 0) return "#888";
  const r = mine / (mine + theirs);
  return r >= 0.55 ? "#1a7f37" : r <= 0.45 ? "#cf222e" : "#9a6700";
}

function pct(n, d) { return d ? ((100 * n) / d).toFixed(1) + "%" : "–"; }

// ---- clicks ------------------------------------------------------------------------------

function onBoardClick(p) {
  const cont = answer && tool === "move" && followable(state)
    ? (answer.continuations || []).find((c) => c.point === p) : null;
  if (cont && !state.black.includes(p) && !state.white.includes(p)) {
    follow(cont);
    return;
  }
  if (tool === "region") {
    if (!regionStart) { regionStart = p; render(); return; }
    const [a, b] = xy(regionStart), [c, d] = xy(p);
    regionStart = null;
    commit((s) => { s.region = [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)]; s.offset = 0; });
    return;
  }
  commit((s) => {
    s.offset = 0;
    s.view = "";
    const has = (list) => list.includes(p);
    const drop = () => {
      s.black = s.black.filter((q) => q !== p);
      s.white = s.white.filter((q) => q !== p);
    };
    if (tool === "move") {
      if (has(s.black) || has(s.white)) return;
      playMove(s, s.toMove, p);
      return;
    }
    // Any other edit makes the board no longer the result of the moves played.
    s.moves = [];
    if (tool === "B" || tool === "W") {
      const was = has(tool === "B" ? s.black : s.white);
      drop();
      delete s.marks[p];
      if (!was) (tool === "B" ? s.black : s.white).push(p);
      s.last = "";
    } else if (tool === "erase") {
      drop();
      delete s.marks[p];
      s.last = "";
    } else if (["?", "x", "o"].includes(tool)) {
      drop();
      if (s.marks[p] === tool) delete s.marks[p]; else s.marks[p] = tool;
    }
  });
}

// Whether a continuation of the state's answer is a point of this board: not for a shape
// searched anywhere, whose continuations are in the pattern's own coordinates.
function followable(s) {
  return !(s.pattern && s.anywhere);
}

// Plays a continuation and searches again: the explorer's step. In pattern mode it is the
// continuation search of Kombilo (a joseki walked move by move): the stone joins the shape.
function follow(c) {
  if (!c.point || !followable(state)) return;
  commit((s) => {
    if (s.pattern) growRegion(s, c.point);
    playMove(s, c.color, c.point);
    s.offset = 0;
    s.view = "";
  });
}

// Plays a move and keeps it in the state's moves (those a sequence search asks for); in pattern
// mode the stone joins the shape and the moves are no longer what the board holds.
function playMove(s, colour, p) {
  play(s, colour, p);
  s.moves = s.pattern ? [] : [...s.moves, colour + p];
}

// Grows a pattern's region to hold point p. The points it newly covers are "?" (any content):
// the games that played p still match the grown shape, which asks nothing of them but what it
// asked before and the new stone. (A continuation lies outside the region only when the
// server takes the move played right after the hit, wherever it was, as its continuation.)
function growRegion(s, p) {
  if (!s.region) return;
  const [x, y] = xy(p);
  const [x0, y0, x1, y1] = s.region;
  if (x >= x0 && x <= x1 && y >= y0 && y <= y1) return;
  const grown = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  for (let b = grown[1]; b <= grown[3]; b++) {
    for (let a = grown[0]; a <= grown[2]; a++) {
      const q = pt(a, b);
      const inside = a >= x0 && a <= x1 && b >= y0 && b <= y1;
      if (!inside && !s.black.includes(q) && !s.white.includes(q) && !s.marks[q]) s.marks[q] = "?";
    }
  }
  s.region = grown;
}

// ---- searching ---------------------------------------------------------------------------

function metadataQuery(s) {
  const quote = (v) => '"' + v.replace(/["\\]/g, " ").trim() + '"';
  const parts = [];
  if (s.player.trim()) parts.push("player:" + quote(s.player));
  if (s.event.trim()) parts.push("event:" + quote(s.event));
  if (s.from.trim() || s.to.trim()) parts.push(`date:[${s.from.trim() || "*"} TO ${s.to.trim() || "*"}]`);
  if (s.winner) parts.push("winner:" + s.winner);
  if (s.query.trim()) parts.push("(" + s.query.trim() + ")");
  return parts.join(" AND ");
}

function diagram(s) {
  const [x0, y0, x1, y1] = s.region || [0, 0, s.size - 1, s.size - 1];
  const rows = [];
  for (let y = y0; y <= y1; y++) {
    let row = "";
    for (let x = x0; x <= x1; x++) {
      const p = pt(x, y);
      row += s.black.includes(p) ? "X" : s.white.includes(p) ? "O" : s.marks[p] || ".";
    }
    rows.push(row);
  }
  return { rows: rows.join("/"), place: `${x0},${y0}` };
}

// Whether state s searches its moves as a sequence (without moves it searches the position).
function searchesMoves(s) {
  return s.sequence && !s.pattern && s.moves.length > 0;
}

// The API request answering state s; `also`, a metadata query narrowing it further.
function apiUrl(s, also) {
  const { path, params: p } = queryOf(s, also);
  if (s.byMonth) p.set("by_month", "true");
  if (s.sort !== "indexed") p.set("sort", s.sort);
  p.set("limit", PAGE);
  if (s.offset) p.set("offset", s.offset);
  return path + "?" + p.toString();
}

// What state s asks, without its page, sort and chart: the API path and its parameters
// (the position's, pattern's or sequence's, and the filters). /api/mistakes takes the same
// parameters, so the Mistakes mode searches from it with them.
function queryOf(s, also) {
  const p = new URLSearchParams();
  let path;
  if (s.pattern) {
    path = "/api/pattern";
    const d = diagram(s);
    p.set("diagram", d.rows);
    if (s.anywhere) p.set("anywhere", "true"); else p.set("place", d.place);
  } else if (searchesMoves(s)) {
    path = "/api/sequence";
    p.set("moves", s.moves.map((m) => `${m[0]}[${m.slice(1)}]`).join(" "));
  } else {
    path = "/api/position";
    p.set("black", s.black.join(","));
    p.set("white", s.white.join(","));
    if (s.next) p.set("to_move", s.next);
  }
  p.set("size", s.size);
  if (!s.symmetry) p.set("symmetry", "false");
  if (s.swap) p.set("swap_colors", "true");
  const q = [metadataQuery(s), also].filter(Boolean).join(" AND ");
  if (q) p.set("query", q);
  return { path, params: p };
}

async function getJson(url) {
  const r = await fetch(url, { headers: { Accept: "application/json" } });
  let body = null;
  try { body = await r.json(); } catch (e) { body = { error: `${r.status} ${r.statusText}` }; }
  if (!r.ok) throw new Error(body.error + (body.param ? ` (parameter ${body.param})` : ""));
  return body;
}

function setStatus(text, ok) {
  const st = $("#status");
  st.textContent = text;
  st.className = ok ? "ok" : "";
}

// An empty board with a filter lists the games the filter selects (a game that starts from
// setup stones never shows the empty board), with the first moves of those that do.
function gamesUrl(s) {
  const p = new URLSearchParams({ query: metadataQuery(s), limit: PAGE });
  if (s.byMonth) p.set("by_month", "true");
  if (s.sort !== "indexed") p.set("sort", s.sort);
  if (s.offset) p.set("offset", s.offset);
  return "/api/games?" + p.toString();
}

async function fetchAnswer(s) {
  if (s.pattern || s.black.length || s.white.length || !metadataQuery(s)) return getJson(apiUrl(s));
  const [games, first] = await Promise.all([getJson(gamesUrl(s)), getJson(apiUrl({ ...s, offset: 0 }))]);
  games.continuations = first.continuations;
  return games;
}

async function search() {
  const seq = ++searchSeq;
  setStatus("searching…", true);
  try {
    const a = await fetchAnswer(state);
    if (seq !== searchSeq) return;
    answer = a;
    setStatus("", true);
  } catch (e) {
    if (seq !== searchSeq) return;
    answer = null;
    setStatus(e.message, false);
  }
  render();
}

// ---- the panel beside the board ----------------------------------------------------------

function render() {
  document.body.classList.toggle("pattern", state.pattern);
  document.body.classList.toggle("mistakes-mode", state.mk);
  $("#mode-mistakes").classList.toggle("on", state.mk);
  for (const b of document.querySelectorAll("#tools button[data-tool]")) b.classList.toggle("on", b.dataset.tool === tool);
  $("#pattern-mode").checked = state.pattern;
  $("#sequence").checked = state.sequence;
  $("#anywhere").checked = state.anywhere;
  $("#symmetry").checked = state.symmetry;
  $("#swap").checked = state.swap;
  $("#nextmove").value = state.next;
  $("#size").value = String(state.size);
  $("#tomove").textContent = tool === "move" ? `${state.toMove === "B" ? "Black" : "White"} to play` : "";
  drawBoard($("#board"), {
    size: state.size, black: state.black, white: state.white, last: state.last,
    marks: state.pattern ? state.marks : {},
    region: state.pattern ? state.region : null, regionStart,
    continuations: answer && followable(state) ? answer.continuations : [],
    onClick: onBoardClick,
    tenuki: splitsTenuki(state),
    labelHint: tool !== "move" ? "the Move tool (m) follows it" : state.pattern ? "click: add it to the shape" : "click: play it",
  });
  renderSummary();
  renderContinuations();
  renderProfile();
  renderGames();
  renderViewer();
}

function renderSummary() {
  const s = $("#summary");
  if (!answer) { s.textContent = ""; return; }
  // Pattern and sequence answers say how many hits never saw another move in their region
  // (absent from a server that does not count them, and from position answers).
  const none = answer.no_continuation !== undefined
    ? ` · ${answer.no_continuation.toLocaleString()} with no further move there` : "";
  const what = state.pattern ? "" : searchesMoves(state) ? ` · the sequence of ${state.moves.length} moves`
    : state.sequence ? " · the position (play moves with the Move tool to search them as a sequence)" : "";
  s.textContent = `${answer.games.toLocaleString()} games, ${answer.positions.toLocaleString()} positions${none}${what} · ${answer.elapsed_ms} ms`;
}

// A mean rank on the API's scale (1k = 0, 1d = 1, 10d = 10, 1p = 11) as players write it,
// decided on the value as shown so that none reads 0.9p or 11.0d (as the CLI prints it).
function rankLabel(v) {
  if (v === null || v === undefined) return "";
  const r = Math.round(v * 10) / 10;
  if (r >= 11) return (r - 10).toFixed(1) + "p";
  if (r >= 0.5) return r.toFixed(1) + "d";
  return (1 - r).toFixed(1) + "k";
}

function years(c) {
  if (!c.first_year) return "";
  return c.last_year && c.last_year !== c.first_year ? `${c.first_year}–${c.last_year}` : String(c.first_year);
}

// Whether the answer to state s counts continuations after tenuki apart: a pattern's or a
// sequence's rows are the first move played later in its region, which may come after moves
// elsewhere; a position's are the next move (their tenuki, when sent, is always 0).
function splitsTenuki(s) {
  return s.pattern || searchesMoves(s);
}

// The columns of the continuation table, as the CLI prints them. "direct" and "tenuki" only
// when the rows split the count (pattern and sequence answers of a server that sends it),
// "var." only when some row was played by variation lines.
function contColumns(conts) {
  const split = splitsTenuki(state) && conts.some((c) => c.tenuki !== undefined);
  const lines = conts.some((c) => c.variations);
  const cols = [
    { head: "", cell: (c) => (c.color === "B" ? "●" : "○") },
    { head: "move", cell: (c) => gtp(c.point, state.size) },
    { head: "count", num: true, cell: (c) => c.count.toLocaleString() },
  ];
  if (split) {
    cols.push({ head: "direct", num: true, title: "Played at once after the hit", cell: (c) => (c.count - (c.tenuki || 0)).toLocaleString() });
    cols.push({ head: "tenuki", num: true, title: "Played after moves elsewhere", cell: (c) => (c.tenuki || 0).toLocaleString() });
  }
  if (lines) cols.push({ head: "var.", num: true, title: "Variation lines that play it (not counted in the other columns)", cell: (c) => c.variations || "" });
  cols.push(
    { head: "share", num: true, cell: (c, total) => pct(c.count, total) },
    { head: "B win", num: true, cell: (c) => pct(c.black_wins, c.count) },
    { head: "W win", num: true, cell: (c) => pct(c.white_wins, c.count) },
  );
  // The engine's figures beside the results: both say how the move held up.
  if (conts.some((c) => c.analysed > 0)) cols.push(...ENGINE_COLUMNS);
  cols.push(
    { head: "mover", num: true, title: "Mean rank of the player who played it", cell: (c) => rankLabel(c.mover_rank), tip: (c) => c.mover_ranked ? `over ${c.mover_ranked} ranked` : "" },
    { head: "opp.", num: true, title: "Mean rank of that player's opponent", cell: (c) => rankLabel(c.opponent_rank), tip: (c) => c.opponent_ranked ? `over ${c.opponent_ranked} ranked` : "" },
    { head: "years", title: "First and last year it was played", cell: years },
    { head: "example", title: "A game that played it (the strongest, then the newest): click to open it", example: true, cell: (c) => c.example || "" },
  );
  return cols;
}

// The engine's view of a row, over the analysed games that played it (means after the move,
// as the API gives them): shown only when some row has one, so that an index without
// evaluations keeps the table as it was. A row without analysed games shows dashes, not 0:
// its means are unknown, not nil. Black's side for the win rate and the lead (as the viewer's
// graph and the mistakes' before → after), the mover's for the loss.
const ENGINE_COLUMNS = [
  { head: "analysed", num: true, eng: true, title: "Analysed games that played it (the engine's columns are means over them)", cell: (c) => c.analysed ? c.analysed.toLocaleString() : "–" },
  { head: "B after", num: true, eng: true, title: "Black's mean win rate after the move, by the engine (Black's side whoever played it)", cell: (c) => evalText(c, c.black_win_after, percent) },
  { head: "lead", num: true, eng: true, title: "Black's mean score lead after the move: B+ Black ahead, W+ White ahead", cell: (c) => evalText(c, c.black_lead_after, lead) },
  { head: "loss", num: true, eng: true, title: "The mover's mean loss of win rate by the move (negative: a gain)", cell: (c) => evalText(c, c.win_loss, (w) => tenths(100 * w) + "%") },
  { head: "pt loss", num: true, eng: true, title: "The mover's mean loss of points by the move (negative: a gain)", cell: (c) => evalText(c, c.points_loss, tenths) },
];

// A row's engine figure as text: a dash where no analysed game gives it.
function evalText(c, v, format) {
  return c.analysed > 0 && v !== null && v !== undefined ? format(v) : "–";
}

// A number to one decimal, without the "-0.0" of a tiny negative.
function tenths(v) {
  const t = v.toFixed(1);
  return t === "-0.0" ? "0.0" : t;
}

// A mean loss worth a mark on the board's label (the Mistakes mode's default, 10%, or 3
// points): what players lost on average when they played it, not one game's blunder.
function costly(c) {
  return c.analysed > 0 && ((c.win_loss ?? 0) >= 0.1 || (c.points_loss ?? 0) >= 3);
}

// The engine's figures of a row in words (its board label's tooltip).
function engineWords(c) {
  if (!(c.analysed > 0)) return "";
  const parts = [`${c.analysed} analysed`];
  if (c.black_win_after !== null && c.black_win_after !== undefined) {
    parts.push(`Black ${percent(c.black_win_after)}${c.black_lead_after !== null && c.black_lead_after !== undefined ? " " + lead(c.black_lead_after) : ""} after`);
  }
  if (c.win_loss !== null && c.win_loss !== undefined) {
    parts.push(`the mover lost ${tenths(100 * c.win_loss)}%${c.points_loss !== null && c.points_loss !== undefined ? `, ${tenths(c.points_loss)} pt` : ""}`);
  }
  return parts.join(", ");
}

function renderContinuations() {
  const body = $("#conts tbody");
  body.replaceChildren();
  const conts = (answer && answer.continuations) || [];
  // The moves these rows count that the engine judged: their mistakes are a click away.
  $("#mistakes-from").hidden = !conts.some((c) => c.analysed > 0);
  const total = conts.reduce((n, c) => n + c.count, 0) || 1;
  const cols = contColumns(conts);
  const head = document.createElement("tr");
  for (const col of cols) {
    const th = document.createElement("th");
    th.textContent = col.head;
    if (col.title) th.title = col.title;
    if (col.eng) th.className = "eng";
    head.appendChild(th);
  }
  $("#conts thead").replaceChildren(head);
  const canFollow = followable(state);
  for (const c of conts.slice(0, 40)) {
    const tr = document.createElement("tr");
    tr.className = "cont-row";
    tr.dataset.pt = c.point;
    tr.dataset.color = c.color;
    tr.dataset.count = c.count;
    for (const col of cols) {
      const td = document.createElement("td");
      const v = col.cell(c, total);
      if (col.example && v) {
        const a = document.createElement("a");
        a.href = "#";
        a.className = "example";
        a.textContent = v;
        a.addEventListener("click", (e) => { e.preventDefault(); e.stopPropagation(); openExample(v); });
        td.appendChild(a);
        td.className = "name";
        td.title = `${v}: open this game`;
      } else {
        td.textContent = v;
        if (col.num) td.className = col.eng ? "num eng" : "num";
        if (col.tip && col.tip(c)) td.title = col.tip(c);
      }
      tr.appendChild(td);
    }
    if (canFollow) {
      tr.title = state.pattern ? "Add it to the shape and search again" : "Play it and search again";
      tr.addEventListener("click", () => follow(c));
    }
    body.appendChild(tr);
  }
  // The colour and move columns stay in view when a narrow window scrolls the table: the
  // move's cell sticks beside the colour's, as wide as the font and the rows make that.
  $("#conts").style.setProperty("--stone-width", head.firstChild.offsetWidth + "px");
}

// Opens a continuation's example game (`FILE#GAME`) in the viewer, at the position where the
// search hit it (the first hit in it, found by searching that file alone), so that the next
// moves show what was played; at its start when it cannot be found.
async function openExample(name) {
  const cut = name.lastIndexOf("#");
  if (cut < 0) return;
  const file = name.slice(0, cut);
  const game = parseInt(name.slice(cut + 1), 10) || 0;
  let at = 0;
  // A name the query language cannot quote as it is is opened at its start.
  if (!/["\\]/.test(file)) {
    try {
      const a = await getJson(apiUrl({ ...state, offset: 0 }, `file:"${file}"`));
      const hit = (a.hits || []).find((h) => h.file === file && h.game === game && !h.variation);
      if (hit && hit.moves.length) at = hit.moves[0];
    } catch (e) {
      // The game still opens, at its start.
    }
  }
  commit((s) => { s.view = [file, game, at, at, ""].join("\t"); });
}

// ---- the date profile --------------------------------------------------------------------

// The answer's date profile as an SVG chart: a stacked bar per year (or month) with games
// Black won, White won and the rest, and Black's win rate over the decided games as a line
// (the right axis, 50% dashed). Periods stand on a time axis, so a gap in the years shows.
// Undated games (and, by month, games dated by year only) are said, not drawn.
function renderProfile() {
  const box = $("#profile");
  const note = $("#profile-note");
  $("#by-month").checked = state.byMonth;
  const prof = answer && answer.profile;
  const periods = prof ? (prof.months || prof.years || []) : [];
  const notes = [];
  if (prof && prof.undated) notes.push(`${prof.undated.toLocaleString()} undated ${prof.undated === 1 ? "game" : "games"} not drawn`);
  if (prof && prof.no_month) notes.push(`${prof.no_month.toLocaleString()} dated by year only, not drawn by month`);
  note.textContent = notes.join(" · ");
  if (!periods.length) { box.replaceChildren(); return; }
  const slot = (p) => (p.month ? p.year * 12 + p.month - 1 : p.year);
  const first = slot(periods[0]), last = slot(periods[periods.length - 1]);
  const n = last - first + 1;
  const W = 600, H = 130, L = 40, R = 34, T = 8, B = 20;
  const pw = W - L - R, ph = H - T - B;
  const most = Math.max(1, ...periods.map((p) => p.games));
  const step = pw / n;
  const bw = Math.max(step * 0.8, 0.6);
  const X = (p) => L + (slot(p) - first) * step + step / 2;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "games and Black's win rate per period" });
  el("line", { x1: L, y1: T + ph, x2: L + pw, y2: T + ph, stroke: "#888", "stroke-width": 1 }, svg);
  el("line", { x1: L, y1: T + ph / 2, x2: L + pw, y2: T + ph / 2, stroke: "#1f6feb", "stroke-width": 0.6, "stroke-dasharray": "3 3", opacity: 0.6 }, svg);
  const text = (x, y, t, anchor, cls) => { el("text", { x, y, "text-anchor": anchor, class: cls || "axis" }, svg).textContent = t; };
  text(L - 4, T + 8, most.toLocaleString(), "end");
  text(L - 4, T + ph, "0", "end");
  text(L + pw + 4, T + 8, "100%", "start", "axis rate");
  text(L + pw + 4, T + ph / 2 + 3, "50%", "start", "axis rate");
  text(L + pw + 4, T + ph, "0%", "start", "axis rate");
  // Year ticks: at most about eight, on round years.
  const span = periods[periods.length - 1].year - periods[0].year + 1;
  const every = [1, 2, 5, 10, 20, 50, 100, 200, 500].find((e) => span / e <= 8) || 1000;
  for (let y = Math.ceil(periods[0].year / every) * every; y <= periods[periods.length - 1].year; y += every) {
    const x = L + ((periods[0].month ? y * 12 : y) - first) * step + (periods[0].month ? 0 : step / 2);
    // By month, a year's January may lie before the first month drawn.
    if (x >= L) text(x, H - 6, String(y), "middle");
  }
  const rate = [];
  for (const p of periods) {
    const g = el("g", { class: "period", "data-period": p.month ? `${p.year}-${String(p.month).padStart(2, "0")}` : String(p.year) }, svg);
    const x = X(p) - bw / 2;
    let top = T + ph;
    const part = (count, fill, cls) => {
      if (!count) return;
      const h = (count / most) * ph;
      top -= h;
      el("rect", { x, y: top, width: bw, height: h, fill, class: cls }, g);
    };
    const other = p.games - p.black_wins - p.white_wins;
    part(p.black_wins, "#222", "b");
    part(p.white_wins, "#f4f4f4", "w");
    if (p.white_wins) g.lastChild.setAttribute("stroke", "#999");
    part(other, "#aaa", "o");
    // The whole period's height, for the pointer and the tooltip.
    el("rect", { x: L + (slot(p) - first) * step, y: T, width: step, height: ph, fill: "transparent" }, g);
    const when = p.month ? `${p.year}-${String(p.month).padStart(2, "0")}` : String(p.year);
    el("title", {}, g).textContent =
      `${when}: ${p.games.toLocaleString()} ${p.games === 1 ? "game" : "games"}, Black won ${pct(p.black_wins, p.games)}, White won ${pct(p.white_wins, p.games)}`;
    const decided = p.black_wins + p.white_wins;
    if (decided) rate.push({ at: slot(p), x: X(p), y: T + ph - (p.black_wins / decided) * ph });
  }
  // The rate's line is broken where a period has no decided game: no line crosses a gap.
  let run = [];
  const draw = () => {
    if (run.length > 1) {
      el("polyline", { points: run.map((r) => `${r.x.toFixed(1)},${r.y.toFixed(1)}`).join(" "), fill: "none", stroke: "#1f6feb", "stroke-width": 1.5, class: "rate" }, svg);
    } else if (run.length === 1) {
      el("circle", { cx: run[0].x, cy: run[0].y, r: 2, fill: "#1f6feb", class: "rate" }, svg);
    }
  };
  rate.forEach((r, i) => {
    if (i && r.at !== rate[i - 1].at + 1) { draw(); run = []; }
    run.push(r);
  });
  draw();
  box.replaceChildren(svg);
}

function renderGames() {
  const body = $("#games tbody");
  body.replaceChildren();
  const hits = answer ? [...answer.hits] : [];
  if (clientSort) {
    const k = clientSort.key;
    hits.sort((a, b) => String(a[k] || "").localeCompare(String(b[k] || "")) * (clientSort.up ? 1 : -1));
  }
  hits.forEach((h, i) => {
    const tr = document.createElement("tr");
    tr.className = h.variation ? "game-row variation" : "game-row";
    const moves = h.moves.length ? h.moves.slice(0, 3).join(",") : "";
    const cells = [
      state.offset + i + 1, h.black || "?", h.white || "?", h.date || "", h.event || "", h.result || "",
      h.variation ? `${moves} (variation)` : moves,
    ];
    cells.forEach((v, j) => {
      const td = document.createElement("td");
      td.textContent = v;
      if (j === 1 || j === 2 || j === 4) { td.className = "name"; td.title = v; }
      if (j === 0 || j === 6) td.className = "num";
      tr.appendChild(td);
    });
    // A hit on a variation line (an index built with variations) opens that line, not the
    // game's main line, whose board at the hit's move is another.
    const line = h.variation ? h.variation.path : "";
    tr.title = `${h.file} #${h.game}` + (line ? `, variation ${line}` : "");
    tr.addEventListener("click", () => commit((s) => { s.view = [h.file, h.game, h.moves[0] || 0, h.moves[0] || 0, line].join("\t"); }));
    body.appendChild(tr);
  });
  for (const th of document.querySelectorAll("#games th[data-sort]")) {
    const k = th.dataset.sort;
    const server = (k === "date" && (state.sort === "oldest" || state.sort === "newest")) ||
      (k === "positions" && state.sort === "positions") || (k === "indexed" && state.sort === "indexed" && !clientSort);
    const client = clientSort && clientSort.key === k;
    th.classList.toggle("sorted", Boolean(server || client));
    th.classList.toggle("up", Boolean((client && clientSort.up) || (k === "date" && state.sort === "oldest")));
  }
  const games = answer ? answer.games : 0;
  // An offset past the end (a URL typed or kept while the answer shrank) says so.
  $("#page").textContent = !games ? "no games"
    : state.offset >= games ? `past the last of ${games.toLocaleString()}`
    : `${state.offset + 1}–${Math.min(games, state.offset + PAGE)} of ${games.toLocaleString()}`;
  $("#prev").disabled = state.offset === 0;
  $("#next").disabled = state.offset + PAGE >= games;
}

// Date and hit counts are sorted by the server over all hits; names, event and result within
// the page shown.
function sortBy(key) {
  if (key === "date") {
    clientSort = null;
    commit((s) => { s.sort = s.sort === "newest" ? "oldest" : "newest"; s.offset = 0; });
  } else if (key === "positions" || key === "indexed") {
    clientSort = null;
    commit((s) => { s.sort = key; s.offset = 0; });
  } else {
    clientSort = clientSort && clientSort.key === key ? { key, up: !clientSort.up } : { key, up: true };
    renderGames();
  }
}

// ---- the game viewer ---------------------------------------------------------------------

let viewed = null;      // {file, game, k, hit, line, data}: the game (or line) in the viewer, its board at k
let viewSeq = 0;
// The evaluations and mistakes of the game last viewed, with the request they answer (its path
// and threshold, not its move): a step within the game asks the server for the board only.
let viewEvals = { key: "", evaluations: null, mistakes: null, mistake_threshold: null };

function viewParts() {
  const [file, game, k, hit, line] = state.view.split("\t");
  const at = parseInt(k, 10) || 0;
  return { file, game: parseInt(game, 10) || 0, k: at, hit: hit === undefined ? at : parseInt(hit, 10) || 0, line: line || "" };
}

function gamePath(file, game) {
  return "/api/game/" + file.split("/").map(encodeURIComponent).join("/") + "/" + game;
}

// In Mistakes mode the viewer marks a game's mistakes at the mode's threshold (the row
// clicked among them); else at the server's default.
function viewUrl(v, withEvals) {
  return gamePath(v.file, v.game) + "?at=" + v.k + evalsParams(v) + (withEvals ? "" : "&evaluations=false");
}

// The parts of a game's request that decide its evaluations and mistakes.
function evalsParams(v) {
  return (v.line ? "&line=" + encodeURIComponent(v.line) : "") +
    (state.mk && state.mkLoss.trim() ? "&mistakes=" + encodeURIComponent(state.mkLoss.trim()) : "");
}

async function renderViewer() {
  const box = $("#viewer");
  if (!state.view) { box.hidden = true; viewed = null; return; }
  box.hidden = false;
  const v = viewParts();
  const seq = ++viewSeq;
  try {
    const key = gamePath(v.file, v.game) + evalsParams(v);
    const known = viewEvals.key === key;
    const g = await getJson(viewUrl(v, !known));
    if (seq !== viewSeq) return;
    if (known) {
      Object.assign(g, { evaluations: viewEvals.evaluations, mistakes: viewEvals.mistakes, mistake_threshold: viewEvals.mistake_threshold });
    } else {
      viewEvals = { key, evaluations: g.evaluations || null, mistakes: g.mistakes || null, mistake_threshold: g.mistake_threshold || null };
    }
    viewed = { ...v, data: g };
    const info = g.info;
    $("#viewer-title").textContent = `${info.black || "?"} – ${info.white || "?"}`;
    const line = g.line ? `variation ${g.line.path}` : "";
    $("#viewer-info").textContent = [info.date, info.event, info.result, `${info.file} #${info.game_in_file}`, line]
      .filter(Boolean).join(" · ");
    $("#viewer-move").textContent = `move ${g.at} / ${g.moves.length}`;
    $("#viewer-sgf").href = g.sgf;
    const last = g.at > 0 ? g.moves[g.at - 1].point : "";
    // The mistakes played so far whose stone is still on the board.
    const rings = (g.mistakes || []).filter((m) => m.move_number <= g.at && m.point &&
      (m.color === "B" ? g.black : g.white).includes(m.point)).map((m) => m.point);
    drawBoard($("#viewer-board"), { size: g.board[0], black: g.black, white: g.white, last, rings });
    renderEvaluations(g);
  } catch (e) {
    if (seq !== viewSeq) return;
    $("#viewer-title").textContent = "";
    $("#viewer-info").textContent = e.message;
    renderEvaluations(null);
  }
}

function percent(w) { return (100 * w).toFixed(1) + "%"; }
// Black's lead as players write it (B+2.5, W+0.5); even when it shows as 0.0 either way.
function lead(l) {
  if (l === null || l === undefined) return "";
  const t = Math.abs(l).toFixed(1);
  return t === "0.0" ? t : (l > 0 ? "B+" : "W+") + t;
}

// The game's evaluation graph (the record's own evaluations, as the API gives them): Black's
// win rate over the moves (left axis, 50% dashed), Black's score lead when the record has one
// (orange, right axis, symmetric about 0), the move shown as a blue line, the mistakes the
// server found (the library's rule and threshold) as red marks. A click goes to the move under
// it.
function renderEvaluations(g) {
  const box = $("#viewer-graph"), list = $("#viewer-mistakes"), now = $("#viewer-eval");
  const evals = g && g.evaluations ? g.evaluations.positions : [];
  $("#viewer .panel").classList.toggle("evals", evals.length > 0);
  if (!evals.length) { box.replaceChildren(); list.replaceChildren(); now.textContent = ""; return; }
  const here = evals.find((e) => e.move === g.at);
  now.textContent = here
    ? `move ${g.at}: Black ${percent(here.win)}${here.lead !== null && here.lead !== undefined ? " · " + lead(here.lead) : ""}${here.visits ? ` · ${here.visits} visits` : ""} (${g.evaluations.program})`
    : `move ${g.at}: no evaluation (${g.evaluations.program})`;
  const n = Math.max(1, g.moves.length);
  const W = 600, H = 120, L = 34, R = 40, T = 6, B = 14;
  const pw = W - L - R, ph = H - T - B;
  const X = (k) => L + (k / n) * pw;
  const Y = (w) => T + (1 - w) * ph;
  const leads = evals.filter((e) => e.lead !== null && e.lead !== undefined);
  const most = Math.max(1, ...leads.map((e) => Math.abs(e.lead)));
  const Yl = (l) => T + ph / 2 - (l / most) * (ph / 2);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "Black's win rate and score lead by move" });
  el("rect", { x: L, y: T, width: pw, height: ph, fill: "#fafafa" }, svg);
  el("line", { x1: L, y1: Y(0.5), x2: L + pw, y2: Y(0.5), stroke: "#999", "stroke-width": 0.6, "stroke-dasharray": "3 3" }, svg);
  const text = (x, y, t, anchor, cls) => { el("text", { x, y, "text-anchor": anchor, class: cls || "axis" }, svg).textContent = t; };
  text(L - 3, T + 8, "100%", "end");
  text(L - 3, Y(0.5) + 3, "50%", "end");
  text(L - 3, T + ph, "0%", "end");
  if (leads.length) {
    text(L + pw + 3, T + 8, "B+" + most.toFixed(0), "start", "axis lead");
    text(L + pw + 3, T + ph, "W+" + most.toFixed(0), "start", "axis lead");
  }
  text(L, H - 3, "0", "middle");
  text(L + pw, H - 3, String(g.moves.length), "middle");
  for (const m of g.mistakes || []) {
    el("line", { x1: X(m.move_number), y1: T, x2: X(m.move_number), y2: T + ph, stroke: "#cf222e", "stroke-width": 0.8, opacity: 0.35 }, svg);
  }
  const line = (pts, cls, colour) => {
    if (pts.length > 1) el("polyline", { points: pts.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" "), fill: "none", stroke: colour, "stroke-width": 1.4, class: cls }, svg);
  };
  if (leads.length) line(leads.map((e) => [X(e.move), Yl(e.lead)]), "lead", "#d46b08");
  line(evals.map((e) => [X(e.move), Y(e.win)]), "win", "#222");
  const points = el("g", { class: "points" }, svg);
  for (const e of evals) {
    const c = el("circle", {
      cx: X(e.move), cy: Y(e.win), r: 1.3, fill: "#222", class: "ev",
      "data-move": e.move, "data-win": e.win, "data-lead": e.lead === null || e.lead === undefined ? "" : e.lead,
    }, points);
    el("title", {}, c).textContent = `move ${e.move}: Black ${percent(e.win)} ${lead(e.lead)}`;
  }
  for (const m of g.mistakes || []) {
    const x = X(m.move_number), y = Y(m.after.black_win);
    const t = el("path", { d: `M${x - 3.5},${y - 6} L${x + 3.5},${y - 6} L${x},${y - 1} Z`, fill: "#cf222e", class: "mistake", "data-move": m.move_number }, svg);
    el("title", {}, t).textContent = mistakeLabel(m, g.board[1]);
  }
  el("line", { x1: X(g.at), y1: T, x2: X(g.at), y2: T + ph, stroke: "#1f6feb", "stroke-width": 1.5, class: "now", "data-move": g.at }, svg);
  svg.addEventListener("click", (e) => {
    const r = svg.getBoundingClientRect();
    const x = ((e.clientX - r.left) / r.width) * W;
    stepViewer(Math.round(((x - L) / pw) * n));
  });
  box.replaceChildren(svg);
  list.replaceChildren();
  if (g.mistakes && g.mistakes.length) {
    const head = document.createElement("span");
    head.textContent = `Mistakes (${g.mistake_threshold}):`;
    list.appendChild(head);
    for (const m of g.mistakes) {
      const b = document.createElement("button");
      b.className = "mistake";
      b.dataset.move = m.move_number;
      b.textContent = `${m.move_number} ${m.color === "B" ? "●" : "○"} ${gtp(m.point, g.board[1])} −${percent(m.loss.win)}`;
      b.title = mistakeLabel(m, g.board[1]);
      b.addEventListener("click", () => stepViewer(m.move_number));
      list.appendChild(b);
    }
  }
}

// A mistake as a line of text: move, point, what it lost, Black's win rate before and after.
function mistakeLabel(m, size) {
  return `move ${m.move_number}, ${m.color === "B" ? "Black" : "White"} ${gtp(m.point, size)}: lost ${lossText(m.loss)}; ` +
    `Black ${percent(m.before.black_win)} → ${percent(m.after.black_win)}`;
}

function lossText(loss) {
  return percent(loss.win) + (loss.points !== null && loss.points !== undefined ? `, ${loss.points.toFixed(1)} pt` : "");
}

// ---- Mistakes mode -----------------------------------------------------------------------

let mkAnswer = null;
let mkSeq = 0;

// The mode's search: over all games, or from the explorer's query it was opened with (its
// parameters first, the mode's own set over them).
function mistakesUrl(s) {
  const p = new URLSearchParams(s.mkFrom);
  p.set("mistakes", s.mkLoss.trim() || "10%");
  p.set("limit", PAGE);
  if (s.mkOffset) p.set("offset", s.mkOffset);
  if (s.mkPlayer.trim()) p.set("player", s.mkPlayer.trim());
  if (s.mkSince.trim()) p.set("since", s.mkSince.trim());
  if (s.mkUntil.trim()) p.set("until", s.mkUntil.trim());
  if (s.mkSort) p.set("sort", s.mkSort);
  return "/api/mistakes?" + p.toString();
}

async function searchMistakes() {
  const seq = ++mkSeq;
  setStatus("searching…", true);
  try {
    const a = await getJson(mistakesUrl(state));
    if (seq !== mkSeq) return;
    mkAnswer = a;
    setStatus("", true);
  } catch (e) {
    if (seq !== mkSeq) return;
    mkAnswer = null;
    setStatus(e.message, false);
  }
  renderMistakes();
}

// The hits of the mistakes search, as the API orders them: the mover, the move (its point on
// a 19×19 board: a hit does not say its board), the loss, Black's win rate before and after.
// A click opens the game after that move.
function renderMistakes() {
  const body = $("#mistakes tbody");
  body.replaceChildren();
  const a = mkAnswer;
  $("#mk-from").hidden = !state.mkFrom;
  $("#mk-from-what").textContent = state.mkFrom ? fromWords(state.mkFrom) : "";
  $("#mk-summary").textContent = !a ? "" :
    `${a.total.toLocaleString()} ${a.total === 1 ? "move" : "moves"} in ${a.analysed_games.toLocaleString()} analysed games`;
  const total = a ? a.total : 0;
  $("#mk-page").textContent = !total ? "no moves"
    : state.mkOffset >= total ? `past the last of ${total.toLocaleString()}`
    : `${state.mkOffset + 1}–${Math.min(total, state.mkOffset + PAGE)} of ${total.toLocaleString()}`;
  $("#mk-prev").disabled = state.mkOffset === 0;
  $("#mk-next").disabled = state.mkOffset + PAGE >= total;
  for (const m of a ? a.hits : []) {
    const tr = document.createElement("tr");
    tr.className = "mistake-row";
    Object.assign(tr.dataset, { file: m.info.file, game: m.info.game_in_file, move: m.move_number });
    const mover = m.color === "B" ? m.info.black : m.info.white;
    const cells = [
      [(m.color === "B" ? "● " : "○ ") + (mover || "?"), "name"],
      [`${m.move_number} ${gtp(m.point, m.board[1])}`, "num"],
      [lossText(m.loss), "num loss"],
      [`${percent(m.before.black_win)} → ${percent(m.after.black_win)}`, "num"],
      [`${m.info.black || "?"} – ${m.info.white || "?"}`, "name"],
      [m.info.date || "", ""],
    ];
    for (const [v, cls] of cells) {
      const td = document.createElement("td");
      td.textContent = v;
      if (cls) td.className = cls;
      tr.appendChild(td);
    }
    tr.title = `${m.info.file} #${m.info.game_in_file}: open it after move ${m.move_number}`;
    tr.addEventListener("click", () => commit((s) => { s.view = [m.info.file, m.info.game_in_file, m.move_number, m.move_number, ""].join("\t"); }));
    body.appendChild(tr);
  }
}

// The explorer's query the mode searches from, in words: "from this position (2 black, 1
// white)", "from this pattern", "from this sequence (B Q16 W D4)", and its filter.
function fromWords(from) {
  const p = new URLSearchParams(from);
  const size = parseInt(p.get("size") || "19", 10) || 19;
  const count = (k) => (p.get(k) || "").split(",").filter(Boolean).length;
  let what;
  if (p.has("diagram")) {
    what = "from this pattern" + (p.get("anywhere") === "true" ? " (anywhere)" : "");
  } else if (p.has("moves")) {
    const moves = (p.get("moves") || "").split(" ").filter(Boolean)
      .map((m) => `${m[0]} ${gtp(m.slice(2, 4), size)}`);
    what = `from this sequence (${moves.length > 6 ? moves.slice(0, 6).join(" ") + " …" : moves.join(" ")})`;
  } else {
    const b = count("black"), w = count("white");
    what = b + w ? `from this position (${b} black, ${w} white)` : "from the empty board";
  }
  return what + (p.get("query") ? ` · games of ${p.get("query")}` : "");
}

// Opens the Mistakes mode on what the explorer shows (its query and filters).
function mistakesFromHere() {
  commit((s) => { s.mk = true; s.mkFrom = queryOf(s).params.toString(); s.mkOffset = 0; s.view = ""; });
}

function stepViewer(to) {
  if (!viewed) return;
  const n = viewed.data.moves.length;
  const k = Math.max(0, Math.min(n, to));
  // Steps replace the history entry: Back leaves the viewer rather than undoing each move.
  state.view = [viewed.file, viewed.game, k, viewed.hit, viewed.line].join("\t");
  history.replaceState(null, "", "#" + encodeState(state));
  renderViewer();
}

function closeViewer() { commit((s) => { s.view = ""; }); }

function exploreViewed() {
  if (!viewed) return;
  const g = viewed.data;
  const next = g.moves[g.at];
  commit((s) => {
    s.size = g.board[0];
    s.black = g.black; s.white = g.white;
    s.toMove = next ? next.color : (g.at % 2 ? "B" : "W");
    s.last = g.at > 0 ? g.moves[g.at - 1].point : "";
    s.pattern = false; s.marks = {}; s.region = null; s.offset = 0; s.view = ""; s.moves = [];
  });
}

// ---- wiring ------------------------------------------------------------------------------

function refresh() {
  render();
  if (state.mk) searchMistakes(); else search();
}

function setTool(t) {
  tool = t;
  regionStart = null;
  render();
}

function wire() {
  for (const b of document.querySelectorAll("#tools button[data-tool]")) b.addEventListener("click", () => setTool(b.dataset.tool));
  $("#pattern-mode").addEventListener("change", (e) => commit((s) => { s.pattern = e.target.checked; s.offset = 0; }));
  $("#sequence").addEventListener("change", (e) => commit((s) => { s.sequence = e.target.checked; s.offset = 0; }));
  $("#anywhere").addEventListener("change", (e) => commit((s) => { s.anywhere = e.target.checked; s.offset = 0; }));
  $("#symmetry").addEventListener("change", (e) => commit((s) => { s.symmetry = e.target.checked; s.offset = 0; }));
  $("#swap").addEventListener("change", (e) => commit((s) => { s.swap = e.target.checked; s.offset = 0; }));
  $("#nextmove").addEventListener("change", (e) => commit((s) => { s.next = e.target.value; s.offset = 0; }));
  $("#by-month").addEventListener("change", (e) => commit((s) => { s.byMonth = e.target.checked; }));
  $("#size").addEventListener("change", (e) => commit((s) => {
    const keep = emptyState();
    Object.assign(s, { ...keep, size: parseInt(e.target.value, 10), symmetry: s.symmetry, swap: s.swap, byMonth: s.byMonth, sequence: s.sequence,
      player: s.player, event: s.event, from: s.from, to: s.to, winner: s.winner, query: s.query });
  }));
  $("#clear").addEventListener("click", clearBoard);
  $("#back").addEventListener("click", () => history.back());
  $("#forward").addEventListener("click", () => history.forward());
  $("#prev").addEventListener("click", () => commit((s) => { s.offset = Math.max(0, s.offset - PAGE); }));
  $("#next").addEventListener("click", () => commit((s) => { s.offset += PAGE; }));
  $("#meta").addEventListener("submit", (e) => {
    e.preventDefault();
    commit((s) => {
      for (const k of ["player", "event", "from", "to", "winner", "query"]) s[k] = $("#f-" + k).value;
      s.offset = 0;
    });
  });
  for (const th of document.querySelectorAll("#games th[data-sort]")) th.addEventListener("click", () => sortBy(th.dataset.sort));
  // The header's button searches all games; the explorer's "mistakes" link, from its query.
  $("#mode-mistakes").addEventListener("click", () => commit((s) => { s.mk = !s.mk; s.mkFrom = ""; s.mkOffset = 0; }));
  $("#mistakes-from").addEventListener("click", mistakesFromHere);
  $("#mk-from-clear").addEventListener("click", () => commit((s) => { s.mkFrom = ""; s.mkOffset = 0; }));
  $("#mk-prev").addEventListener("click", () => commit((s) => { s.mkOffset = Math.max(0, s.mkOffset - PAGE); }));
  $("#mk-next").addEventListener("click", () => commit((s) => { s.mkOffset += PAGE; }));
  $("#mk-form").addEventListener("submit", (e) => {
    e.preventDefault();
    commit((s) => {
      s.mkLoss = $("#mk-loss").value; s.mkPlayer = $("#mk-player").value;
      s.mkSince = $("#mk-since").value; s.mkUntil = $("#mk-until").value; s.mkSort = $("#mk-sort").value;
      s.mkOffset = 0;
    });
  });
  $("#viewer-close").addEventListener("click", closeViewer);
  $("#viewer").addEventListener("click", (e) => { if (e.target.id === "viewer") closeViewer(); });
  $("#v-first").addEventListener("click", () => stepViewer(0));
  $("#v-prev").addEventListener("click", () => viewed && stepViewer(viewed.data.at - 1));
  $("#v-next").addEventListener("click", () => viewed && stepViewer(viewed.data.at + 1));
  $("#v-last").addEventListener("click", () => viewed && stepViewer(viewed.data.moves.length));
  $("#v-hit").addEventListener("click", () => viewed && stepViewer(viewed.hit));
  $("#v-explore").addEventListener("click", exploreViewed);
  document.addEventListener("keydown", onKey);
  fetch("/api/health").then((r) => r.json()).then((h) => {
    $("#corpus").textContent = `${h.games.toLocaleString()} games`;
  }).catch(() => {});
}

function clearBoard() {
  commit((s) => {
    s.black = []; s.white = []; s.marks = {}; s.region = null; s.toMove = "B"; s.last = ""; s.offset = 0; s.view = "";
    s.moves = [];
  });
}

function onKey(e) {
  const t = e.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const inViewer = Boolean(state.view) && viewed;
  const keys = {
    ArrowLeft: () => (inViewer ? stepViewer(viewed.data.at - 1) : history.back()),
    ArrowRight: () => (inViewer ? stepViewer(viewed.data.at + 1) : history.forward()),
    Home: () => inViewer && stepViewer(0),
    End: () => inViewer && stepViewer(viewed.data.moves.length),
    Escape: () => state.view && closeViewer(),
    m: () => setTool("move"), b: () => setTool("B"), w: () => setTool("W"), e: () => setTool("erase"),
    r: () => setTool("region"), "?": () => setTool("?"), x: () => setTool("x"), o: () => setTool("o"),
    p: () => commit((s) => { s.pattern = !s.pattern; s.offset = 0; }),
    c: clearBoard,
  };
  const f = keys[e.key];
  if (f) { e.preventDefault(); f(); }
}

state = decodeState(location.hash);
wire();
syncForm();
refresh();
