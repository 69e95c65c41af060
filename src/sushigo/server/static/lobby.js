// The lobby: create a table, list open, running and finished tables.
"use strict";
const $ = (id) => document.getElementById(id);
const esc = window.SushiArt.esc;
// Every game as GET /api/games describes it (its spec): title, player range, options, bots. The lobby
// draws the game list, player counts and option controls from it and keeps no list of its own.
let GAMES = [];
const gameInfo = (name) => GAMES.find((g) => g.game === name);
// Menus and tiles for a "menu" option, as GET /api/party/menus gives them (the server's own rules).
let MENUS = null;
let custom = new Set();
const GROUP_TITLE = { roll: "Roll (1)", appetizer: "Appetizers (3)", special: "Specials (2)", dessert: "Dessert (1)" };
// A tile's title from Party's card catalogue (art.js reads GET /api/games once, for this page too).
const tileTitle = (t) => window.SushiArt.tileTitle(t);

/** The chosen game's spec (an empty one until /api/games has answered). */
function current() { return gameInfo($("game").value) || { game: $("game").value, min_players: 2, max_players: 5, option_details: [], bots: ["random"] }; }
/** The chosen game's options of one kind: its menu, its variants (no rule number) or its house rules. */
const menuOption = () => current().option_details.find((o) => o.type === "menu");
const variants = () => current().option_details.filter((o) => o.type !== "menu" && !o.rule);
const houseRules = () => current().option_details.filter((o) => o.type !== "menu" && o.rule);

/** The player counts the chosen game allows: the lobby offers exactly these. */
function playerCounts() {
  const g = current(), out = [];
  for (let n = g.min_players; n <= g.max_players; n++) out.push(n);
  return out;
}

function syncPlayers() {
  const sel = $("players");
  const want = playerCounts(), cur = Number(sel.value) || 4;
  if ([...sel.options].map((o) => Number(o.value)).join() !== want.join()) {
    const pick = Math.max(want[0], Math.min(cur, want[want.length - 1]));
    sel.innerHTML = want.map((n) => `<option ${n === pick ? "selected" : ""}>${n}</option>`).join("");
  }
}

/** Whether the option ``player_limits`` is on (it is unless the player turned it off, or the game has none). */
function limitsOn() { return optionValues().player_limits !== false; }

/** Whether a suggested menu may be played by ``n`` players under the chosen player limits. */
function menuCounts(m) { return limitsOn() ? m.players : m.players_any; }
function menuFits(m, n) { return menuCounts(m).includes(n); }

/** The most players a tile allows now: its own limit, or with player_limits off the deck's. */
function tileMax(t) { return limitsOn() ? t.max_players : t.any_max_players; }
function tileMin(t) { return limitsOn() ? t.min_players : 2; }

/** Why a tile cannot be on the menu now (player count, group full), or "" when it can. */
function tileProblem(tile, n) {
  if (n < tileMin(tile) || n > tileMax(tile)) return `${tileMin(tile)}–${tileMax(tile)} players`;
  if (custom.has(tile.tile)) return "";
  const inGroup = MENUS.tiles.filter((t) => t.group === tile.group && custom.has(t.tile)).length;
  return inGroup >= MENUS.groups[tile.group] ? "group full" : "";
}

/** Draws the menu picker when the chosen game has a menu option. */
function drawMenu() {
  const has = !!menuOption();
  $("menuPicker").classList.toggle("hidden", !has);
  if (!has || !MENUS) return;
  const n = Number($("players").value);
  const sel = $("menuSelect"), was = sel.value || menuOption().default;
  sel.innerHTML = MENUS.menus.map((m) => `<option value="${esc(m.id)}" ${menuFits(m, n) ? "" : "disabled"}>${esc(m.title)}${menuFits(m, n) ? "" : ` (${menuCounts(m)[0]}–${menuCounts(m).at(-1)} players)`}</option>`).join("") + `<option value="custom">Custom menu…</option>`;
  const ok = (id) => id === "custom" || MENUS.menus.some((m) => m.id === id && menuFits(m, n));
  sel.value = ok(was) ? was : (MENUS.menus.find((m) => menuFits(m, n)) || { id: "custom" }).id;
  const isCustom = sel.value === "custom";
  $("tilePicker").classList.toggle("hidden", !isCustom);
  if (!isCustom) {
    const m = MENUS.menus.find((x) => x.id === sel.value);
    $("menuInfo").textContent = `${m.description}: ${m.tiles.map(tileTitle).join(", ")}`;
    $("menuMsg").textContent = "";
    return;
  }
  for (const t of MENUS.tiles) if (custom.has(t.tile) && (n < tileMin(t) || n > tileMax(t))) custom.delete(t.tile);
  $("menuInfo").textContent = "Nigiri is always on the menu. Choose 1 roll, 3 appetizers, 2 specials and 1 dessert.";
  let html = "";
  for (const g of Object.keys(GROUP_TITLE)) {
    html += `<fieldset data-group="${g}"><legend>${GROUP_TITLE[g]}</legend>`;
    for (const t of MENUS.tiles.filter((x) => x.group === g)) {
      const why = tileProblem(t, n);
      const limited = n < tileMin(t) || n > tileMax(t);
      html += `<label class="${why ? "off" : ""}" title="${esc(why)}"><input type="checkbox" data-tile="${esc(t.tile)}" ${custom.has(t.tile) ? "checked" : ""} ${why ? "disabled" : ""}> ${esc(tileTitle(t.tile))}${limited ? ` <span class="muted">(${esc(why)})</span>` : ""}</label>`;
    }
    html += "</fieldset>";
  }
  $("tilePicker").innerHTML = html;
  const missing = Object.keys(GROUP_TITLE).map((g) => [g, MENUS.groups[g] - MENUS.tiles.filter((t) => t.group === g && custom.has(t.tile)).length]).filter(([, k]) => k > 0);
  $("menuMsg").textContent = missing.length ? "Still to choose: " + missing.map(([g, k]) => `${k} ${g}${k > 1 ? "s" : ""}`).join(", ") : "";
}

const isSwitch = (o) => o.type === "bool";

/** One option's control: a checkbox for on/off, a select otherwise; the default preselected. */
function optionControl(o, withTip) {
  const id = "opt-" + o.name, tip = withTip ? `<p class="opt-tip muted" id="${id}-tip">${esc(o.help)}</p>` : "";
  const described = withTip ? `aria-describedby="${id}-tip"` : `title="${esc(o.help)}"`;
  if (isSwitch(o)) {
    const box = `<input type="checkbox" id="${id}" data-option="${esc(o.name)}" ${described} ${o.default ? "checked" : ""}> ${esc(o.label)}`;
    return withTip ? `<div class="opt"><label class="switch">${box}</label>${tip}</div>` : `<label>${box}</label>`;
  }
  const opts = o.choices.map((c, i) => `<option value="${i}" ${c.value === o.default ? "selected" : ""}>${esc(c.label)}${c.value === o.default ? " (recommended)" : ""}</option>`).join("");
  const sel = `<label>${esc(o.label)} <select id="${id}" data-option="${esc(o.name)}" ${described}>${opts}</select></label>`;
  return withTip ? `<div class="opt">${sel}${tip}</div>` : sel;
}

/** Draws the chosen game's variants (in a row) and house rules (folded, with a tip each). */
function drawOptions() {
  const game = $("game").value;
  if ($("variants").dataset.game === game) return;  // drawn already: keep the player's choices
  $("variants").dataset.game = game;
  $("variants").innerHTML = variants().map((o) => optionControl(o, false)).join("");
  const rules = houseRules();
  $("houseRules").classList.toggle("hidden", !rules.length);
  $("houseOptions").innerHTML = rules.map((o) => optionControl(o, true)).join("");
  syncRulesSummary();
}

/** Options with a player range (the dummy: 2 players) are off outside it. */
function syncOptionPlayers() {
  const n = Number($("players").value);
  for (const o of current().option_details) {
    const el = $("opt-" + o.name);
    if (!el || !o.players) continue;
    const fits = n >= o.players[0] && n <= o.players[1];
    el.disabled = !fits;
    if (!fits) { if (isSwitch(o)) el.checked = o.default; else el.value = "0"; }
  }
}

/** Every option's chosen value (the defaults until the player changes one); the menu aside. */
function optionValues() {
  const out = {};
  for (const o of current().option_details) {
    if (o.type === "menu") continue;
    const el = $("opt-" + o.name);
    if (!el) out[o.name] = o.default;
    else if (isSwitch(o)) out[o.name] = el.checked;
    else out[o.name] = o.choices[Number(el.value)].value;
  }
  return out;
}

/** The options that differ from their defaults: what the table is created with. */
function changedOptions() {
  const values = optionValues(), out = {};
  for (const [name, value] of Object.entries(values)) {
    const o = current().option_details.find((x) => x.name === name);
    if (value !== o.default) out[name] = value;
  }
  return out;
}

/** An option and its value in words ("Bonus actions per turn: 2"), as the table header shows it. */
function optionWords(game, name, value) {
  const o = ((gameInfo(game) || {}).option_details || []).find((x) => x.name === name);
  if (!o) return name.replace(/_/g, " ") + (value === true ? "" : `: ${value}`);
  if (isSwitch(o) && !o.rule) return value ? o.label : `${o.label}: off`;
  const c = o.choices.find((x) => x.value === value);
  return `${o.label}: ${c ? c.label : value}`;
}

function syncRulesSummary() {
  const names = new Set(houseRules().map((o) => o.name));
  const n = Object.keys(changedOptions()).filter((k) => names.has(k)).length;
  $("rulesSummary").textContent = n ? `(${n} changed)` : "(recommended)";
}

/** The menu to send: a suggested id, or the 7 chosen tiles (null while a custom menu is incomplete). */
function chosenMenu() {
  const id = $("menuSelect").value;
  if (id !== "custom") return id;
  const tiles = MENUS.tiles.filter((t) => custom.has(t.tile)).map((t) => t.tile);
  return tiles.length === 7 ? tiles : null;
}

function seatRows() {
  syncPlayers();
  drawOptions();
  syncOptionPlayers();
  const n = Number($("players").value);
  const old = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  const bots = current().bots.length ? current().bots : ["random"];
  let html = "";
  for (let i = 0; i < n; i++) {
    const def = i === 0 ? "me" : old[i] && old[i] !== "me" ? old[i] : "bot:" + (bots.includes("greedy") ? "greedy" : bots[0]);
    const opts = [["me", "You"], ["human", "Human (invite)"], ...bots.map((b) => ["bot:" + b, "Bot: " + b])];
    html += `<div class="seatrow"><span class="pill">Seat ${i + 1}</span><select data-seat="${i}">${opts
      .map(([v, t]) => `<option value="${v}" ${v === def ? "selected" : ""} ${v === "me" && i !== 0 ? "disabled" : ""}>${t}</option>`)
      .join("")}</select></div>`;
  }
  $("seats").innerHTML = html;
  drawMenu();
}

async function loadGames() {
  try {
    GAMES = (await window.SushiArt.games()).games;
    const sel = $("game"), was = sel.value;
    sel.innerHTML = GAMES.map((g) => `<option value="${esc(g.game)}">${esc(g.title)}</option>`).join("");
    if (gameInfo(was)) sel.value = was;
    $("sub").textContent = GAMES.map((g) => g.title).join(", ").replace(/, ([^,]*)$/, " and $1") + " with friends and bots";
    if (GAMES.some((g) => g.option_details.some((o) => o.type === "menu"))) {
      const p = await fetch("/api/party/menus");
      if (p.ok) MENUS = await p.json();
    }
  } catch (e) { /* keep what there is */ }
  seatRows();
  refresh();
}

function when(ts) {
  if (!ts) return "";
  const d = new Date(ts * 1000);
  return d.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" }) + " " + d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

function tableRow(t, kind) {
  const seats = t.seats.map((s) => (s.kind === "bot" ? `${esc(s.name)} <span class="tag">bot</span>` : s.taken ? esc(s.name) : "<i>free</i>")).join(", ");
  const game = esc((gameInfo(t.game) || { title: t.game }).title);
  const menu = t.menu ? " · " + esc(t.menu.slice(1).map(tileTitle).join(", ")) : "";
  const o = t.options || {};
  const opts = Object.keys(o).map((k) => optionWords(t.game, k, o[k])).join("; ");
  const id = encodeURIComponent(t.id);
  let action = "", extra = "";
  if (kind === "open") action = `<a class="btn" href="/t/${id}">Join</a>`;
  else if (kind === "playing") action = `<a class="btn" href="/t/${id}">Watch</a>`;
  else {
    const names = t.winner_names || (t.winners || []).map((s) => t.seats[s] && t.seats[s].name);
    const win = names && names.length ? `Winner: <b>${esc(names.join(" and "))}</b>` : t.status === "abandoned" ? "Abandoned" : "";
    extra = `<br><span class="muted">${win}${t.totals ? " · " + esc(t.totals.join(" / ")) : ""} · ${esc(when(t.finished_at || t.created_at))}</span>`;
    action = t.status === "finished" ? `<a class="btn" href="/replay/${id}">Replay</a> <a class="btn" href="/api/tables/${id}/record" download>Record</a>` : "";
  }
  return `<tr><td><b>${esc(t.name)}</b><br><span class="muted">${game}${opts ? " · " + esc(opts) : ""}${menu}</span>${extra}</td><td>${seats}</td><td class="actions">${action}</td></tr>`;
}

// Finished games come a page at a time, newest first; ``pages`` holds the cursors of the pages seen.
let pages = [null], page = 0;

async function fetchPage(status, cursor, limit) {
  const q = new URLSearchParams({ status, limit: String(limit) });
  if (cursor) q.set("cursor", cursor);
  const r = await fetch(`/api/tables?${q}`);
  if (!r.ok) throw new Error("cannot list tables");
  return r.json();
}

async function refresh() {
  try {
    for (const kind of ["open", "playing"]) {
      const data = await fetchPage(kind, null, 20);
      $(kind).innerHTML = data.tables.map((t) => tableRow(t, kind)).join("") || `<tr><td class="muted">None yet.</td></tr>`;
    }
    await refreshFinished();
  } catch (e) { /* try again later */ }
}

async function refreshFinished() {
  const data = await fetchPage("finished", pages[page], 10);
  $("finished").innerHTML = data.tables.map((t) => tableRow(t, "finished")).join("") || `<tr><td class="muted">None yet.</td></tr>`;
  pages[page + 1] = data.next;
  $("newer").disabled = page === 0;
  $("older").disabled = !data.next;
  $("pageNo").textContent = `Page ${page + 1}`;
}

$("older").addEventListener("click", () => { if (pages[page + 1]) { page += 1; refreshFinished(); } });
$("newer").addEventListener("click", () => { if (page > 0) { page -= 1; refreshFinished(); } });

async function create() {
  const game = $("game").value;
  const name = $("myname").value.trim() || "Me";
  const picks = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  const seats = picks.map((v) => (v.startsWith("bot:") ? { kind: "bot", bot: v.slice(4) } : { kind: "human" }));
  const body = { game, seats, options: changedOptions() };
  if (menuOption()) {
    if (!MENUS) { $("createMsg").textContent = "The menus could not be loaded; reload the page."; return; }
    const menu = chosenMenu();
    if (!menu) { $("createMsg").textContent = "Finish the custom menu first: " + $("menuMsg").textContent; return; }
    body.menu = menu;
  }
  if ($("timer").value) body.turn_timer = Number($("timer").value);
  $("createBtn").disabled = true;
  try {
    const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const t = await r.json();
    if (!r.ok) throw new Error(t.detail || "cannot create the table");
    const mine = picks.indexOf("me");
    if (mine >= 0) {
      const j = await fetch(`/api/tables/${t.id}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name, seat: mine }) });
      const seat = await j.json();
      if (!j.ok) throw new Error(seat.detail || "cannot join");
      localStorage.setItem("sushigo:" + t.id, JSON.stringify({ seat: seat.seat, token: seat.token, name }));
    }
    location.href = `/t/${t.id}`;
  } catch (e) {
    $("createMsg").textContent = String(e.message || e);
    $("createBtn").disabled = false;
  }
}

$("players").addEventListener("change", seatRows);
$("menuSelect").addEventListener("change", drawMenu);
$("houseOptions").addEventListener("change", (e) => {
  syncRulesSummary();
  if (e.target.dataset.option === "player_limits") drawMenu();  // the menus and tiles it allows change
});
$("tilePicker").addEventListener("change", (e) => {
  const box = e.target.closest("input[data-tile]");
  if (!box) return;
  if (box.checked) custom.add(box.dataset.tile); else custom.delete(box.dataset.tile);
  drawMenu();
});
$("game").addEventListener("change", seatRows);
$("createBtn").addEventListener("click", create);
$("myname").value = localStorage.getItem("sushigo:name") || "";
$("myname").addEventListener("change", () => localStorage.setItem("sushigo:name", $("myname").value));
loadGames();
setInterval(refresh, 4000);
