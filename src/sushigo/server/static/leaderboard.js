// The leaderboard (/leaderboard?game=&players=&pool=): one game's rated accounts by rating, people and
// programs apart, for every table size or one; a page at a time (the API's cursor). The filters are in
// the address, so a link shows the same board.
"use strict";
(function () {
const $ = (id) => document.getElementById(id);
const { t, nt } = window.I18N;
const esc = window.SushiArt.esc;
const num = (n) => window.I18N.num(n);
let games = [];
let pages = [null], page = 0, board = null;

function fromAddress() {
  const q = new URLSearchParams(location.search);
  return { game: q.get("game") || "sushi-go", players: q.get("players") || "", pool: q.get("pool") === "programs" ? "programs" : "players" };
}

function toAddress() {
  const q = new URLSearchParams(location.search);
  q.set("game", $("game").value);
  if ($("players").value) q.set("players", $("players").value); else q.delete("players");
  q.set("pool", $("pool").value);
  history.replaceState(null, "", `${location.pathname}?${q}`);
}

function drawFilters(want) {
  const sel = $("game");
  sel.innerHTML = games.map((g) => `<option value="${esc(g.game)}">${esc(g.title)}</option>`).join("");
  sel.value = games.some((g) => g.game === want.game) ? want.game : (games[0] || {}).game || want.game;
  drawSizes(want.players);
  $("pool").value = want.pool;
}

function drawSizes(was) {
  const g = games.find((x) => x.game === $("game").value) || { min_players: 2, max_players: 5 };
  let html = `<option value="">${esc(t("Every size"))}</option>`;
  for (let n = g.min_players; n <= g.max_players; n++) html += `<option value="${n}">${esc(nt("{n} player", "{n} players", n))}</option>`;
  $("players").innerHTML = html;
  $("players").value = [...$("players").options].some((o) => o.value === String(was)) ? String(was) : "";
}

function drawBoard() {
  const sized = !!$("players").value;
  $("about").textContent = sized
    ? t("Accounts with a rated game at this table size; games and wins at this size.")
    : t("Accounts with a rated game of this game; a rating is the skill estimate minus three times its uncertainty.");
  if (!board) return;
  const head = `<tr><th>${esc(t("Rank"))}</th><th>${esc(t("Name"))}</th><th>${esc(t("Rating"))}</th><th>${esc(t("Games"))}</th><th>${esc(t("Wins"))}</th></tr>`;
  const me = window.SushiAccount.current();
  const rows = board.rows.map((r) => `<tr class="${me && r.name === me.name ? "me" : ""}"><td>${esc(num(r.rank))}</td>` +
    `<td>${r.name ? `<a href="${esc(window.SushiAccount.profileHref(r.name))}">${esc(r.name)}</a>` : `<i>${esc(t("deleted player"))}</i>`}</td>` +
    `<td><b>${esc(num(Math.round(r.rating)))}</b></td><td>${esc(num(r.games))}</td><td>${esc(num(r.wins))}</td></tr>`);
  $("board").innerHTML = rows.length ? head + rows.join("") : `<tr><td class="muted">${esc(t("Nobody has a rated game here yet."))}</td></tr>`;
  $("newer").disabled = page === 0;
  $("older").disabled = !board.next;
  $("pageNo").textContent = t("Page {n}", { n: num(page + 1) });
}

async function load() {
  const q = new URLSearchParams({ game: $("game").value, pool: $("pool").value });
  if ($("players").value) q.set("players", $("players").value);
  if (pages[page]) q.set("cursor", pages[page]);
  try {
    const r = await fetch(`/api/leaderboard?${q}`);
    if (!r.ok) { board = { rows: [], next: null }; drawBoard(); return; }
    board = await r.json();
    pages[page + 1] = board.next;
  } catch (e) { board = { rows: [], next: null }; }
  drawBoard();
}

function restart() { pages = [null]; page = 0; toAddress(); load(); }
$("game").onchange = () => { drawSizes($("players").value); restart(); };
$("players").onchange = restart;
$("pool").onchange = restart;
$("filters").onsubmit = (e) => e.preventDefault();
$("older").onclick = () => { if (pages[page + 1]) { page += 1; load(); } };
$("newer").onclick = () => { if (page > 0) { page -= 1; load(); } };
window.I18N.mountSwitch($("nav"));

async function start() {
  try { games = (await window.SushiArt.games()).games; } catch (e) { games = []; }
  drawFilters(fromAddress());
  load();
}
function redraw() {
  window.SushiArt.games().then((doc) => {
    games = doc.games;
    const keep = { game: $("game").value, players: $("players").value, pool: $("pool").value };
    drawFilters(keep);
    drawBoard();
  }, () => drawBoard());
}
window.addEventListener("sushigo:lang", redraw);
window.addEventListener("sushigo:catalogue", redraw);
window.addEventListener("sushigo:account", drawBoard);
window.I18N.ready.then(start);
})();
