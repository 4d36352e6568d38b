// The page's game: the board, the player's moves, hints, and solutions
// played back. Moves are the blank's, as the API writes them: U moves the
// blank up, so the tile above it slides down.
"use strict";

const $ = (id) => document.getElementById(id);
const MAX_OPTIMAL = 16; // cells: the largest board the databases built in memory or the 4×4 files serve
const STEP = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
const OPPOSITE = { U: "D", D: "U", L: "R", R: "L" };
// A key slides the tile on that side of the blank toward it: the blank goes the other way.
const KEYS = {
  ArrowUp: "D", w: "D", W: "D", ArrowDown: "U", s: "U", S: "U",
  ArrowLeft: "R", a: "R", A: "R", ArrowRight: "L", d: "L", D: "L",
};

const game = {
  rows: 4, cols: 4, goal: "last",
  tiles: [],      // the tile on each cell, 0 the blank
  start: [],      // the position the player was given
  moves: 0,
  clock: null,    // {t0, id} while the player's timer runs
  optimum: null,  // the start's optimal length, once asked for
  solution: null, // the solution being played back
  ready: false,   // the server's 4×4 databases are open
  five: { status: "", pending: true, ready: false }, // its 5×5 databases (/healthz)
  timeouts: { search: 0, hint: 0 }, // seconds a search, and a hint's, gets (/healthz)
  busy: false,
  hint: 0,
};

const cells = () => game.rows * game.cols;
const sizeName = () => `${game.rows}x${game.cols}`;
const isFive = () => game.rows === 5 && game.cols === 5;
// optimalServed says whether the server searches the board optimally;
// quick, whether in milliseconds (5×5 searches may take past its timeout).
const optimalServed = () => cells() <= MAX_OPTIMAL || (isFive() && game.five.ready);
const quick = () => cells() <= MAX_OPTIMAL;

function goalTiles() {
  const n = cells();
  return Array.from({ length: n }, (_, i) => (game.goal === "last" ? (i + 1) % n : i));
}

const isSolved = () => game.tiles.every((t, i) => t === goalTiles()[i]);

// move plays one blank move and returns the tile it slid, or 0 off the board.
function move(m) {
  const b = game.tiles.indexOf(0);
  const r = Math.floor(b / game.cols) + STEP[m][0], c = (b % game.cols) + STEP[m][1];
  if (r < 0 || r >= game.rows || c < 0 || c >= game.cols) return 0;
  const t = game.tiles[r * game.cols + c];
  game.tiles[b] = t;
  game.tiles[r * game.cols + c] = 0;
  return t;
}

// The human-style solver's regions in the order it works them: the rows
// down to two, the columns of those two, then the last 2×2; mirrored for
// the goal "first", which it solves turned by 180°.
function regions() {
  const R = game.rows, C = game.cols, out = [];
  for (let top = 0; R - top > 2; top++) out.push({ r0: top, c0: 0, r1: top, c1: C - 1, name: `row ${top + 1}` });
  for (let left = 0; C - left > 2; left++) out.push({ r0: R - 2, c0: left, r1: R - 1, c1: left, name: `column ${left + 1}` });
  out.push({ r0: R - 2, c0: C - 2, r1: R - 1, c1: C - 1, name: "the last 2×2" });
  if (game.goal === "first") {
    for (const g of out) {
      [g.r0, g.r1, g.c0, g.c1] = [R - 1 - g.r1, R - 1 - g.r0, C - 1 - g.c1, C - 1 - g.c0];
      g.name = g.name.replace(/(row|column) (\d+)/, (_, what, k) => `${what} ${(what === "row" ? R : C) + 1 - k}`);
    }
  }
  return out;
}

// currentRegion is the first region not yet in place: the one being worked on.
function currentRegion() {
  const goal = goalTiles();
  return regions().find((g) => {
    for (let r = g.r0; r <= g.r1; r++)
      for (let c = g.c0; c <= g.c1; c++)
        if (game.tiles[r * game.cols + c] !== goal[r * game.cols + c]) return true;
    return false;
  });
}

// --- Drawing ---

const board = $("board");

function buildBoard() {
  board.replaceChildren();
  board.style.aspectRatio = `${game.cols} / ${game.rows}`;
  board.style.setProperty("--digits", `calc(min(92vw, 28rem) / ${Math.max(game.rows, game.cols)} * 0.4)`);
  const region = document.createElement("div");
  region.className = "region";
  region.id = "region";
  region.hidden = true;
  board.append(region);
  for (let t = 1; t < cells(); t++) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tile";
    b.dataset.tile = t;
    b.textContent = t;
    b.style.width = `${100 / game.cols}%`;
    b.style.height = `${100 / game.rows}%`;
    board.append(b);
  }
  noteSize();
}

// noteSize says why the board's hints and solutions are human-style, if
// they are, and what to expect of optimal 5×5 searches, which take from
// seconds to hours.
function noteSize() {
  const t = game.timeouts;
  $("size-note").hidden = optimalServed() && !isFive();
  $("size-note").textContent = !isFive()
    ? "Boards over 16 cells other than 5×5 are beyond the pattern databases: hints and solutions are human-style, not optimal."
    : game.five.ready
      ? `Optimal 5×5 searches take from seconds (near the goal) to hours: this server gives each ${t.search} s, and a hint ${t.hint} s before it gives the human-style move.`
      : `Optimal 5×5 searches need the 24-puzzle's pattern databases: ${game.five.status}. Hints and solutions are human-style meanwhile.`;
}

// fileFive puts 5×5 among the sizes solved optimally once its databases
// are open (issue 67: it stayed under "Human-style only").
function fileFive() {
  const five = [...$("size").options].find((o) => o.value === "5x5");
  const optimal = $("size").querySelector("optgroup");
  if (five && game.five.ready && five.parentElement !== optimal) optimal.append(five);
}

function draw() {
  const goal = goalTiles();
  game.tiles.forEach((t, i) => {
    if (t === 0) return;
    const b = board.querySelector(`[data-tile="${t}"]`);
    const r = Math.floor(i / game.cols), c = i % game.cols;
    b.style.transform = `translate(${c * 100}%, ${r * 100}%)`;
    b.dataset.cell = i;
    b.classList.toggle("home", goal[i] === t);
    b.classList.toggle("hint", game.hint === t);
    b.setAttribute("aria-label", `${t}, row ${r + 1}, column ${c + 1}`);
  });
  board.dataset.tiles = game.tiles.join(",");
  board.dataset.solved = isSolved();
  $("moves").textContent = game.moves;
  drawRegion();
}

function drawRegion() {
  const el = $("region"), s = game.solution;
  const g = s && s.mode === "constructive" ? currentRegion() : null;
  el.hidden = !g;
  $("region-name").textContent = g ? `working on ${g.name}` : "";
  if (!g) return;
  el.style.width = `${((g.c1 - g.c0 + 1) * 100) / game.cols}%`;
  el.style.height = `${((g.r1 - g.r0 + 1) * 100) / game.rows}%`;
  el.style.transform = `translate(${(g.c0 * 100) / (g.c1 - g.c0 + 1)}%, ${(g.r0 * 100) / (g.r1 - g.r0 + 1)}%)`;
}

function say(text, error = false) {
  const m = $("message");
  m.textContent = text;
  m.classList.toggle("error", error);
}

const fmt = (n) => n.toLocaleString("en-US");

// waiting says whether the board's optimal searches wait for the 4×4
// databases, which the server may still be building.
const waiting = () => game.rows === 4 && game.cols === 4 && !game.ready;

function setBusy(busy) {
  game.busy = busy;
  $("hint").disabled = busy || waiting();
  $("solve-optimal").disabled = busy || waiting() || !optimalServed();
  $("solve-human").disabled = busy;
  $("shuffle").disabled = busy;
}

// --- The API ---

async function api(path, body) {
  const init = body ? { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) } : {};
  const resp = await fetch(path, init);
  const data = await resp.json();
  if (!resp.ok) throw new Error(data.error || `${resp.status} ${resp.statusText}`);
  return data;
}

const puzzle = (tiles, mode) => ({ tiles, size: sizeName(), goal: game.goal, mode });

// optimum asks for the start position's optimal length, once.
async function optimum() {
  if (game.optimum === null && quick() && !waiting()) {
    game.optimum = api("/api/solve", puzzle(game.start, "optimal")).then((r) => r.length);
  }
  return game.optimum === null ? null : game.optimum.catch(() => null);
}

// --- The player's game ---

function setPosition(tiles, seed) {
  stopSolution();
  game.tiles = tiles.slice();
  game.start = tiles.slice();
  game.moves = 0;
  game.optimum = null;
  game.hint = 0;
  stopClock();
  $("timer").textContent = "0:00";
  buildBoard();
  draw();
  $("seed").textContent = seed === null ? "" : `seed ${seed}`;
  const q = new URLSearchParams({ size: sizeName(), goal: game.goal, tiles: tiles.join(",") });
  if (seed !== null) q.set("seed", seed);
  history.replaceState(null, "", `?${q}`);
  say(isSolved() ? "Already solved: shuffle, or enter a position." : "Your move.");
  setBusy(false);
}

// shuffle draws a position: the seed's, if given, else a random one.
async function shuffle(seed = null) {
  setBusy(true);
  try {
    const r = await api(`/api/random?size=${sizeName()}&goal=${game.goal}${seed === null ? "" : `&seed=${seed}`}`);
    setPosition(r.tiles, r.seed);
  } catch (e) {
    say(e.message, true);
    setBusy(false);
  }
}

// play makes the player's blank moves.
function play(ms) {
  if (game.busy || ms.length === 0) return;
  stopSolution();
  game.hint = 0;
  if (!game.clock) startClock();
  for (const m of ms) move(m);
  game.moves += ms.length;
  draw();
  if (isSolved()) finished();
}

// slideFrom slides the tile on cell i toward the blank, with every tile between.
function slideFrom(i) {
  const b = game.tiles.indexOf(0);
  const [r, c, br, bc] = [Math.floor(i / game.cols), i % game.cols, Math.floor(b / game.cols), b % game.cols];
  if (r === br && c !== bc) play(Array(Math.abs(c - bc)).fill(c < bc ? "L" : "R"));
  else if (c === bc && r !== br) play(Array(Math.abs(r - br)).fill(r < br ? "U" : "D"));
}

async function finished() {
  const time = stopClock();
  say(`Solved in ${game.moves} moves, ${time}.`);
  const best = await optimum();
  if (best !== null && isSolved()) {
    say(game.moves === best
      ? `Solved in ${game.moves} moves, ${time}: that is the optimum!`
      : `Solved in ${game.moves} moves, ${time}. The optimum is ${best}.`);
  }
}

function startClock() {
  const t0 = Date.now();
  const tick = () => {
    const s = Math.floor((Date.now() - t0) / 1000);
    $("timer").textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  };
  game.clock = { id: setInterval(tick, 1000), tick };
}

function stopClock() {
  if (!game.clock) return $("timer").textContent;
  clearInterval(game.clock.id);
  game.clock.tick();
  game.clock = null;
  return $("timer").textContent;
}

async function hint() {
  setBusy(true);
  say("Thinking…");
  try {
    const h = await api("/api/hint", puzzle(game.tiles));
    if (h.length === 0) {
      say("Already solved.");
    } else {
      game.hint = h.tile;
      say(h.optimal
        ? `Hint: slide ${h.tile}. The goal is ${h.distance} moves away.`
        : `Hint: slide ${h.tile}: the human-style solution from here takes ${h.length} moves (not optimal).`);
    }
    draw();
  } catch (e) {
    say(e.message, true);
  }
  setBusy(false);
}

// --- Solutions played back ---

async function solve(mode) {
  setBusy(true);
  say(mode === "optimal" ? "Searching for a shortest solution…" : "Solving like a person…");
  try {
    const from = game.tiles.slice();
    const r = await api("/api/solve", puzzle(from, mode));
    stopSolution();
    game.hint = 0;
    game.solution = { mode, from, moves: r.moves.split(""), step: 0, timer: 0 };
    let info = mode === "optimal"
      ? `Optimal: ${r.length} moves · ${fmt(r.generated)} nodes generated · ${r.seconds.toFixed(3)} s`
      : `Human-style: ${r.length} moves`;
    if (mode === "constructive" && quick() && !waiting()) {
      const opt = await api("/api/solve", puzzle(from, "optimal")).catch(() => null);
      if (opt) info += ` · the optimum is ${opt.length} (${(r.length / Math.max(opt.length, 1)).toFixed(2)}×)`;
    }
    $("solution-info").textContent = info;
    $("solution-length").textContent = r.length;
    const q = new URLSearchParams({ size: sizeName(), goal: game.goal, mode, tiles: from.join(",") });
    $("gif").href = `/api/solve.gif?${q}`;
    $("player").hidden = false;
    say(`${r.length} moves: press play, or step through them.`);
    showStep();
  } catch (e) {
    say(e.message, true);
  }
  setBusy(false);
}

function showStep() {
  const s = game.solution;
  $("step").textContent = s.step;
  $("play").textContent = s.timer ? "Pause" : "Play";
  $("play").setAttribute("aria-label", s.timer ? "Pause" : "Play");
  draw();
  if (s.step === s.moves.length && isSolved()) say(`Solved: ${s.moves.length} moves.`);
}

function step(forward) {
  const s = game.solution;
  if (forward && s.step < s.moves.length) move(s.moves[s.step++]);
  else if (!forward && s.step > 0) move(OPPOSITE[s.moves[--s.step]]);
  else return false;
  return true;
}

function seek(end) {
  pause();
  while (step(end)) { /* to the end or the start */ }
  showStep();
}

function pause() {
  const s = game.solution;
  if (s && s.timer) {
    clearInterval(s.timer);
    s.timer = 0;
  }
}

function togglePlay() {
  const s = game.solution;
  if (s.timer) {
    pause();
  } else {
    if (s.step === s.moves.length) seek(false);
    s.timer = setInterval(() => {
      if (!step(true)) pause();
      showStep();
    }, 1000 / Number($("speed").value));
  }
  showStep();
}

function stopSolution() {
  pause();
  game.solution = null;
  $("player").hidden = true;
}

function setSpeed() {
  const v = Number($("speed").value);
  $("speed-value").textContent = v;
  board.style.setProperty("--slide", `${Math.min(120, 800 / v)}ms`);
  const s = game.solution;
  if (s && s.timer) {
    pause();
    togglePlay();
  }
}

// --- Entering a position ---

async function enter(text, seed = null) {
  const words = text.trim().split(/[\s,]+/).filter(Boolean);
  const tiles = words.map(Number);
  const bad = words.find((w) => !/^\d+$/.test(w));
  if (bad !== undefined) return say(`"${bad}" is not a tile number.`, true);
  // The size chosen, if the tiles fill it; else a square, if they make one.
  const side = Math.round(Math.sqrt(tiles.length));
  const size = tiles.length !== cells() && side * side === tiles.length ? `${side}x${side}` : sizeName();
  setBusy(true);
  try {
    // A human-style solve is instant at any size, and checks the position as every solve does.
    await api("/api/solve", { tiles, size, goal: game.goal, mode: "constructive" });
    setSize(size);
    setPosition(tiles, seed);
  } catch (e) {
    say(e.message, true);
    setBusy(false);
  }
}

function setSize(size) {
  [game.rows, game.cols] = size.split("x").map(Number);
  const select = $("size");
  if (![...select.options].some((o) => o.value === size)) select.add(new Option(size));
  select.value = size;
}

// --- Wiring ---

async function watchBuild() {
  for (;;) {
    try {
      const resp = await fetch("/healthz");
      const h = await resp.json();
      game.ready = h.ready;
      game.five = h["5x5"];
      game.timeouts = { search: h.timeout_s, hint: h.hint_timeout_s };
      fileFive();
      $("build").hidden = h.ready;
      $("build").textContent = `Optimal 4×4 searches wait for the pattern databases (built on the first run only): ${h.status}. Playing, the other sizes and the human-style solver work meanwhile.`;
      noteSize();
      setBusy(game.busy);
      if (h.ready && !game.five.pending) return;
    } catch {
      // the server restarts, or the network is down: try again
    }
    await new Promise((ok) => setTimeout(ok, 1000));
  }
}

board.addEventListener("click", (e) => {
  const t = e.target.closest(".tile");
  if (t) slideFrom(Number(t.dataset.cell));
});
document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, textarea, select, summary") || e.ctrlKey || e.metaKey || e.altKey) return;
  const m = KEYS[e.key];
  if (!m) return;
  e.preventDefault();
  const b = game.tiles.indexOf(0);
  const r = Math.floor(b / game.cols) + STEP[m][0], c = (b % game.cols) + STEP[m][1];
  if (r >= 0 && r < game.rows && c >= 0 && c < game.cols) play([m]);
});
$("shuffle").addEventListener("click", () => shuffle());
$("size").addEventListener("change", () => { setSize($("size").value); shuffle(); });
$("goal").addEventListener("change", () => { game.goal = $("goal").value; shuffle(); });
$("hint").addEventListener("click", hint);
$("solve-optimal").addEventListener("click", () => solve("optimal"));
$("solve-human").addEventListener("click", () => solve("constructive"));
$("play").addEventListener("click", togglePlay);
$("forward").addEventListener("click", () => { pause(); step(true); showStep(); });
$("back").addEventListener("click", () => { pause(); step(false); showStep(); });
$("first").addEventListener("click", () => seek(false));
$("last").addEventListener("click", () => seek(true));
$("speed").addEventListener("input", setSpeed);
$("enter-form").addEventListener("submit", (e) => { e.preventDefault(); enter($("enter-tiles").value); });

// The address bar's position or seed, if any; else a shuffle.
(async function start() {
  const q = new URLSearchParams(location.search);
  game.goal = q.get("goal") === "first" ? "first" : "last";
  $("goal").value = game.goal;
  setSize(/^\d+x\d+$/.test(q.get("size") || "") ? q.get("size") : "4x4");
  setSpeed();
  watchBuild();
  const tiles = q.get("tiles");
  if (tiles) {
    await enter(tiles, q.get("seed"));
    if (game.tiles.length) return;
  }
  const error = $("message").textContent; // the address's position's
  await shuffle(/^\d+$/.test(q.get("seed") || "") ? q.get("seed") : null);
  if (tiles) say(`A shuffled position instead of the address's, which is refused: ${error}`, true);
})();
