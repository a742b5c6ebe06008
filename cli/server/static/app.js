// The page: open a deal, show its verdict, watch the solution, play it with hints.
// Every answer comes from the public /v1 API (api.js); the service judges every move played.

import { api, ApiError } from "./api.js";
import { applyMove, cardText, cardsOf, drawBoard } from "./board.js";

const $ = (id) => document.getElementById(id);
const POINTS = { 2: 10, 3: 15 }; // Half Moon: a pair scores 10, a triple 15

const state = {
  code: null,      // the canonical deal code
  deal: null,      // GET /v1/deals/{code}
  solution: null,  // GET /v1/deals/{code}/solution
  mode: "watch",
  step: 0,         // watch: moves of the solution shown
  positions: [],   // watch: the position after each step
  states: [],      // play: POST /v1/replay answers, the start first
  selected: new Set(),
  timer: null,
  asked: 0,        // questions asked so far; an answer to an older one is dropped
};

// -- messages ------------------------------------------------------------------------------------

function say(text, kind = "error") {
  const box = $("message");
  box.textContent = text;
  box.className = kind;
  box.hidden = !text;
}

function explain(error) {
  if (error instanceof ApiError) return error.message;
  console.error(error);
  return `Something went wrong on this page: ${error.message}`;
}

function status(text, kind = "") {
  $("status").textContent = text;
  $("status").className = kind;
}

// -- the address: /?code=…&moves=… ------------------------------------------------------------------

function readAddress() {
  // Read by hand: URLSearchParams would turn the '+' of "4+10" into a space.
  const found = {};
  for (const part of window.location.search.slice(1).split("&")) {
    const [key, value = ""] = part.split("=");
    if (key) found[key] = decodeURIComponent(value);
  }
  const moves = (found.moves || "").split(/[,\s]+/).filter(Boolean);
  return { code: found.code, moves };
}

function address() {
  const moves = currentMoves();
  const keep = (text) => encodeURIComponent(text).replace(/%2B/g, "+").replace(/%2C/g, ",");
  return `?code=${keep(state.code)}` + (moves.length ? `&moves=${keep(moves.join(","))}` : "");
}

function currentMoves() {
  if (state.mode === "watch") return (state.solution?.moves || []).slice(0, state.step);
  return state.states.at(-1)?.moves || [];
}

// -- opening a deal -------------------------------------------------------------------------------

async function open(code, moves = []) {
  const asked = ++state.asked;
  stopAutoplay();
  say("");
  $("game").hidden = true;
  let deal;
  try {
    deal = await api.deal(code.trim());
  } catch (error) {
    if (asked === state.asked) say(explain(error));
    return;
  }
  if (asked !== state.asked) return;
  Object.assign(state, { code: deal.code, deal, solution: null, step: 0, positions: [deal], states: [],
    selected: new Set() });
  $("code").value = deal.code;
  $("game").hidden = false;
  $("hints").replaceChildren();
  $("analysis").replaceChildren();
  showVerdict(null);
  try {
    state.states = [await api.replay(deal.code, moves)];
  } catch (error) {
    say(`The moves in the address cannot be played: ${explain(error)}`);
    state.states = [await api.replay(deal.code, []).catch(() => ({ ...deal, moves: [], legal: [], status: "open" }))];
  }
  setMode(moves.length ? "play" : "watch");
  loadSolution(asked);
}

async function loadSolution(asked) {
  const code = state.code;
  try {
    const solution = await api.solution(code, (pending, waited) => {
      if (asked === state.asked) showVerdict(null, `still solving (${Math.round(waited)} s)…`);
    });
    if (asked !== state.asked) return;
    state.solution = solution;
    state.positions = [state.deal];
    for (const move of solution.moves || []) state.positions.push(applyMove(state.positions.at(-1), move));
    showVerdict(solution);
  } catch (error) {
    if (asked !== state.asked) return;
    showVerdict(null, "not known");
    say(explain(error));
  }
  render();
}

function showVerdict(solution, pending = "solving…") {
  const box = $("verdict");
  if (!solution) {
    box.className = "pending";
    box.textContent = `${state.code}: ${pending}`;
    return;
  }
  const how = `${solution.method}, ${Number(solution.seconds).toFixed(3)} s${solution.cached ? ", from the store" : ""}`;
  box.className = solution.verdict;
  if (solution.verdict === "winnable") {
    box.textContent = `${state.code}: winnable (${how}), a ${solution.moves.length}-move solution`;
  } else if (solution.verdict === "unwinnable") {
    box.textContent = `${state.code}: unwinnable (${how}): no line wins it`;
  } else {
    box.textContent = `${state.code}: unknown: the solver hit its limit`
      + `${solution.stopped ? ` (${solution.stopped})` : ""} before deciding. It may or may not be winnable.`;
    say(solution.reason || "The verdict is unknown: the solver's limit ran out before it decided this deal.", "note");
  }
}

// -- drawing --------------------------------------------------------------------------------------

function position() {
  return state.mode === "watch" ? state.positions[state.step] : state.states.at(-1);
}

function score(moves, from) {
  if (state.deal.game !== "halfmoon") return null;
  return moves.reduce((total, move) => total + POINTS[move.split("+").length], from);
}

function render() {
  if (!state.deal) return;
  const current = position();
  const watching = state.mode === "watch";
  const line = state.solution?.moves || [];
  const next = watching && state.step < line.length ? new Set(line[state.step].split("+")) : new Set();
  drawBoard($("board"), current, {
    reveal: $("reveal").checked,
    highlight: next,
    selected: watching ? null : state.selected,
    onPick: watching ? null : pick,
  });
  const moves = currentMoves();
  const points = watching ? score(moves, 0) : current.score;
  const total = state.deal.game === "halfmoon" ? " / 520" : "";
  $("score").textContent = points === null || points === undefined ? "" : `Score ${points}${total}`;
  if (watching) {
    $("progress").textContent = line.length ? `Move ${state.step} / ${line.length}` : "No solution to watch";
    const nextMove = line[state.step];
    status(!line.length ? (state.solution ? "This deal has no winning line to watch." : "")
      : nextMove ? `Next: ${nextMove} (${cardsOf(current, nextMove).map(cardText).join(" + ")})`
        : "Won: every card removed.", state.step === line.length && line.length ? "won" : "");
    for (const id of ["first", "back"]) $(id).disabled = state.step === 0;
    for (const id of ["forward", "last", "auto"]) $(id).disabled = state.step >= line.length;
    if (state.step >= line.length) stopAutoplay();
  } else {
    $("progress").textContent = `Moves played: ${moves.length}`;
    if (current.status === "won") status(`Won! Score ${current.score ?? ""}`.trim(), "won");
    else if (current.status === "dead") status("Dead end: no group can be removed.", "dead");
    else if (!$("status").classList.contains("illegal")) status("");
    $("undo").disabled = $("restart").disabled = moves.length === 0;
  }
  $("share").href = address();
  window.history.replaceState(null, "", address());
}

function setMode(mode) {
  state.mode = mode;
  stopAutoplay();
  $("watch").hidden = mode !== "watch";
  $("play").hidden = mode !== "play";
  $("tab-watch").setAttribute("aria-selected", String(mode === "watch"));
  $("tab-play").setAttribute("aria-selected", String(mode === "play"));
  status("");
  render();
}

// -- watching the solution ------------------------------------------------------------------------

function step(to) {
  const line = state.solution?.moves || [];
  state.step = Math.max(0, Math.min(to, line.length));
  render();
}

function stopAutoplay() {
  clearInterval(state.timer);
  state.timer = null;
  $("auto").textContent = "▶ play";
  $("auto").setAttribute("aria-label", "autoplay");
}

function toggleAutoplay() {
  if (state.timer) return stopAutoplay();
  const tick = () => step(state.step + 1);
  state.timer = setInterval(tick, 1000 / Number($("speed").value));
  $("auto").textContent = "⏸ pause";
  $("auto").setAttribute("aria-label", "pause");
}

// -- playing --------------------------------------------------------------------------------------

function samePlaces(move, places) {
  const parts = move.split("+");
  return parts.length === places.size && parts.every((place) => places.has(place));
}

async function pick(place) {
  const current = state.states.at(-1);
  if (current.status !== "open") return;
  status("");
  if (state.selected.has(place)) state.selected.delete(place);
  else state.selected.add(place);
  const chosen = state.selected;
  const legal = current.legal || [];
  const exact = legal.find((move) => samePlaces(move, chosen));
  const growing = legal.some((move) => [...chosen].every((p) => move.split("+").includes(p)));
  if (exact) return play(exact);
  if (chosen.size >= 2 && !growing) return play([...chosen].join("+"));
  render();
}

async function play(move) {
  const before = state.states.at(-1);
  state.selected = new Set();
  try {
    const after = await api.replay(state.code, [...before.moves, move]);
    state.states.push(after);
    $("hints").replaceChildren();
    $("analysis").replaceChildren();
    status("");
  } catch (error) {
    if (error instanceof ApiError && error.kind === "input") {
      // The rules' own message, without the "move N ('…'):" the service puts before it.
      status(error.message.replace(/^move \d+ \('[^']*'\): /, ""), "illegal");
    } else {
      say(explain(error));
    }
  }
  render();
}

// Back to `count` moves played: from the states kept, or (for a line that came with the address)
// asked of the service again.
async function backTo(count) {
  const asked = state.asked;
  const moves = state.states.at(-1).moves.slice(0, Math.max(0, count));
  state.selected = new Set();
  $("hints").replaceChildren();
  $("analysis").replaceChildren();
  status("");
  const kept = state.states.findIndex((one) => one.moves.length === moves.length);
  if (kept >= 0) {
    state.states = state.states.slice(0, kept + 1);
  } else {
    try {
      const back = await api.replay(state.code, moves);
      if (asked !== state.asked) return;
      state.states = [back];
    } catch (error) {
      say(explain(error));
    }
  }
  render();
}

const undo = () => backTo(state.states.at(-1).moves.length - 1);
const restart = () => backTo(0);

// -- hints and "where did I go wrong" -------------------------------------------------------------

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function moveLabel(move, cards) {
  return `${move}  ${cards.split("+").map(cardText).join("+")}`;
}

async function hint() {
  const asked = state.asked;
  const moves = state.states.at(-1).moves;
  const box = $("hints");
  const exact = el("div", "exact");
  const fair = el("div", "fair");
  box.replaceChildren(exact, fair);
  exact.append(el("h3", "", "Exact hint: knows every card, the face-down ones too"), el("p", "pending", "solving…"));
  fair.append(el("h3", "", "Fair hint: from what you can see"), el("p", "pending", "sampling…"));
  const still = (node) => (data, waited) => { node.lastChild.textContent = `still working (${Math.round(waited)} s)…`; };
  const exactAnswer = api.hint(state.code, moves, still(exact)).then((data) => {
    if (asked !== state.asked || moves !== state.states.at(-1).moves) return;
    const verdict = { winnable: "still winnable", unwinnable: "no longer winnable", unknown: "unknown (limit hit)" };
    exact.lastChild.replaceWith(el("p", data.verdict, `The game is ${verdict[data.verdict]}.`));
    const list = el("div", "chips");
    for (const row of data.moves) {
      const chip = el("button", `chip ${row.verdict}`, moveLabel(row.move, row.cards));
      chip.type = "button";
      chip.dataset.move = row.move;
      chip.dataset.verdict = row.verdict;
      chip.title = { winnable: "keeps the game winnable", unwinnable: "loses the game", unknown: "unknown" }[row.verdict];
      chip.addEventListener("click", () => play(row.move));
      list.append(chip);
    }
    exact.append(list);
  }, (error) => { exact.lastChild.replaceWith(el("p", "error", explain(error))); });
  const fairAnswer = api.fairHint(state.code, moves, still(fair)).then((data) => {
    if (asked !== state.asked || moves !== state.states.at(-1).moves) return;
    const whole = data.position;
    fair.lastChild.replaceWith(el("p", "", `${data.samples} random arrangements of the ${data.hidden} face-down `
      + `cards that fit what you see; winnable now in ${percent(whole.share)} of them. For each move: in how many `
      + "the game stays winnable after it (95% interval in brackets)."
      + (data.stopped ? ` (Stopped early by the time budget: ${data.samples} of ${data.asked}.)` : "")));
    const list = el("ol", "odds");
    for (const row of [...data.moves].sort((a, b) => (b.share ?? -1) - (a.share ?? -1))) {
      const item = el("li");
      item.dataset.move = row.move;
      const bar = el("span", "meter");
      bar.style.setProperty("--share", row.share ?? 0);
      item.append(el("span", "what", moveLabel(row.move, row.cards)), bar,
        el("span", "odds-text", `${percent(row.share)} (${percent(row.low)}–${percent(row.high)})`
          + (row.unknown ? `, ${row.unknown} unknown` : "")));
      list.append(item);
    }
    fair.append(list);
  }, (error) => { fair.lastChild.replaceWith(el("p", "error", explain(error))); });
  await Promise.all([exactAnswer, fairAnswer]);
}

function percent(share) {
  return share === null || share === undefined ? "–" : `${Math.round(share * 100)}%`;
}

async function analyze() {
  const moves = state.states.at(-1).moves;
  const box = $("analysis");
  box.replaceChildren(el("p", "pending", "looking for the move that lost the game…"));
  try {
    const data = await api.analyze(state.code, moves, (pending, waited) => {
      box.firstChild.textContent = `still looking (${Math.round(waited)} s)…`;
    });
    if (moves !== state.states.at(-1).moves) return;
    const text = {
      "never-lost": "Nothing went wrong: the game was winnable after every move you played.",
      "deal-unwinnable": "No move was a mistake: this deal could not be won from the start.",
      unknown: "Not decided: the solver hit its limit before it could tell.",
    }[data.status];
    if (text) {
      box.replaceChildren(el("p", data.status, text));
      return;
    }
    const lost = `Move ${data.lost_at}, ${moveLabel(data.move, data.cards)}, lost the game: `
      + "it was winnable before that move and not after.";
    const keeping = data.moves.filter((row) => row.verdict === "winnable");
    const back = el("button", "", `Go back to before move ${data.lost_at}`);
    back.type = "button";
    back.addEventListener("click", () => backTo(data.lost_at - 1));
    box.replaceChildren(el("p", "unwinnable", lost),
      el("p", "", `Moves that would have kept it winnable there: ${keeping.map((row) => moveLabel(row.move, row.cards))
        .join(", ") || "none"}.`), back);
  } catch (error) {
    box.replaceChildren(el("p", "error", explain(error)));
  }
}

// -- picking a deal -------------------------------------------------------------------------------

const cursors = {};

function codeOf(tag, number) {
  let payload = "";
  for (let i = 0; i < 7; i += 1) {
    payload = String.fromCharCode(65 + (number % 26)) + payload;
    number = Math.floor(number / 26);
  }
  return `${tag}1-N-${payload}`;
}

async function pickDeal() {
  const [tag, tier] = $("pick").value.split(":");
  if (!tier) return open(codeOf(tag, Math.floor(Math.random() * 1000000)));
  say("finding a deal…", "note");
  try {
    const page = await api.curated(tier, cursors[tier]);
    if (!page.deals.length) {
      cursors[tier] = undefined;
      say(`No ${tier} deal is ready yet: the service is rating more. Try again in a moment.`, "note");
      return;
    }
    cursors[tier] = page.next;
    open(page.deals[0].code);
  } catch (error) {
    say(explain(error));
  }
}

// -- wiring ---------------------------------------------------------------------------------------

function start() {
  $("open").addEventListener("submit", (event) => {
    event.preventDefault();
    open($("code").value);
  });
  $("pick-go").addEventListener("click", pickDeal);
  $("reveal").addEventListener("change", render);
  $("tab-watch").addEventListener("click", () => setMode("watch"));
  $("tab-play").addEventListener("click", () => setMode("play"));
  $("first").addEventListener("click", () => step(0));
  $("back").addEventListener("click", () => step(state.step - 1));
  $("forward").addEventListener("click", () => step(state.step + 1));
  $("last").addEventListener("click", () => step(Infinity));
  $("auto").addEventListener("click", toggleAutoplay);
  $("speed").addEventListener("input", () => {
    $("speed-text").textContent = `${$("speed").value} moves/s`;
    if (state.timer) {
      stopAutoplay();
      toggleAutoplay();
    }
  });
  $("undo").addEventListener("click", undo);
  $("restart").addEventListener("click", restart);
  $("hint").addEventListener("click", hint);
  $("analyze").addEventListener("click", analyze);
  document.addEventListener("keydown", (event) => {
    if (state.mode !== "watch" || $("game").hidden || event.target.closest("input, select, textarea")) return;
    const keys = { ArrowLeft: () => step(state.step - 1), ArrowRight: () => step(state.step + 1),
      Home: () => step(0), End: () => step(Infinity), " ": toggleAutoplay };
    if (keys[event.key] && !(event.key === " " && event.target.closest("button"))) {
      event.preventDefault();
      keys[event.key]();
    }
  });
  const { code, moves } = readAddress();
  if (code) open(code, moves);
}

start();
