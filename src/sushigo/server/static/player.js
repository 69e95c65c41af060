// A player's profile (/players/{name}): the rating in each game with a small plot of its history, games
// played and won by game and table size, and every finished game (a page at a time, each linking to its
// replay). A deleted account's games stay under "deleted player"; a program's account is marked so.
"use strict";
(function () {
const $ = (id) => document.getElementById(id);
const { t, nt } = window.I18N;
const esc = window.SushiArt.esc;
const num = (n) => window.I18N.num(n);
const NAME = decodeURIComponent(location.pathname.split("/").pop() || "");
const api = (path) => `/api/players/${encodeURIComponent(NAME)}${path}`;
const gameTitle = (g) => (window.SushiArt.gameSpec(g) || { title: g }).title;
const when = (ts) => (ts ? window.I18N.date(ts * 1000, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }) : "");
let doc = null;
const plots = {};  // "game/pool" -> points
let pages = [null], page = 0, history = null;

/** A name in a game's list of seats ("deleted player" for a deleted account); this profile's own is
 *  bold. The list mixes accounts, guests and bots, so names are words here, not profile links. */
function playerName(n) {
  if (n == null || n === "") return `<i>${esc(t("deleted player"))}</i>`;
  return doc && n === doc.name ? `<b>${esc(n)}</b>` : esc(n);
}

function poolWords(pool) { return pool === "programs" ? t("as a program") : t("as a player"); }

/** A small line plot of a rating's history (the SVG scales to its box; the numbers are in its label). */
function plot(points) {
  if (!points || points.length < 2) return `<p class="muted small">${esc(t("The plot starts after the second rated game."))}</p>`;
  const W = 300, H = 80, pad = 4;
  const ys = points.map((p) => p.rating);
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (hi - lo < 1) { hi += 1; lo -= 1; }
  const x = (i) => pad + (i * (W - 2 * pad)) / (points.length - 1);
  const y = (v) => H - pad - ((v - lo) * (H - 2 * pad)) / (hi - lo);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const first = Math.round(ys[0]), last = Math.round(ys[ys.length - 1]);
  const label = t("Rating history: from {first} to {last} over {n} games", { first: num(first), last: num(last), n: num(points.length) });
  return `<svg class="plot" viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title>` +
    `<line x1="0" x2="${W}" y1="${y(ys[0]).toFixed(1)}" y2="${y(ys[0]).toFixed(1)}" class="base"/>` +
    `<polyline points="${line}" fill="none" vector-effect="non-scaling-stroke"/>` +
    `<circle cx="${x(points.length - 1).toFixed(1)}" cy="${y(ys[ys.length - 1]).toFixed(1)}" r="3"/></svg>` +
    `<div class="plot-range muted small"><span>${esc(t("low {n}", { n: num(Math.round(Math.min(...ys))) }))}</span><span>${esc(t("high {n}", { n: num(Math.round(Math.max(...ys))) }))}</span></div>`;
}

function drawHead() {
  const marks = [];
  if (doc.program) marks.push(`<span class="tag">${esc(t("program"))}</span>`);
  if (doc.deleted) marks.push(`<span class="tag">${esc(t("deleted player"))}</span>`);
  $("who").innerHTML = `${esc(doc.deleted ? t("deleted player") : doc.name)} ${marks.join(" ")}`;
  $("since").textContent = doc.created_at ? t("Playing since {date}", { date: when(doc.created_at) }) : "";
  document.title = t("sushigo — {name}", { name: doc.deleted ? t("deleted player") : doc.name });
}

function drawRatings() {
  const boxes = [];
  for (const [game, pools] of Object.entries(doc.ratings || {})) {
    for (const pool of ["players", "programs"]) {
      const r = pools && pools[pool];
      if (!r) continue;
      const key = `${game}/${pool}`;
      boxes.push(`<div class="rating-box" data-game="${esc(game)}" data-pool="${esc(pool)}"><h3>${esc(gameTitle(game))} <span class="muted small">${esc(poolWords(pool))}</span></h3>` +
        `<div class="rating-value"><span class="big">${esc(num(Math.round(r.rating)))}</span> <a class="small" href="/leaderboard?game=${encodeURIComponent(game)}&pool=${encodeURIComponent(pool)}">${esc(t("Leaderboard"))}</a></div>` +
        `<p class="muted small">${esc(nt("{n} rated game", "{n} rated games", r.games))} · ${esc(nt("{n} win", "{n} wins", r.wins))}</p>` +
        `<div class="plot-box" id="plot-${esc(game)}-${esc(pool)}">${plots[key] ? plot(plots[key]) : ""}</div></div>`);
    }
  }
  $("ratings").innerHTML = boxes.join("") || `<p class="muted">${esc(t("No rated games yet."))}</p>`;
}

async function loadPlots() {
  for (const [game, pools] of Object.entries(doc.ratings || {})) {
    for (const pool of ["players", "programs"]) {
      if (!pools || !pools[pool]) continue;
      try {
        const r = await fetch(api(`/rating?game=${encodeURIComponent(game)}&pool=${encodeURIComponent(pool)}`));
        if (!r.ok) continue;
        plots[`${game}/${pool}`] = (await r.json()).points || [];
        const box = document.getElementById(`plot-${game}-${pool}`);
        if (box) box.innerHTML = plot(plots[`${game}/${pool}`]);
      } catch (e) { /* the number stays without its plot */ }
    }
  }
}

function drawStats() {
  const rows = (doc.stats || []).slice().sort((a, b) => a.game.localeCompare(b.game) || a.players - b.players);
  const head = `<tr><th>${esc(t("Game"))}</th><th>${esc(t("Players"))}</th><th>${esc(t("Played"))}</th><th>${esc(t("Won"))}</th><th>${esc(t("Average score"))}</th></tr>`;
  $("stats").innerHTML = rows.length ? head + rows.map((s) => `<tr><td>${esc(gameTitle(s.game))}</td><td>${esc(num(s.players))}</td><td>${esc(num(s.played))}</td><td>${esc(num(s.won))}</td>` +
    `<td>${esc(s.avg_score == null ? "—" : window.I18N.num(Math.round(s.avg_score * 10) / 10))}</td></tr>`).join("") : `<tr><td class="muted">${esc(t("No finished games yet."))}</td></tr>`;
}

function drawGameFilter() {
  const sel = $("historyGame"), was = sel.value;
  const names = [...new Set([...(doc.stats || []).map((s) => s.game), ...Object.keys(doc.ratings || {})])];
  sel.innerHTML = `<option value="">${esc(t("All games"))}</option>` + names.map((g) => `<option value="${esc(g)}">${esc(gameTitle(g))}</option>`).join("");
  sel.value = names.includes(was) ? was : "";
}

function drawHistory() {
  if (!history) return;
  const rows = history.games.map((g) => {
    const id = encodeURIComponent(g.table_id);
    const place = g.place == null ? "" : t("Place {place} of {n}", { place: num(g.place), n: num(g.players) });
    const score = g.score == null ? "" : nt("{n} pt", "{n} pts", g.score);
    const rated = g.rated ? ` <span class="tag">${esc(t("rated"))}</span>` : "";
    const names = (g.names || []).map(playerName).join(esc(t(", ")));
    return `<tr><td><b>${esc(gameTitle(g.game))}</b>${rated}<br><span class="muted"><time>${esc(when(g.finished_at))}</time></span></td>` +
      `<td>${esc(place)}${score ? `<br><span class="muted">${esc(score)}</span>` : ""}</td><td>${names}</td>` +
      `<td class="actions"><a class="btn" href="/replay/${id}">${esc(t("Replay"))}</a></td></tr>`;
  });
  $("history").innerHTML = rows.join("") || `<tr><td class="muted">${esc(t("No finished games yet."))}</td></tr>`;
  $("newer").disabled = page === 0;
  $("older").disabled = !history.next;
  $("pageNo").textContent = t("Page {n}", { n: num(page + 1) });
}

async function loadHistory() {
  const q = new URLSearchParams({ limit: "20" });
  if (pages[page]) q.set("cursor", pages[page]);
  if ($("historyGame").value) q.set("game", $("historyGame").value);
  try {
    const r = await fetch(api(`/games?${q}`));
    if (!r.ok) return;
    history = await r.json();
    pages[page + 1] = history.next;
    drawHistory();
  } catch (e) { /* keep the page */ }
}

function drawAll() {
  if (!doc) return;
  drawHead();
  drawRatings();
  drawStats();
  drawGameFilter();
  drawHistory();
}

async function load() {
  let r;
  try { r = await fetch(api("")); } catch (e) { r = null; }
  if (!r || !r.ok) { $("missing").classList.remove("hidden"); return; }
  doc = await r.json();
  $("profile").classList.remove("hidden");
  drawAll();
  loadPlots();
  loadHistory();
}

$("older").onclick = () => { if (pages[page + 1]) { page += 1; loadHistory(); } };
$("newer").onclick = () => { if (page > 0) { page -= 1; loadHistory(); } };
$("historyGame").onchange = () => { pages = [null]; page = 0; loadHistory(); };
window.I18N.mountSwitch($("nav"));
window.addEventListener("sushigo:lang", drawAll);
window.addEventListener("sushigo:catalogue", drawAll);
Promise.all([window.I18N.ready, window.SushiArt.ready().catch(() => null)]).then(load);
// For tests: the page's profile document.
Object.defineProperty(window, "profile", { get: () => doc, configurable: true });
})();
