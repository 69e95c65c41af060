// The lobby: create a table, list open, running and finished tables.
"use strict";
const $ = (id) => document.getElementById(id);
const esc = window.SushiArt.esc;
let BOTS = { "sushi-go": ["random"], "sushi-roll": ["random"], "sushi-go-party": ["random"] };
// Sushi Go Party! menus and tiles, as GET /api/party/menus gives them (the server's own rules).
let PARTY = null;
// Sushi Go Party!'s rule options (rules.md §3.10), as GET /api/games lists them: name, label, tip,
// default and choices. The lobby draws its controls from them and keeps no list of its own.
let PARTY_OPTIONS = [];
let custom = new Set();
const GROUP_TITLE = { roll: "Roll (1)", appetizer: "Appetizers (3)", special: "Specials (2)", dessert: "Dessert (1)" };
const tileTitle = (t) => t.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

/** The player counts the chosen game allows: the lobby offers exactly these. */
function playerCounts(game) { return game === "sushi-go-party" ? [2, 3, 4, 5, 6, 7, 8] : [2, 3, 4, 5]; }

function syncPlayers() {
  const game = $("game").value, sel = $("players");
  const want = playerCounts(game), cur = Number(sel.value) || 4;
  if (sel.options.length !== want.length) {
    sel.innerHTML = want.map((n) => `<option ${n === Math.min(cur, want[want.length - 1]) ? "selected" : ""}>${n}</option>`).join("");
  }
}

/** Whether the Party option ``player_limits`` is on (it is unless the player turned it off). */
function limitsOn() { const v = partyOptionValues(); return v.player_limits !== false; }

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
  const inGroup = PARTY.tiles.filter((t) => t.group === tile.group && custom.has(t.tile)).length;
  return inGroup >= PARTY.groups[tile.group] ? "group full" : "";
}

function drawParty() {
  const party = $("game").value === "sushi-go-party";
  $("partyMenu").classList.toggle("hidden", !party);
  if (!party || !PARTY) return;
  const n = Number($("players").value);
  const sel = $("menuSelect"), was = sel.value;
  sel.innerHTML = PARTY.menus.map((m) => `<option value="${esc(m.id)}" ${menuFits(m, n) ? "" : "disabled"}>${esc(m.title)}${menuFits(m, n) ? "" : ` (${menuCounts(m)[0]}–${menuCounts(m).at(-1)} players)`}</option>`).join("") + `<option value="custom">Custom menu…</option>`;
  const ok = (id) => id === "custom" || PARTY.menus.some((m) => m.id === id && menuFits(m, n));
  sel.value = ok(was) ? was : (PARTY.menus.find((m) => menuFits(m, n)) || { id: "custom" }).id;
  const isCustom = sel.value === "custom";
  $("tilePicker").classList.toggle("hidden", !isCustom);
  if (!isCustom) {
    const m = PARTY.menus.find((x) => x.id === sel.value);
    $("menuInfo").textContent = `${m.description}: ${m.tiles.map(tileTitle).join(", ")}`;
    $("menuMsg").textContent = "";
    return;
  }
  for (const t of PARTY.tiles) if (custom.has(t.tile) && (n < tileMin(t) || n > tileMax(t))) custom.delete(t.tile);
  $("menuInfo").textContent = "Nigiri is always on the menu. Choose 1 roll, 3 appetizers, 2 specials and 1 dessert.";
  let html = "";
  for (const g of Object.keys(GROUP_TITLE)) {
    html += `<fieldset data-group="${g}"><legend>${GROUP_TITLE[g]}</legend>`;
    for (const t of PARTY.tiles.filter((x) => x.group === g)) {
      const why = tileProblem(t, n);
      const limited = n < tileMin(t) || n > tileMax(t);
      html += `<label class="${why ? "off" : ""}" title="${esc(why)}"><input type="checkbox" data-tile="${esc(t.tile)}" ${custom.has(t.tile) ? "checked" : ""} ${why ? "disabled" : ""}> ${esc(tileTitle(t.tile))}${limited ? ` <span class="muted">(${esc(why)})</span>` : ""}</label>`;
    }
    html += "</fieldset>";
  }
  $("tilePicker").innerHTML = html;
  const missing = Object.keys(GROUP_TITLE).map((g) => [g, PARTY.groups[g] - PARTY.tiles.filter((t) => t.group === g && custom.has(t.tile)).length]).filter(([, k]) => k > 0);
  $("menuMsg").textContent = missing.length ? "Still to choose: " + missing.map(([g, k]) => `${k} ${g}${k > 1 ? "s" : ""}`).join(", ") : "";
}

const isSwitch = (o) => o.choices.length === 2 && o.choices.every((c) => typeof c.value === "boolean");

/** Draws one control per Party option: a checkbox for on/off, a select otherwise; defaults preselected. */
function drawPartyOptions() {
  $("partyRules").classList.toggle("hidden", !PARTY_OPTIONS.length);
  $("partyOptions").innerHTML = PARTY_OPTIONS.map((o) => {
    const id = "opt-" + o.name, tip = `<p class="opt-tip muted" id="${id}-tip">${esc(o.tip)}</p>`;
    if (isSwitch(o)) {
      return `<div class="opt"><label class="switch"><input type="checkbox" id="${id}" data-option="${esc(o.name)}" aria-describedby="${id}-tip" ${o.default ? "checked" : ""}> ${esc(o.label)}</label>${tip}</div>`;
    }
    const opts = o.choices.map((c, i) => `<option value="${i}" ${c.value === o.default ? "selected" : ""}>${esc(c.label)}${c.value === o.default ? " (recommended)" : ""}</option>`).join("");
    return `<div class="opt"><label>${esc(o.label)} <select id="${id}" data-option="${esc(o.name)}" aria-describedby="${id}-tip">${opts}</select></label>${tip}</div>`;
  }).join("");
  syncRulesSummary();
}

/** Every Party option's chosen value (the defaults until the player changes one). */
function partyOptionValues() {
  const out = {};
  for (const o of PARTY_OPTIONS) {
    const el = $("opt-" + o.name);
    if (!el) out[o.name] = o.default;
    else if (isSwitch(o)) out[o.name] = el.checked;
    else out[o.name] = o.choices[Number(el.value)].value;
  }
  return out;
}

/** The options that differ from the recommendation: what the table is created with. */
function changedPartyOptions() {
  const values = partyOptionValues(), out = {};
  for (const o of PARTY_OPTIONS) if (values[o.name] !== o.default) out[o.name] = values[o.name];
  return out;
}

/** An option and its value in words ("Bonus actions per turn: 2"), as the table header shows it. */
function optionWords(name, value) {
  const o = PARTY_OPTIONS.find((x) => x.name === name);
  if (!o) return name.replace(/_/g, " ") + (value === true ? "" : `: ${value}`);
  const c = o.choices.find((x) => x.value === value);
  return `${o.label}: ${c ? c.label : value}`;
}

function syncRulesSummary() {
  const n = Object.keys(changedPartyOptions()).length;
  $("rulesSummary").textContent = n ? `(${n} changed)` : "(recommended)";
}

/** The menu to send: a suggested id, or the 7 chosen tiles (null while a custom menu is incomplete). */
function chosenMenu() {
  const id = $("menuSelect").value;
  if (id !== "custom") return id;
  const tiles = PARTY.tiles.filter((t) => custom.has(t.tile)).map((t) => t.tile);
  return tiles.length === 7 ? tiles : null;
}

function seatRows() {
  syncPlayers();
  const n = Number($("players").value);
  const game = $("game").value;
  const old = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  let html = "";
  for (let i = 0; i < n; i++) {
    const bots = BOTS[game] || ["random"];
    const def = i === 0 ? "me" : old[i] && old[i] !== "me" ? old[i] : "bot:" + (bots.includes("greedy") ? "greedy" : bots[0]);
    const opts = [["me", "You"], ["human", "Human (invite)"], ...bots.map((b) => ["bot:" + b, "Bot: " + b])];
    html += `<div class="seatrow"><span class="pill">Seat ${i + 1}</span><select data-seat="${i}">${opts
      .map(([v, t]) => `<option value="${v}" ${v === def ? "selected" : ""} ${v === "me" && i !== 0 ? "disabled" : ""}>${t}</option>`)
      .join("")}</select></div>`;
  }
  $("seats").innerHTML = html;
  $("variants").classList.toggle("hidden", game !== "sushi-go");
  $("dummy").disabled = n !== 2;
  if (n !== 2) $("dummy").checked = false;
  drawParty();
}

async function loadGames() {
  try {
    const r = await fetch("/api/games");
    const data = await r.json();
    BOTS = {};
    for (const g of data.games) BOTS[g.game] = g.bots;
    const party = data.games.find((g) => g.game === "sushi-go-party");
    PARTY_OPTIONS = (party && party.option_details) || [];
    drawPartyOptions();
    const p = await fetch("/api/party/menus");
    if (p.ok) PARTY = await p.json();
  } catch (e) { /* keep defaults */ }
  seatRows();
}

function when(ts) {
  if (!ts) return "";
  const d = new Date(ts * 1000);
  return d.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" }) + " " + d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

function tableRow(t, kind) {
  const seats = t.seats.map((s) => (s.kind === "bot" ? `${esc(s.name)} <span class="tag">bot</span>` : s.taken ? esc(s.name) : "<i>free</i>")).join(", ");
  const game = { "sushi-go": "Sushi Go!", "sushi-roll": "Sushi Roll", "sushi-go-party": "Sushi Go Party!" }[t.game] || t.game;
  const menu = t.menu ? " · " + esc(t.menu.slice(1).map(tileTitle).join(", ")) : "";
  const o = t.options || {};
  const opts = t.game === "sushi-go-party" ? Object.keys(o).map((k) => optionWords(k, o[k])).join("; ")
    : Object.keys(o).filter((k) => o[k]).map((k) => k.replace(/_/g, " ")).join(", ");
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
  const options = {};
  if (game === "sushi-go") for (const k of ["pass_both_ways", "soy_sauce", "dummy"]) if ($(k).checked) options[k] = true;
  const body = { game, seats, options };
  if (game === "sushi-go-party") {
    if (!PARTY) { $("createMsg").textContent = "The menus could not be loaded; reload the page."; return; }
    const menu = chosenMenu();
    if (!menu) { $("createMsg").textContent = "Finish the custom menu first: " + $("menuMsg").textContent; return; }
    body.menu = menu;
    body.options = changedPartyOptions();
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
$("menuSelect").addEventListener("change", drawParty);
$("partyOptions").addEventListener("change", (e) => {
  syncRulesSummary();
  if (e.target.dataset.option === "player_limits") drawParty();  // the menus and tiles it allows change
});
$("tilePicker").addEventListener("change", (e) => {
  const box = e.target.closest("input[data-tile]");
  if (!box) return;
  if (box.checked) custom.add(box.dataset.tile); else custom.delete(box.dataset.tile);
  drawParty();
});
$("game").addEventListener("change", seatRows);
$("createBtn").addEventListener("click", create);
$("myname").value = localStorage.getItem("sushigo:name") || "";
$("myname").addEventListener("change", () => localStorage.setItem("sushigo:name", $("myname").value));
loadGames();
refresh();
setInterval(refresh, 4000);
