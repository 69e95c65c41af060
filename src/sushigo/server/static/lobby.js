// The lobby: create a table, list open, running and finished tables. Every word goes through the
// message catalogue (i18n.js: t, tp, nt), every number and date through Intl; a language switch redraws
// the page in place, keeping what the player has chosen.
"use strict";
const $ = (id) => document.getElementById(id);
const esc = window.SushiArt.esc;
const { t, tp, nt } = window.I18N;
const num = (n) => window.I18N.num(n);
/** "A, B and C" as the language joins a list. */
const listWords = (items) => window.I18N.list(items);
// Every game as GET /api/games describes it (its spec): title, player range, options, bots. The lobby
// draws the game list, player counts and option controls from it and keeps no list of its own.
let GAMES = [];
const gameInfo = (name) => GAMES.find((g) => g.game === name);
// Menus and tiles for a "menu" option, as GET /api/party/menus gives them (the server's own rules).
let MENUS = null;
let custom = new Set();
// The menu's groups in words: their order in the picker, a legend with the count to choose, and what is
// still missing ("3 appetizers"); the counts themselves come from the server (MENUS.groups).
const GROUPS = ["roll", "appetizer", "special", "dessert"];
function groupTitle(g, n) {
  const words = { roll: () => nt("Roll ({n})", "Rolls ({n})", n), appetizer: () => nt("Appetizer ({n})", "Appetizers ({n})", n),
    special: () => nt("Special ({n})", "Specials ({n})", n), dessert: () => nt("Dessert ({n})", "Desserts ({n})", n) };
  return words[g] ? words[g]() : `${g} (${num(n)})`;
}
function groupMissing(g, n) {
  const words = { roll: () => nt("{n} kind of roll", "{n} kinds of roll", n), appetizer: () => nt("{n} appetizer", "{n} appetizers", n),
    special: () => nt("{n} special", "{n} specials", n), dessert: () => nt("{n} dessert", "{n} desserts", n) };
  return words[g] ? words[g]() : `${num(n)} ${g}`;
}
/** A bot's kind in words, for the seat choice ("Bot: greedy"); a kind this list lacks keeps its id. */
function botWords(b) {
  const kinds = { random: () => tp("bot", "random"), greedy: () => tp("bot", "greedy"), heuristic: () => tp("bot", "heuristic"),
    mcts: () => tp("bot", "tree search"), alpha: () => tp("bot", "AlphaZero"), neural: () => tp("bot", "neural network"),
    "roll-greedy": () => tp("bot", "greedy (Roll)"), "roll-mcts": () => tp("bot", "tree search (Roll)") };
  return t("Bot: {kind}", { kind: kinds[b] ? kinds[b]() : b });
}
/** A suggested menu's title and description: the game domain's words (sushigo.party.menus marks them). */
const menuTitle = (m) => t(m.title);
const menuDescription = (m) => t(m.description);
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
  if (n < tileMin(tile) || n > tileMax(tile)) return playersRange(tileMin(tile), tileMax(tile));
  if (custom.has(tile.tile)) return "";
  const inGroup = MENUS.tiles.filter((x) => x.group === tile.group && custom.has(x.tile)).length;
  return inGroup >= MENUS.groups[tile.group] ? t("group full") : "";
}

/** Draws the menu picker when the chosen game has a menu option. */
function drawMenu() {
  const has = !!menuOption();
  $("menuPicker").classList.toggle("hidden", !has);
  if (!has || !MENUS) return;
  const n = Number($("players").value);
  const sel = $("menuSelect"), was = sel.value || menuOption().default;
  sel.innerHTML = MENUS.menus.map((m) => `<option value="${esc(m.id)}" ${menuFits(m, n) ? "" : "disabled"}>${esc(menuTitle(m))}${menuFits(m, n) ? "" : ` (${esc(playersRange(menuCounts(m)[0], menuCounts(m).at(-1)))})`}</option>`).join("") + `<option value="custom">${esc(t("Custom menu…"))}</option>`;
  const ok = (id) => id === "custom" || MENUS.menus.some((m) => m.id === id && menuFits(m, n));
  sel.value = ok(was) ? was : (MENUS.menus.find((m) => menuFits(m, n)) || { id: "custom" }).id;
  const isCustom = sel.value === "custom";
  $("tilePicker").classList.toggle("hidden", !isCustom);
  if (!isCustom) {
    const m = MENUS.menus.find((x) => x.id === sel.value);
    $("menuInfo").textContent = t("{description}: {tiles}", { description: menuDescription(m), tiles: listWords(m.tiles.map(tileTitle)) });
    $("menuMsg").textContent = "";
    return;
  }
  for (const t of MENUS.tiles) if (custom.has(t.tile) && (n < tileMin(t) || n > tileMax(t))) custom.delete(t.tile);
  $("menuInfo").textContent = t("Nigiri is always on the menu. Choose {groups}.", { groups: listWords(GROUPS.map((g) => groupMissing(g, MENUS.groups[g]))) });
  let html = "";
  for (const g of GROUPS) {
    html += `<fieldset data-group="${g}"><legend>${esc(groupTitle(g, MENUS.groups[g]))}</legend>`;
    for (const t of MENUS.tiles.filter((x) => x.group === g)) {
      const why = tileProblem(t, n);
      const limited = n < tileMin(t) || n > tileMax(t);
      html += `<label class="${why ? "off" : ""}" title="${esc(why)}"><input type="checkbox" data-tile="${esc(t.tile)}" ${custom.has(t.tile) ? "checked" : ""} ${why ? "disabled" : ""}> ${esc(tileTitle(t.tile))}${limited ? ` <span class="muted">(${esc(why)})</span>` : ""}</label>`;
    }
    html += "</fieldset>";
  }
  $("tilePicker").innerHTML = html;
  const missing = GROUPS.map((g) => [g, MENUS.groups[g] - MENUS.tiles.filter((x) => x.group === g && custom.has(x.tile)).length]).filter(([, k]) => k > 0);
  $("menuMsg").textContent = missing.length ? t("Still to choose: {groups}", { groups: listWords(missing.map(([g, k]) => groupMissing(g, k))) }) : "";
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
  const opts = o.choices.map((c, i) => `<option value="${i}" ${c.value === o.default ? "selected" : ""}>${esc(c.value === o.default ? t("{choice} (recommended)", { choice: c.label }) : c.label)}</option>`).join("");
  const sel = `<label>${esc(o.label)} <select id="${id}" data-option="${esc(o.name)}" ${described}>${opts}</select></label>`;
  return withTip ? `<div class="opt">${sel}${tip}</div>` : sel;
}

/** Draws the chosen game's variants (in a row) and house rules (folded, with a tip each). */
function drawOptions(again = false) {
  const game = $("game").value;
  if ($("variants").dataset.game === game && !again) return;  // drawn already: keep the player's choices
  const keep = $("variants").dataset.game === game ? optionValues() : null;
  $("variants").dataset.game = game;
  $("variants").innerHTML = variants().map((o) => optionControl(o, false)).join("");
  const rules = houseRules();
  $("houseRules").classList.toggle("hidden", !rules.length);
  $("houseOptions").innerHTML = rules.map((o) => optionControl(o, true)).join("");
  if (keep) setOptionValues(keep);  // drawn again in another language: the same choices
  syncRulesSummary();
}

/** Puts chosen values back into the option controls (after they were drawn again). */
function setOptionValues(values) {
  for (const o of current().option_details) {
    const el = $("opt-" + o.name);
    if (!el || !(o.name in values)) continue;
    if (isSwitch(o)) el.checked = values[o.name];
    else { const i = o.choices.findIndex((c) => c.value === values[o.name]); if (i >= 0) el.value = String(i); }
  }
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
  if (isSwitch(o) && !o.rule) return value ? o.label : t("{option}: off", { option: o.label });
  const c = o.choices.find((x) => x.value === value);
  return t("{option}: {value}", { option: o.label, value: c ? c.label : value });
}

function syncRulesSummary() {
  const names = new Set(houseRules().map((o) => o.name));
  const n = Object.keys(changedOptions()).filter((k) => names.has(k)).length;
  $("rulesSummary").textContent = n ? nt("({n} changed)", "({n} changed)", n) : t("(recommended)");
}

/** The menu to send: a suggested id, or the 7 chosen tiles (null while a custom menu is incomplete). */
function chosenMenu() {
  const id = $("menuSelect").value;
  if (id !== "custom") return id;
  const tiles = MENUS.tiles.filter((x) => custom.has(x.tile)).map((x) => x.tile);
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
    const opts = [["me", t("You")], ["human", t("Human (invite)")], ...bots.map((b) => ["bot:" + b, botWords(b)])];
    const seat = t("Seat {n}", { n: num(i + 1) });
    html += `<div class="seatrow"><span class="pill" id="seat-${i}-label">${esc(seat)}</span><select data-seat="${i}" aria-labelledby="seat-${i}-label">${opts
      .map(([v, words]) => `<option value="${esc(v)}" ${v === def ? "selected" : ""} ${v === "me" && i !== 0 ? "disabled" : ""}>${esc(words)}</option>`)
      .join("")}</select></div>`;
  }
  $("seats").innerHTML = html;
  drawMenu();
}

/** "2–5 players" (the range a menu or tile allows). */
function playersRange(lo, hi) { return nt("{lo}–{hi} player", "{lo}–{hi} players", hi, { lo: num(lo), hi: num(hi) }); }

/** The game list and its words from GET /api/games (in the page's language; again after a switch). */
async function loadGames() {
  try {
    GAMES = (await window.SushiArt.games()).games;
    drawGames();
    if (!MENUS && GAMES.some((g) => g.option_details.some((o) => o.type === "menu"))) {
      const p = await fetch("/api/party/menus");
      if (p.ok) MENUS = await p.json();
    }
  } catch (e) { /* keep what there is */ }
  seatRows();
  refresh();
}

function drawGames() {
  drawQuick();
  const sel = $("game"), was = sel.value;
  sel.innerHTML = GAMES.map((g) => `<option value="${esc(g.game)}">${esc(g.title)}</option>`).join("");
  if (gameInfo(was)) sel.value = was;
  $("sub").textContent = GAMES.length ? t("{games} with friends and bots", { games: listWords(GAMES.map((g) => g.title)) }) : t("with friends and bots");
  drawHowTo();
  drawRulesLinks();
}

/** Each game's "How to play" page (``/rules/{game}``) in the page's language: the chosen game's beside
 *  the game list, every game's at the foot of the page. */
const rulesHref = (game) => `/rules/${encodeURIComponent(game)}?lang=${encodeURIComponent(window.I18N.lang())}`;
function drawRulesLinks() {
  const links = GAMES.map((g) => `<a href="${esc(rulesHref(g.game))}">${esc(g.title)}</a>`);
  $("rulesLinks").innerHTML = links.length ? window.I18N.fill(esc(t("How to play: {games}")), { games: links.join(" · ") }) : "";
}
function drawHowTo() {
  const game = $("game").value;
  const a = $("howTo");
  a.classList.toggle("hidden", !game);
  a.href = rulesHref(game);
  const title = (gameInfo(game) || { title: game }).title;
  a.setAttribute("aria-label", t("How to play {game}", { game: title }));
}

/** The turn timer's choices: off, or seconds. */
function drawTimer() {
  const sel = $("timer"), was = sel.value;
  sel.innerHTML = `<option value="">${esc(t("off"))}</option>` + [30, 60, 120].map((s) => `<option value="${s}">${esc(nt("{n} second", "{n} seconds", s))}</option>`).join("");
  sel.value = was;
}

/** A finished game's date and time as the language writes them. */
function when(ts) {
  if (!ts) return "";
  return window.I18N.date(ts * 1000, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** A refusal from the server in the reader's language: its code (``table/limit: ...``) picks the words;
 *  a code this page does not know shows the server's own sentence. */
function serverError(body, fallback) {
  const detail = String((body && body.detail) || "");
  const code = (body && body.code) || (/^([a-z_]+\/[a-z_]+): /.exec(detail) || [])[1];
  const words = {
    "table/limit": () => t("You have too many tables open or playing; finish one first."),
    "rate/limited": () => t("Too many requests; wait a minute and try again."),
    "server/busy": () => t("The server is running as many tables as it can; try again later."),
    "table/full": () => t("Every seat at this table is taken."),
    "table/closed": () => t("This table is no longer open."),
    "seat/taken": () => t("This seat is already taken."),
    "seat/invalid": () => t("This seat cannot be taken."),
    "name/invalid": () => t("A name needs at least one visible character."),
    "name/reserved": () => t("This name would pass for a bot; choose another name."),
    "name/taken": () => t("Someone at this table already has this name."),
    "table/not_found": () => t("There is no such table."),
    "request/invalid": () => t("The server could not accept these settings."),
    "table/invalid": () => t("The server could not accept these settings."),
    "table/account_required": () => t("Sign in to create a rated table."),
    "seat/account_required": () => t("Only signed-in players may sit at a rated table."),
    "rated/limit": () => t("You have played as many rated games against bots as an hour allows; try again later or play unrated."),
    "quickplay/invalid": () => t("The server could not accept these settings."),
    "quickplay/waiting": () => t("You are already waiting at a quick play table."),
    "name/required": () => t("A name needs at least one visible character."),
  };
  if (code && words[code]) return words[code]();
  return detail ? t("The server refused: {reason}", { reason: detail.replace(/^[a-z_]+\/[a-z_]+: /, "") }) : fallback;
}

/** A seat in a table's row: a bot tagged, an account linking to its profile (a program tagged), a free
 *  or reserved seat in words. */
function seatWords(s) {
  if (s.kind === "bot") return `${esc(s.name)} <span class="tag">${esc(t("bot"))}</span>`;
  if (s.deleted) return `<i>${esc(t("deleted player"))}</i>`;
  if (s.account) return `<a href="${esc(window.SushiAccount.profileHref(s.account))}">${esc(s.name || s.account)}</a>${s.program ? ` <span class="tag">${esc(t("program"))}</span>` : ""}`;
  if (s.taken) return esc(s.name);
  return s.reserved ? `<i>${esc(tp("seat", "reserved"))}</i>` : `<i>${esc(tp("seat", "free"))}</i>`;
}

function tableRow(tb, kind) {
  const seats = tb.seats.map(seatWords).join(esc(t(", ")));
  const title = (gameInfo(tb.game) || { title: tb.game }).title;
  const game = esc(title);
  const menu = tb.menu ? " · " + esc(listWords(tb.menu.slice(1).map(tileTitle))) : "";
  const o = tb.options || {};
  const opts = Object.keys(o).map((k) => optionWords(tb.game, k, o[k])).join(t("; "));
  const id = encodeURIComponent(tb.id);
  const named = (words) => esc(words) + `<span class="sr-only"> — ${esc(window.SushiArt.tableName(tb))}</span>`;
  let action = "", extra = "";
  if (kind === "open") action = `<a class="btn" href="/t/${id}">${named(t("Join"))}</a>`;
  else if (kind === "playing") action = `<a class="btn" href="/t/${id}">${named(t("Watch"))}</a>`;
  else {
    const names = tb.winner_names || (tb.winners || []).map((s) => tb.seats[s] && tb.seats[s].name);
    const win = names && names.length ? window.I18N.fill(esc(nt("Winner: {names}", "Winners: {names}", names.length)), { names: `<b>${esc(listWords(names))}</b>` })
      : tb.status === "abandoned" ? esc(t("Abandoned")) : "";
    const totals = tb.totals ? " · " + esc(tb.totals.map(num).join(" / ")) : "";
    extra = `<br><span class="muted">${win}${totals} · <time>${esc(when(tb.finished_at || tb.created_at))}</time></span>`;
    action = tb.status === "finished" ? `<a class="btn" href="/replay/${id}">${named(t("Replay"))}</a> <a class="btn" href="/api/tables/${id}/record" download>${named(t("Record"))}</a>` : "";
  }
  const rated = tb.rated ? ` <span class="tag">${esc(t("rated"))}</span>` : "";
  return `<tr><td><b>${esc(window.SushiArt.tableName(tb))}</b>${rated}<br><span class="muted">${game}${opts ? " · " + esc(opts) : ""}${menu}</span>${extra}</td><td>${seats}</td><td class="actions">${action}</td></tr>`;
}

// Finished games come a page at a time, newest first; ``pages`` holds the cursors of the pages seen.
let pages = [null], page = 0;

async function fetchPage(status, cursor, limit) {
  const q = new URLSearchParams({ status, limit: String(limit) });
  if (cursor) q.set("cursor", cursor);
  const r = await fetch(`/api/tables?${q}`);
  if (!r.ok) throw new Error(`GET /api/tables: ${r.status}`);
  return r.json();
}

async function refresh() {
  try {
    for (const kind of ["open", "playing"]) {
      const data = await fetchPage(kind, null, 20);
      $(kind).innerHTML = data.tables.map((tb) => tableRow(tb, kind)).join("") || `<tr><td class="muted">${esc(t("None yet."))}</td></tr>`;
    }
    await refreshFinished();
    refreshMine();
  } catch (e) { /* try again later */ }
}

async function refreshFinished() {
  const data = await fetchPage("finished", pages[page], 10);
  $("finished").innerHTML = data.tables.map((tb) => tableRow(tb, "finished")).join("") || `<tr><td class="muted">${esc(t("None yet."))}</td></tr>`;
  pages[page + 1] = data.next;
  $("newer").disabled = page === 0;
  $("older").disabled = !data.next;
  $("pageNo").textContent = t("Page {n}", { n: num(page + 1) });
}

$("older").addEventListener("click", () => { if (pages[page + 1]) { page += 1; refreshFinished(); } });
$("newer").addEventListener("click", () => { if (page > 0) { page -= 1; refreshFinished(); } });

async function create() {
  const game = $("game").value;
  const me = window.SushiAccount.current();
  // A signed-in player sits under the account's name (the server takes it from the session).
  const name = me ? me.name : $("myname").value.trim() || t("Me");
  const picks = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  const seats = picks.map((v) => (v.startsWith("bot:") ? { kind: "bot", bot: v.slice(4) } : { kind: "human" }));
  // The table's name is its creator's, in the creator's language, like a player's name.
  const title = (gameInfo(game) || { title: game }).title;
  const body = { game, seats, options: changedOptions(), name: t("{game} for {n}", { game: title, n: num(seats.length) }).slice(0, 40) };
  if (menuOption()) {
    if (!MENUS) { $("createMsg").textContent = t("The menus could not be loaded; reload the page."); return; }
    const menu = chosenMenu();
    if (!menu) { $("createMsg").textContent = t("Finish the custom menu first: {missing}", { missing: $("menuMsg").textContent }); return; }
    body.menu = menu;
  }
  if ($("timer").value) body.turn_timer = Number($("timer").value);
  if (me && $("rated").checked) body.rated = true;
  $("createBtn").disabled = true;
  try {
    const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const tb = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(serverError(tb, t("The table could not be created.")));
    const mine = picks.indexOf("me");
    if (mine >= 0) {
      const j = await fetch(`/api/tables/${tb.id}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name, seat: mine }) });
      const seat = await j.json().catch(() => ({}));
      if (!j.ok) throw new Error(serverError(seat, t("You could not take your seat.")));
      localStorage.setItem("sushigo:" + tb.id, JSON.stringify({ seat: seat.seat, token: seat.token, name }));
    }
    // This device made the table: its page offers "Cancel table" with the table's cancel key (`manage`;
    // a signed-in creator's session would do as well).
    localStorage.setItem("sushigo:created:" + tb.id, tb.manage || "1");
    location.href = `/t/${tb.id}`;
  } catch (e) {
    $("createMsg").textContent = e instanceof TypeError ? t("The server cannot be reached; try again.") : String(e.message || e);
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
$("game").addEventListener("change", () => { seatRows(); drawHowTo(); });
$("createBtn").addEventListener("click", create);
$("myname").value = localStorage.getItem("sushigo:name") || "";
$("myname").addEventListener("change", () => localStorage.setItem("sushigo:name", $("myname").value));
window.I18N.mountSwitch($("nav"));

// ------------------------------------------------------------------ accounts: rated, quick play, mine

/** Signed in: the rated switch (explained beside it) and "My tables"; the name field is the account's. */
function drawAccount() {
  const me = window.SushiAccount.current();
  $("ratedBox").classList.toggle("hidden", !me);
  $("nameRow").classList.toggle("hidden", !!me);
  $("mineBox").classList.toggle("hidden", !me);
  if (!me) $("rated").checked = false;
  refreshMine();
}
$("rated").addEventListener("change", () => {
  // A rated table has a turn timer: 60 seconds unless the player chose one.
  if ($("rated").checked && !$("timer").value) $("timer").value = "60";
});

/** The quick play choices: the games, their sizes and how long to wait for people before bots sit. */
function drawQuick() {
  const sel = $("qpGame"), was = sel.value || $("game").value;
  sel.innerHTML = GAMES.map((g) => `<option value="${esc(g.game)}">${esc(g.title)}</option>`).join("");
  if (gameInfo(was)) sel.value = was;
  const g = gameInfo(sel.value) || { min_players: 2, max_players: 5 };
  const ps = $("qpPlayers"), pwas = Number(ps.value) || 4;
  let html = "";
  for (let n = g.min_players; n <= g.max_players; n++) html += `<option value="${n}">${esc(nt("{n} player", "{n} players", n))}</option>`;
  ps.innerHTML = html;
  ps.value = String(Math.max(g.min_players, Math.min(pwas, g.max_players)));
  const w = $("qpWait"), wwas = w.value || "30";
  w.innerHTML = [0, 10, 30, 60, 120].map((s) => `<option value="${s}">${esc(s ? nt("{n} second", "{n} seconds", s) : t("no wait: bots at once"))}</option>`).join("");
  w.value = wwas;
}
$("qpGame").addEventListener("change", drawQuick);

async function quickPlay() {
  const me = window.SushiAccount.current();
  const body = { game: $("qpGame").value, players: Number($("qpPlayers").value), wait_seconds: Number($("qpWait").value) };
  if (!me) body.name = $("myname").value.trim() || t("Me");  // a guest plays under a name; an account under its own
  $("qpBtn").disabled = true;
  $("qpMsg").textContent = "";
  try {
    const r = await fetch("/api/quickplay", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(serverError(data, t("No table could be found or opened.")));
    const id = data.table_id || (data.table && data.table.id);
    if (data.token) localStorage.setItem("sushigo:" + id, JSON.stringify({ seat: data.seat, token: data.token, name: me ? me.name : "" }));
    location.href = `/t/${encodeURIComponent(id)}`;
  } catch (e) {
    $("qpMsg").textContent = e instanceof TypeError ? t("The server cannot be reached; try again.") : String(e.message || e);
    $("qpBtn").disabled = false;
  }
}
$("qpBtn").addEventListener("click", quickPlay);

/** The signed-in player's open and running tables (GET /api/me/tables): a second device finds them here. */
async function refreshMine() {
  if (!window.SushiAccount.current()) return;
  try {
    const r = await fetch("/api/me/tables");
    if (!r.ok) return;
    const data = await r.json();
    const rows = Array.isArray(data) ? data : data.tables || [];
    $("myTables").innerHTML = rows.map((mine) => {
      const tb = mine.table || mine;
      const title = (gameInfo(tb.game) || { title: tb.game }).title;
      const state = mine.invited ? t("invited: play again") : tb.status === "open" ? t("waiting for players") : t("being played");
      const rated = tb.rated ? ` <span class="tag">${esc(t("rated"))}</span>` : "";
      return `<tr><td><b>${esc(window.SushiArt.tableName(tb))}</b>${rated}<br><span class="muted">${esc(title)} · ${esc(state)}</span></td>` +
        `<td class="actions"><a class="btn" href="/t/${encodeURIComponent(tb.id)}">${esc(t("Open"))}<span class="sr-only"> — ${esc(window.SushiArt.tableName(tb))}</span></a></td></tr>`;
    }).join("") || `<tr><td class="muted">${esc(t("You sit at no table now."))}</td></tr>`;
  } catch (e) { /* try again later */ }
}
window.addEventListener("sushigo:account", drawAccount);
window.SushiAccount.me().then(drawAccount);  // /api/me may have answered before this script ran

/** Draws every word again in the new language, keeping the game, the seats, the options and the menu
 *  the player has chosen (the seat selects and option controls are drawn anew with the same values). */
function redraw() {
  drawGames();
  drawTimer();
  const seatsWas = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  drawOptions(true);
  seatRows();
  document.querySelectorAll("#seats select").forEach((s, i) => { if (seatsWas[i]) s.value = seatsWas[i]; });
  if ($("createMsg").textContent) $("createMsg").textContent = "";
  refresh();
}
// The words change at once; the card and game names when GET /api/games?lang= has answered.
window.addEventListener("sushigo:lang", redraw);
window.addEventListener("sushigo:catalogue", () => { window.SushiArt.games().then((doc) => { GAMES = doc.games; redraw(); }, () => {}); });
window.I18N.ready.then(() => { drawTimer(); drawGames(); loadGames(); });
setInterval(refresh, 4000);
