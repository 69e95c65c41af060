// The table page: connects to the table's WebSocket, draws the receiver's view, sends actions.
// The server decides legality; this page only composes action texts and checks them against `legal`.
// Drawing is keyed (SushiRender.patchList / setHTML): nodes that did not change are never rebuilt, so a
// `presence` message or another seat's move never swallows a click in progress.
"use strict";
const $ = (id) => document.getElementById(id);
const { cardHTML, dieHTML, esc, cardRule, dieRule, art } = window.SushiArt;
const R = window.SushiRender;
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const storeKey = "sushigo:" + tableId;
const endKey = "sushigo:roundend:" + tableId;
let saved = JSON.parse(localStorage.getItem(storeKey) || "null");
let ws = null, mySeat = null, last = null, closedOnPurpose = false, retry = 500;
let sel = [], dummySel = null, useChop = false, handKey = "";  // Sushi Go! selection (hand indices)
let rsel = [], other = null, beltKey = "";                       // Sushi Roll selection
let timerEnd = null, changeTo = null, logEntries = [], endTimer = null;
let psel = null, pchoice = null, pkey = "", flipSel = new Set();  // Party: chosen card, action text, flips
const ROUND_END_SECONDS = 12;

function showMsg(text) { $("msg").textContent = text || ""; }

// ---------------------------------------------------------------------------------- connecting

/** A seat link (``#seat=TOKEN``) opens the seat on this device; the token leaves the address bar. */
function takeSeatLink() {
  const m = /(?:^|[#&])seat=([A-Za-z0-9_-]{16,100})/.exec(location.hash);
  if (!m) return;
  saved = { token: m[1] };
  localStorage.setItem(storeKey, JSON.stringify(saved));
  history.replaceState(null, "", location.pathname + location.search);
}

async function start() {
  takeSeatLink();
  $("invite").textContent = location.origin + location.pathname;
  const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!r.ok) { document.querySelector("main").innerHTML = `<section class="panel"><h2>No such table</h2><a class="btn" href="/">Back to the lobby</a></section>`; return; }
  const table = await r.json();
  $("title").textContent = table.name;
  if (saved && saved.token) return connect(saved.token);
  const free = table.seats.filter((s) => s.kind === "human" && !s.taken);
  if (table.status === "open" && free.length) {
    $("joinPanel").classList.remove("hidden");
    $("joinName").value = localStorage.getItem("sushigo:name") || "";
    $("freeSeats").innerHTML = free.map((s) => `<button class="btn" data-seat="${s.seat}">Sit at seat ${s.seat + 1}</button>`).join("");
    $("freeSeats").onclick = (e) => { const b = e.target.closest("button"); if (b) join(Number(b.dataset.seat)); };
    $("watchBtn").onclick = () => { $("joinPanel").classList.add("hidden"); connect(null); };
    return;
  }
  connect(null);
}

async function join(seat) {
  const name = $("joinName").value.trim();
  if (!name) { $("joinMsg").textContent = "Please enter a name."; return; }
  localStorage.setItem("sushigo:name", name);
  const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name, seat }) });
  const data = await r.json();
  if (!r.ok) { $("joinMsg").textContent = data.detail || "cannot join"; return; }
  saved = { seat: data.seat, token: data.token, name };
  localStorage.setItem(storeKey, JSON.stringify(saved));
  $("joinPanel").classList.add("hidden");
  connect(data.token);
}

function connect(token) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  ws.onopen = () => { retry = 500; ws.send(JSON.stringify({ type: "hello", token })); };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "welcome") { mySeat = msg.seat; logEntries = []; $("game").classList.remove("hidden"); drawSeatLink(); }
    else if (msg.type === "state") render(msg);
    else if (msg.type === "picked") picked(msg);
    else if (msg.type === "presence") presence(msg);
    else if (msg.type === "chat") addChat(msg.lines);
    else if (msg.type === "ack") {
      if (msg.action === "withdraw" && changeTo) {
        ws.send(JSON.stringify({ type: "action", action: changeTo, state_id: msg.state_id }));
        changeTo = null;
        return;
      }
      sel = []; dummySel = null; useChop = false; rsel = []; other = null; psel = null; pchoice = null; flipSel = new Set(); showMsg("");
    } else if (msg.type === "error") {
      if (msg.code === "auth/invalid") {
        localStorage.removeItem(storeKey); saved = null; closedOnPurpose = true; ws.close();
        showMsg("This seat link does not open a seat at this table; you are watching.");
        closedOnPurpose = false; setTimeout(() => connect(null), 300); return;
      }
      changeTo = null;
      showMsg(msg.message);
    }
  };
  ws.onclose = () => {
    if (closedOnPurpose || (last && last.view.is_over)) return;
    showMsg("Connection lost; reconnecting…");
    setTimeout(() => connect(token), retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function send(action) {
  if (!last || !last.legal.includes(action)) { showMsg(`That is not a legal move now (${action}).`); return; }
  ws.send(JSON.stringify({ type: "action", action, state_id: last.state_id }));
}

/** Replaces the pending pick: take it back, then (on that ack) send the new one. */
function changePick(action) {
  changeTo = action;
  ws.send(JSON.stringify({ type: "action", action: "withdraw", state_id: last.state_id }));
}

/** Someone else picked (or took a pick back) inside the turn: only who is still choosing changed.
 *  The turn's state_id stays ours to act on; the log and the timer carry on as they were. */
function picked(msg) {
  if (!last) return;
  const left = timerEnd == null ? null : Math.max(0, (timerEnd - Date.now()) / 1000);
  render({ ...last, view: { ...last.view, to_act: msg.to_act }, deadline: left, log: null });
}

function presence(msg) {
  if (!last) return;
  last.table.seats.forEach((s, i) => { s.connected = !!msg.connected[i]; s.standin = !!msg.standin[i]; });
  last.table.spectators = msg.spectators;
  drawSeats(last);
  drawSpectators(last.table);
}

// ------------------------------------------------------------------------------------- drawing

function render(msg) {
  const prev = last;
  last = msg;
  art.game = msg.view.game;
  document.body.dataset.game = msg.view.game;
  if (msg.log) {
    if (msg.log.start <= logEntries.length) logEntries = logEntries.slice(0, msg.log.start).concat(msg.log.entries);
    drawLog(msg);
  }
  if (prev && prev.state_id !== msg.state_id && msg.legal.length === 0 && !msg.pick) { sel = []; dummySel = null; rsel = []; other = null; }
  timerEnd = msg.deadline == null ? null : Date.now() + msg.deadline * 1000;
  R.setHTML($("seatInfo"), mySeat == null ? "You are watching." : `You play seat ${mySeat + 1}.`);
  drawInfo(msg);
  drawSeats(msg);
  drawSpectators(msg.table);
  if (msg.view.game === "sushi-go") drawGo(msg); else if (msg.view.game === "sushi-go-party") drawParty(msg); else drawRoll(msg);
  drawScores(msg);
  if (msg.table.status === "open") {
    const free = msg.table.seats.filter((s) => s.kind === "human" && !s.taken).length;
    $("waiting").textContent = `Waiting for ${free} more player${free === 1 ? "" : "s"} to join…`;
  }
  $("chatForm").classList.toggle("hidden", msg.table.status === "finished" || msg.view.is_over);
  maybeRoundEnd(msg);
  if (msg.view.is_over) renderFinal(msg);
}

function drawSpectators(table) {
  R.setHTML($("spectators"), table.spectators ? `${table.spectators} watching` : "");
}

/** Variants, passing direction, the dummy's hand sizes, Sushi Roll's start player and turn order. */
function drawInfo(msg) {
  const v = msg.view, nm = R.seatNames(msg.table, v);
  const bits = [];
  if (v.game === "sushi-go") {
    const o = v.options || {};
    const names = { pass_both_ways: "pass both ways", soy_sauce: "soy sauce", dummy: "two-player dummy", strict_wasabi: "strict wasabi", dummy_outside_majorities: "dummy outside maki and pudding races" };
    const on = Object.keys(names).filter((k) => o[k]).map((k) => names[k]);
    bits.push(`<b>Sushi Go!</b> · ${on.length ? "Variants: " + esc(on.join(", ")) : "standard rules"}`);
    if (!v.is_over) {
      if (o.dummy) {
        bits.push(`Hands swap between you two each turn. The dummy's pile (${v.hand_sizes[2] ?? 0} cards) gives its top card to the player in control, who also chooses the dummy's card; control alternates every turn${v.dummy_controller != null ? ` (now: ${esc(nm[v.dummy_controller])})` : ""}. Hands: ${esc(nm[0])} ${v.hand_sizes[0]}, ${esc(nm[1])} ${v.hand_sizes[1]}, dummy pile ${v.hand_sizes[2]}.`);
      } else {
        const right = o.pass_both_ways && v.round === 1;
        const order = [...Array(v.players).keys()].map((i) => (right ? (v.players - i) % v.players : i));
        bits.push(`Round ${v.round + 1}: hands pass ${right ? "right ←" : "left →"} (${order.map((s) => esc(nm[s])).concat(esc(nm[order[0]])).join(right ? " ← " : " → ")})`);
      }
    }
  } else if (v.game === "sushi-go-party") {
    bits.push(`<b>Sushi Go Party!</b> · Menu: ${R.menuStrip(v.menu)}`);
    if (!v.is_over) {
      const right = v.options && v.options.pass_both_ways && v.round === 1;
      let line = `Round ${v.round + 1}: hands pass ${right ? "right ←" : "left →"} · ${v.deck_size} cards in the deck`;
      if (v.menu.includes("uramaki")) line += ` · uramaki places left: ${3 - v.uramaki_claimed}`;
      bits.push(line);
    }
    bits.push(`<span id="partyRules">${esc(partyRulesLine(msg.table.options || {}))}</span>`);
  } else {
    const order = [...Array(v.players).keys()].map((i) => (v.red_belt + i) % v.players);
    bits.push(`<b>Sushi Roll</b> · red belt (starts this cycle): <span class="redbelt"></span> ${esc(nm[v.red_belt])} · turn order: ${order.map((s) => esc(nm[s])).join(" → ")}`);
    bits.push(`Supply: menu ${v.supply_menu}, chopsticks ${v.supply_chopsticks}, pudding ${v.supply_pudding}`);
  }
  R.setHTML($("info"), bits.map((b) => `<div>${b}</div>`).join(""));
}

/** "House rules: …" in the lobby's words (render.js keeps them, for the replay too); the bar is drawn
 *  again once the words have arrived. */
function partyRulesLine(options) { return R.partyRulesLine(options, redrawInfo); }
function redrawInfo() { if (last) drawInfo(last); }

/** Indices of each tableau's cards revealed in the latest turn (to mark them). */
function freshGo(v) {
  const out = v.tableaux.map(() => new Set());
  const e = logEntries[logEntries.length - 1];
  if (!e || e.end || e.round !== v.round || e.turn !== v.turn - 1) return out;
  const mark = (s, n) => { const t = v.tableaux[s]; for (let i = Math.max(0, t.length - n); i < t.length; i++) out[s].add(i); };
  for (const p of e.plays) mark(p.seat, p.cards.length);
  if (e.dummy) mark(2, 1);
  return out;
}

function freshRoll(v) {
  const out = { tray: v.trays.map(() => new Set()), belt: v.belts.map(() => new Set()) };
  const e = logEntries[logEntries.length - 1];
  if (!e || e.end || e.round !== v.round) return out;
  if (e.take !== undefined && v.trays[e.seat].length) out.tray[e.seat].add(v.trays[e.seat].length - 1);
  if (e.reroll) e.reroll.forEach((p) => out.belt[e.seat].add(p));
  return out;
}

function seatHeader(msg, s, nm, pts, running) {
  const t = msg.table, v = msg.view;
  const isDummy = v.game === "sushi-go" && v.options && v.options.dummy && s === 2;
  const info = isDummy ? null : t.seats[s];
  const who = isDummy ? "" : info.kind === "bot" ? '<span class="tag">bot</span>' : `<span class="dot ${info.connected ? "on" : ""}" role="img" aria-label="${info.connected ? "online" : "offline"}"></span>`;
  const standin = info && info.standin ? ' <span class="muted">(bot playing)</span>' : "";
  const red = v.game === "sushi-roll" && v.red_belt === s ? ' <span class="redbelt" role="img" aria-label="red belt"></span>' : "";
  // Party's estimate can be negative (eel, temaki's fewest): "−3 now", not "+-3 now".
  const run = running != null ? `<span class="pill run" title="points if the round ended now">${running < 0 ? "−" + -running : "+" + running} now</span>` : "";
  return `<h3><span class="who">${who} ${esc(nm[s])}${s === mySeat ? " (you)" : ""}${red}${standin}</span><span class="pts">${run}<span class="pill">${pts} pts</span></span></h3>`;
}

function drawSeats(msg) {
  const v = msg.view, nm = R.seatNames(msg.table, v);
  const items = [];
  $("seats").classList.toggle("party-seats", v.game === "sushi-go-party");
  if (v.game === "sushi-go-party") {
    const totals = (v.scores && v.scores.totals) || [];
    const dessert = R.tileTitle(v.menu[v.menu.length - 1]);
    for (let s = 0; s < v.players; s++) {
      const acting = v.to_act.includes(s);
      let status = "";
      if (!v.is_over) {
        if (v.phase === "choose") status = acting ? "choosing…" : "chose ✓";
        else if (v.resolving && v.resolving.decider === s) status = `deciding: ${R.cardName(v.resolving.card)}`;
      }
      const fresh = new Set();
      const at = v.phase === "resolve" ? v.turn : v.turn - 1;
      (v.tableaux[s] || []).forEach((c, i) => { if (c.turn === at) fresh.add(i); });
      const body = R.partyTableau(v.tableaux[s] || [], fresh);
      const race = v.uramaki_race && v.uramaki_race[s] ? ` · uramaki ${v.uramaki_race[s]} pts` : "";
      items.push({ key: "s" + s, html: `<div class="seat ${s === mySeat ? "me" : ""} ${acting ? "acting" : ""}" data-seat="${s}">
        ${seatHeader(msg, s, nm, totals[s] ?? 0, msg.running && msg.running[s])}
        <div class="status ${acting ? "waiting" : "done"}">${esc(status)}</div>
        <div class="muted">Hand ${v.hand_sizes[s] ?? 0} · ${esc(dessert)} kept ${v.desserts[s].length}${race}</div>
        <div class="tableau" aria-label="${esc(nm[s])}'s table">${body || '<span class="muted">No cards yet</span>'}</div></div>` });
    }
  } else if (v.game === "sushi-go") {
    const totals = (v.scores && v.scores.totals) || [];
    const fresh = freshGo(v);
    for (let s = 0; s < v.tableaux.length; s++) {
      const isDummy = v.options.dummy && s === 2;
      const acting = !isDummy && v.to_act.includes(s);
      const status = isDummy ? (v.dummy_controller != null ? `controlled by ${nm[v.dummy_controller]}` : "")
        : v.is_over ? "" : acting ? "picking…" : "picked ✓";
      const body = R.groupTableau(v.tableaux[s], v.on_wasabi[s], fresh[s]);
      items.push({ key: "s" + s, html: `<div class="seat ${s === mySeat ? "me" : ""} ${acting ? "acting" : ""}" data-seat="${s}">
        ${seatHeader(msg, s, nm, totals[s] ?? 0, msg.running && msg.running[s])}
        <div class="status ${acting ? "waiting" : "done"}">${esc(status)}</div>
        <div class="muted">Hand ${v.hand_sizes[s] ?? 0} · Puddings ${v.puddings[s]}</div>
        <div class="tableau" aria-label="${esc(nm[s])}'s table">${body || '<span class="muted">No cards yet</span>'}</div></div>` });
    }
  } else {
    const fresh = freshRoll(v);
    const canSwap = msg.legal.some((a) => a.startsWith("swap"));
    for (let s = 0; s < v.players; s++) {
      const acting = v.to_act === s;
      const belt = v.belts[s].map((f, p) => (canSwap && s !== mySeat)
        ? dieHTML(f, { small: true, pos: p, belt: s, selected: other && other[0] === s && other[1] === p })
        : dieHTML(f, { small: true, static: true, cls: fresh.belt[s].has(p) ? "fresh" : "" })).join("");
      items.push({ key: "s" + s, html: `<div class="seat ${s === mySeat ? "me" : ""} ${acting ? "acting" : ""}" data-seat="${s}">
        ${seatHeader(msg, s, nm, v.scores[s], msg.running && msg.running[s])}
        <div class="tokens">Menu <b>${v.menu[s]}</b> · Chopsticks <b>${v.chopsticks[s]}</b> · Pudding <b>${v.pudding[s]}</b></div>
        ${s === mySeat ? "" : `<div class="muted">Belt</div><div class="dice belt-other">${belt || '<span class="muted">empty</span>'}</div>`}
        <div class="muted">Tray</div><div class="dice tray">${R.trayHTML(v.trays[s] || [], fresh.tray[s]) || '<span class="muted">empty</span>'}</div></div>` });
    }
  }
  R.patchList($("seats"), items);
}

// ----------------------------------------------------------------------------------- Sushi Go!

function drawGo(msg) {
  const v = msg.view, nm = R.seatNames(msg.table, v);
  $("roundPill").textContent = `Round ${v.round + 1} of 3`;
  $("turnPill").textContent = v.is_over ? "Game over" : `Turn ${v.turn + 1}`;
  const waitingFor = v.to_act.map((s) => (s === mySeat ? "you" : nm[s]));
  $("waiting").textContent = v.is_over ? "" : waitingFor.length ? `Waiting for ${waitingFor.join(", ")}…` : "";
  const mine = mySeat != null && !v.is_over;
  $("mine").classList.toggle("hidden", !mine);
  $("hand").classList.remove("hidden");
  $("myBelt").classList.add("hidden");
  if (mine) drawHand(msg);
}

function pickParts(text) {
  const [own, d] = text.split(" ");
  return { cards: own.split("+"), dummy: d ? d.slice("dummy=".length) : null };
}

function drawHand(msg) {
  const v = msg.view, hand = v.hand;
  const key = hand.join(",") + "|" + v.round + "|" + v.turn;
  if (key !== handKey) { handKey = key; sel = []; dummySel = null; useChop = false; }
  const pick = msg.pick ? pickParts(msg.pick) : null;
  const canAct = msg.legal.length > 0;
  const changing = !!pick && !v.is_over;
  const canChop = canAct ? msg.legal.some((a) => a.split(" ")[0].includes("+")) : v.tableaux[mySeat].includes("chopsticks") && hand.length >= 2;
  const ctrl = v.dummy_controller === mySeat && v.options.dummy;
  const need = useChop ? 2 : 1;
  if (!canChop) useChop = false;
  // Mark the pending pick's cards in the hand (by occurrence).
  const pickedAt = new Map();
  if (pick) {
    const left = [...pick.cards];
    hand.forEach((c, i) => { const k = left.indexOf(c); if (k >= 0) { left.splice(k, 1); pickedAt.set(i, String(pick.cards.length > 1 ? k + 1 : "✓")); } });
    if (pick.dummy) { const i = hand.findIndex((c, j) => c === pick.dummy && !pickedAt.has(j)); if (i >= 0) pickedAt.set(i, "D"); }
  }
  $("mineTitle").textContent = canAct ? "Your hand — choose a card" : changing ? "Your hand — your pick is in" : "Your hand";
  let hint = "";
  if (changing) hint = `You picked ${pick.cards.map(R.cardName).join(" + ")}${pick.dummy ? ", dummy gets " + R.cardName(pick.dummy) : ""}. Until everyone has picked you may choose again.`;
  else if (!canAct) hint = "Waiting for the others…";
  else if (ctrl && sel.length >= need) hint = "Now choose the dummy's card";
  else if (useChop) hint = "Choose two cards, in order";
  else hint = "Tap a card (or press its number), then Play. Keys: 1–9 choose, Enter plays.";
  if (sel.length) hint = sel.map((i) => cardRule(hand[i])).join(" ") + " " + (hint.startsWith("Tap") ? "" : hint);
  $("hint").textContent = hint;
  const enabled = canAct || changing;
  R.patchList($("hand"), hand.map((c, i) => {
    const pos = sel.indexOf(i);
    const badge = pos >= 0 ? String(pos + 1) : dummySel === i ? "D" : pickedAt.get(i) || "";
    return { key: `${c}#${i}`, html: cardHTML(c, { index: i, selected: pos >= 0 || dummySel === i, picked: pickedAt.has(i) && !sel.length, badge: badge && `${badge}`, disabled: !enabled }) };
  }));
  $("hand").onclick = (e) => {
    const b = e.target.closest(".card");
    if (!b || b.disabled) return;
    choose(Number(b.dataset.index));
  };
  let controls = "";
  if (enabled) {
    if (canChop) controls += `<label><input type="checkbox" id="chop" ${useChop ? "checked" : ""}> Use chopsticks (take two cards)</label>`;
    const ready = sel.length === need && (!ctrl || dummySel != null);
    const what = sel.map((i) => R.cardName(hand[i])).join(" + ") + (ctrl && dummySel != null ? " · dummy gets " + R.cardName(hand[dummySel]) : "");
    controls += `<button class="btn" id="playBtn" ${ready ? "" : "disabled"}>${changing ? (what ? "Change pick to" : "Choose another card to change") : "Play"} ${esc(what)}</button>`;
    if (changing) controls += `<button class="btn secondary" id="takeBackBtn">Take back my pick</button>`;
  }
  R.setHTML($("controls"), controls);
  if ($("chop")) $("chop").onchange = (e) => { useChop = e.target.checked; if (!useChop) sel = sel.slice(0, 1); drawHand(last); };
  if ($("playBtn")) $("playBtn").onclick = play;
  if ($("takeBackBtn")) $("takeBackBtn").onclick = () => ws.send(JSON.stringify({ type: "action", action: "withdraw", state_id: last.state_id }));
}

function choose(i) {
  const v = last.view;
  const ctrl = v.dummy_controller === mySeat && v.options.dummy;
  const need = useChop ? 2 : 1;
  const at = sel.indexOf(i);
  if (at >= 0) sel.splice(at, 1);
  else if (dummySel === i) dummySel = null;
  else if (ctrl && sel.length >= need) dummySel = i;
  else if (sel.length < need) sel.push(i);
  else sel = [i];
  drawHand(last);
}

function play() {
  const v = last.view, hand = v.hand;
  const ctrl = v.dummy_controller === mySeat && v.options.dummy;
  const need = useChop ? 2 : 1;
  if (sel.length !== need || (ctrl && dummySel == null)) return;
  let text = sel.map((i) => hand[i]).join("+");
  if (ctrl) text += " dummy=" + hand[dummySel];
  if (last.pick) {
    if (text === last.pick) { sel = []; dummySel = null; drawHand(last); return; }
    changePick(text);
  } else send(text);
}

// ----------------------------------------------------------------------------- Sushi Go Party!

/** An action's text in words (the server's text form: ``eel bonus=chopsticks_2``, ``ask maki``). */
function partyWords(text) {
  const w = text.split(" ");
  if (w[0] === "ask") return `Ask for ${R.askName(w[1])}`;
  if (w[0] === "give") return `Give ${R.cardName(w[1])}`;
  if (w[0] === "flip") return w.length > 1 ? `Turn ${w[1].split(",").length} face down` : "Turn nothing over";
  let out = R.cardName(w[0]);
  for (const part of w.slice(1)) {
    if (part.startsWith("copies=")) out += ` copying ${R.cardName(part.slice(7))}`;
    else if (part === "nowasabi") out += " (not on your wasabi)";
    else if (part.startsWith("bonus=")) out += `, and use ${part.slice(6).split(",").map(R.cardName).join(" and ")} this turn`;
  }
  return out;
}

function drawParty(msg) {
  const v = msg.view, nm = R.seatNames(msg.table, v);
  $("roundPill").textContent = `Round ${v.round + 1} of 3`;
  $("turnPill").textContent = v.is_over ? "Game over" : `Turn ${v.turn + 1}`;
  let waiting = "";
  if (!v.is_over) {
    if (v.phase === "resolve" && v.resolving) {
      const r = v.resolving, who = r.decider === mySeat ? "you" : nm[r.decider];
      waiting = `Resolving ${nm[r.seat]}'s ${R.cardName(r.card)}${r.ask ? ` (asks for ${R.askName(r.ask)})` : ""}: waiting for ${who}…`;
    } else if (v.to_act.length) waiting = `Waiting for ${v.to_act.map((s) => (s === mySeat ? "you" : nm[s])).join(", ")}…`;
  }
  $("waiting").textContent = waiting;
  const mine = mySeat != null && !v.is_over;
  $("mine").classList.toggle("hidden", !mine);
  $("hand").classList.remove("hidden");
  $("myBelt").classList.add("hidden");
  if (mine) drawPartyHand(msg);
}

/** The candidates of a Party decision: each distinct card the legal actions start with. */
function partyCards(legal) { return [...new Set(legal.map((a) => a.split(" ")[0]))]; }

function drawPartyHand(msg) {
  const v = msg.view, hand = v.hand, legal = msg.legal, res = v.resolving;
  const key = [hand.join(","), v.round, v.turn, v.phase, res ? res.card + res.step : ""].join("|");
  if (key !== pkey) { pkey = key; psel = null; pchoice = null; flipSel = new Set(); }
  const deciding = v.phase === "resolve" && legal.length > 0;
  const choosing = v.phase === "choose" && legal.length > 0;
  const flipping = deciding && legal.every((a) => a.split(" ")[0] === "flip");
  const naming = deciding && legal.every((a) => /^(ask|give) /.test(a));
  // What the cards row shows: the hand, or a menu's four drawn cards while its player chooses.
  const fromMenu = deciding && !flipping && !naming && res && res.card.startsWith("menu") && v.menu_drawn;
  const row = fromMenu ? v.menu_drawn : hand;
  const playable = new Set(choosing || (deciding && !flipping && !naming) ? partyCards(legal) : []);
  let title = "Your hand", hint = "";
  if (choosing) { title = "Your hand — choose a card"; hint = "Tap a card, then Play. Keys: 1–9 choose, Enter plays."; }
  else if (msg.pick && v.phase === "choose") { title = "Your hand — your pick is in"; hint = `You picked ${partyWords(msg.pick)}. Until everyone has picked you may take it back.`; }
  else if (deciding && res) {
    const c = R.cardName(res.card);
    if (flipping) { title = `${c}: turn cards face down`; hint = "Tap your earlier cards to turn them face down (each scores 2), then Confirm."; }
    else if (res.step === "ask") { title = `${c}: name a card`; hint = "The first player to your left with it in hand gives it to you and takes the spoon."; }
    else if (naming) { title = `${c}: choose what to give`; hint = `The spoon asks for ${R.askName(res.ask)}; you choose which one.`; }
    else if (fromMenu) { title = `${c}: choose one of the four cards you drew`; hint = "Only you see these; the rest go back into the deck."; }
    else if (res.card.startsWith("chopsticks")) { title = `${c}: play an extra card from your hand`; hint = "The chopsticks go back into your hand."; }
    else { title = `${c}: choose a card`; }
  } else if (!v.is_over) hint = "Waiting for the others…";
  $("mineTitle").textContent = title;
  if (psel && !pchoice && choosing) hint = "Choose how to play it:";
  $("hint").textContent = psel ? cardRule(psel) + " " + hint : hint;
  R.patchList($("hand"), row.map((c, i) => ({ key: `${c}#${i}`, html: cardHTML(c, { index: i, selected: psel === c && row.indexOf(c) === i, disabled: !playable.has(c) }) })));
  $("hand").onclick = (e) => {
    const b = e.target.closest(".card");
    if (!b || b.disabled) return;
    partyChoose(b.dataset.card);
  };
  let c = "";
  if (flipping) {
    const refs = (msg.refs && msg.refs[mySeat]) || [];
    const can = new Set(legal.flatMap((a) => (a.split(" ")[1] || "").split(",").filter(Boolean).map(Number)));
    // One flat row (no overlapping stacks), so that every card is easy to tap on a phone.
    const mineNow = v.tableaux[mySeat] || [];
    const cards = mineNow.map((card, i) => [card, refs[i]]).filter(([, r]) => can.has(r)).map(([card, r]) =>
      cardHTML(R.partyIdentity(card) === "face_down" ? "face_down" : card.card, { small: true, index: r, selected: flipSel.has(r), note: card.copies ? "= " + R.cardName(card.copies) : "", cls: "flippable" }));
    c += `<div class="decision" id="decision"><div class="cards" id="flipCards">${cards.join("")}</div></div>`;
    const text = flipText(msg);
    c += `<button class="btn" id="confirmFlip" ${text ? "" : "disabled"}>Confirm: ${esc(text ? partyWords(text) : "that set cannot be turned over")}</button>`;
  } else if (naming) {
    c += `<div class="decision" id="decision"><div class="choice-list">${legal.map((a) => `<button class="btn secondary" data-action="${esc(a)}">${esc(partyWords(a))}</button>`).join("")}</div></div>`;
  } else if (psel) {
    const options = legal.filter((a) => a.split(" ")[0] === psel);
    if (options.length > 1) c += `<div class="decision" id="decision"><div class="choice-list">${options.map((a) => `<button class="btn ${a === pchoice ? "" : "secondary"}" data-action="${esc(a)}" aria-pressed="${a === pchoice}">${esc(partyWords(a))}</button>`).join("")}</div></div>`;
  }
  if ((choosing || deciding) && !flipping && !naming) c += `<button class="btn" id="playBtn" ${pchoice ? "" : "disabled"}>Play ${esc(pchoice ? partyWords(pchoice) : "")}</button>`;
  if (msg.pick && v.phase === "choose" && !choosing) c += `<button class="btn secondary" id="takeBackBtn">Take back my pick</button>`;
  R.setHTML($("controls"), c);
  $("controls").onclick = (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    if (b.dataset.action && naming) send(b.dataset.action);
    else if (b.dataset.action) { pchoice = b.dataset.action; drawPartyHand(last); }
    else if (b.id === "playBtn" && pchoice) send(pchoice);
    else if (b.id === "takeBackBtn") ws.send(JSON.stringify({ type: "action", action: "withdraw", state_id: last.state_id }));
    else if (b.id === "confirmFlip") { const t = flipText(last); if (t) send(t); }
    else if (b.classList.contains("card") && b.dataset.index !== undefined) {
      const ref = Number(b.dataset.index);
      if (flipSel.has(ref)) flipSel.delete(ref); else flipSel.add(ref);
      drawPartyHand(last);
    }
  };
}

/** The legal ``flip`` text that turns over the chosen cards (the server lists one per distinct set of
 *  card names, so the choice is matched by names, not positions). */
function flipText(msg) {
  const v = msg.view, refs = (msg.refs && msg.refs[mySeat]) || [];
  const nameOf = new Map(refs.map((r, i) => [r, R.partyIdentity(v.tableaux[mySeat][i])]));
  const names = (list) => list.map((r) => nameOf.get(r)).sort().join(",");
  const exact = "flip" + (flipSel.size ? " " + [...flipSel].sort((a, b) => a - b).join(",") : "");
  if (msg.legal.includes(exact)) return exact;
  const want = names([...flipSel]);
  return msg.legal.find((a) => names((a.split(" ")[1] || "").split(",").filter(Boolean).map(Number)) === want) || null;
}

function partyChoose(card) {
  if (psel === card) { psel = null; pchoice = null; }
  else {
    psel = card;
    const options = last.legal.filter((a) => a.split(" ")[0] === card);
    pchoice = options.length === 1 ? options[0] : null;
  }
  drawPartyHand(last);
}

// ---------------------------------------------------------------------------------- Sushi Roll

function drawRoll(msg) {
  const v = msg.view, nm = R.seatNames(msg.table, v);
  $("roundPill").textContent = `Round ${Math.min(v.round, 2) + 1} of 3`;
  $("turnPill").textContent = v.is_over ? "Game over" : `Cycle ${v.cycle + 1}`;
  $("waiting").textContent = v.is_over || v.to_act == null ? "" : v.to_act === mySeat ? "Your turn!" : `Waiting for ${nm[v.to_act]}…`;
  const myTurn = msg.legal.length > 0;
  $("seats").onclick = (e) => {
    const d = e.target.closest("button.die");
    if (!d || d.disabled || !d.dataset.belt) return;
    const s = Number(d.dataset.belt), p = Number(d.dataset.pos);
    other = other && other[0] === s && other[1] === p ? null : [s, p];
    drawSeats(last); drawRollControls(last);
  };
  const mine = mySeat != null && !v.is_over;
  $("mine").classList.toggle("hidden", !mine);
  $("hand").classList.add("hidden");
  $("myBelt").classList.remove("hidden");
  if (!mine) return;
  const key = v.belts[mySeat].join(",") + "|" + msg.state_id;
  if (key !== beltKey) { beltKey = key; if (!myTurn) { rsel = []; other = null; } }
  $("mineTitle").textContent = myTurn ? "Your belt — your turn" : "Your belt";
  $("myBelt").onclick = (e) => {
    const d = e.target.closest("button.die");
    if (!d || d.disabled) return;
    const p = Number(d.dataset.pos);
    rsel = rsel.includes(p) ? rsel.filter((x) => x !== p) : [...rsel, p];
    drawRollControls(last);
  };
  drawRollControls(msg);
}

function drawRollControls(msg) {
  const v = msg.view, myTurn = msg.legal.length > 0;
  const fresh = freshRoll(v);
  R.patchList($("myBelt"), v.belts[mySeat].map((f, p) => ({ key: `${f}@${p}`, html: dieHTML(f, { pos: p, selected: rsel.includes(p), disabled: !myTurn, cls: fresh.belt[mySeat].has(p) ? "fresh" : "" }) })));
  let hint = myTurn ? "Select a die to take it; select several to re-roll; one of yours and one on another belt to swap. Keys: 1–9 choose, Enter takes." : "";
  if (rsel.length) hint = rsel.map((p) => dieRule(v.belts[mySeat][p])).join(" ");
  if (other) hint += ` Swap target: ${dieRule(v.belts[other[0]][other[1]])}`;
  $("hint").textContent = hint;
  let c = "";
  if (myTurn) {
    c += `<button class="btn" id="takeBtn" ${rsel.length === 1 ? "" : "disabled"}>Take</button>`;
    c += `<button class="btn secondary" id="rerollBtn" ${rsel.length >= 1 && v.menu[mySeat] > 0 ? "" : "disabled"}>Re-roll (menu ${v.menu[mySeat]})</button>`;
    c += `<button class="btn secondary" id="swapBtn" ${rsel.length === 1 && other && v.chopsticks[mySeat] > 0 ? "" : "disabled"}>Swap (chopsticks ${v.chopsticks[mySeat]})</button>`;
  }
  R.setHTML($("controls"), c);
  if (myTurn) {
    $("takeBtn").onclick = () => send(`take ${rsel[0]}`);
    $("rerollBtn").onclick = () => send(`reroll ${[...rsel].sort((a, b) => a - b).join(",")}`);
    $("swapBtn").onclick = () => send(`swap ${rsel[0]} with ${other[0]}:${other[1]}`);
  }
}

// ------------------------------------------------------------------------------- log and scores

function drawLog(msg) {
  const nm = R.seatNames(msg.table, msg.view);
  const list = $("log");
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
  R.patchList(list, logEntries.map((e, i) => ({ key: "l" + i, html: R.logLine(e, nm, msg.view.game) })));
  if (atEnd) list.scrollTop = list.scrollHeight;
}

function drawScores(msg) {
  const v = msg.view, nm = R.seatNames(msg.table, v);
  const labels = (v.game === "sushi-go-party" ? v.hand_sizes : v.game === "sushi-go" ? v.tableaux : v.belts).map((_, s) => nm[s]);
  let html;
  if (msg.final) html = R.finalTable(msg.final, labels);
  else if (v.game === "sushi-go-party") html = partyScores(msg, labels);
  else if (v.game === "sushi-go") {
    const rep = v.scores;
    html = `<table class="scores"><tr><th></th>${labels.map((l) => `<th>${esc(l)}</th>`).join("")}</tr>`;
    rep.rounds.forEach((r, i) => { html += `<tr><td>Round ${i + 1}</td>${r.points.map((p) => `<td>${p.total}</td>`).join("")}</tr>`; });
    if (msg.running) html += `<tr class="muted"><td>Round ${v.round + 1} so far</td>${msg.running.map((p) => `<td>${p}</td>`).join("")}</tr>`;
    html += `<tr><td>Puddings (count)</td>${rep.pudding_counts.map((c) => `<td>${c}</td>`).join("")}</tr>`;
    html += `<tr class="total"><th>Total</th>${rep.totals.map((t) => `<th>${t}</th>`).join("")}</tr></table>`;
  } else {
    html = `<table class="scores"><tr><th></th>${labels.map((x) => `<th>${esc(x)}</th>`).join("")}</tr>`;
    v.round_scores.forEach((r, i) => { html += `<tr><td>Round ${i + 1}</td>${r.map((p) => `<td>${p}</td>`).join("")}</tr>`; });
    if (msg.running) html += `<tr class="muted"><td>Round ${v.round + 1} so far</td>${msg.running.map((p) => `<td>${p}</td>`).join("")}</tr>`;
    html += `<tr class="total"><th>Total</th>${v.scores.map((p) => `<th>${p}</th>`).join("")}</tr></table>`;
  }
  R.setHTML($("scores"), html);
}

/** A Party score during the round, signed as the seats' "+N now" pill writes it ("−3", not "-3"). */
function signed(n) { return n < 0 ? "−" + -n : "+" + n; }

/** Party's score table while the game is on. The rows that are points add up: the finished rounds sum to
 *  *Total* (each seat's "pts"); "Round N so far" is each seat's "+N now" (not banked yet), and the row
 *  under it is *Total* plus that, what the seat would have if the round ended now. The kept desserts
 *  are a count on a row of their own, since they only score when the game ends. */
function partyScores(msg, labels) {
  const v = msg.view, rep = v.scores, run = msg.running, n = labels.length;
  const row = (kind, label, cells, quiet = false) => `<tr data-row="${kind}"${quiet ? ' style="color:var(--muted)"' : ""}><td>${label}</td>${cells.map((c) => `<td>${c}</td>`).join("")}</tr>`;
  let html = `<table class="scores party-scores"><tr><th></th>${labels.map((l) => `<th scope="col">${esc(l)}</th>`).join("")}</tr>`;
  rep.rounds.forEach((r, i) => { html += row("round", `Round ${i + 1}`, r.points.map((p) => p.total)); });
  html += `<tr class="total" data-row="total"><th scope="row">Total</th>${rep.totals.map((t) => `<th>${t}</th>`).join("")}</tr>`;
  if (run && run.length === n) {
    const r = v.round + 1;
    html += row("so-far", `Round ${r} so far`, run.map(signed), true);
    html += row("if-ended", `Total if round ${r} ended now${v.round === 2 ? " (desserts score at the end)" : ""}`, rep.totals.map((t, s) => t + run[s]), true);
  }
  html += row("dessert", `${esc(R.tileTitle(v.menu[v.menu.length - 1]))} kept (count)`, rep.dessert_counts, true);
  return html + "</table>";
}

// ---------------------------------------------------------------------------------- round end

/** Shows the last round's final tableaux when a round has just ended (also after a reconnect). */
function maybeRoundEnd(msg) {
  const lr = msg.last_round, v = msg.view;
  if (!lr || v.is_over) return;
  const fresh = v.game !== "sushi-roll" ? v.turn === 0 && v.tableaux.every((t) => t.length === 0)
    : v.cycle === 0 && v.trays.every((t) => t.length === 0);
  const seen = Number(sessionStorage.getItem(endKey) ?? -1);
  if (!fresh || lr.round <= seen) return;
  sessionStorage.setItem(endKey, String(lr.round));
  const nm = R.seatNames(msg.table, v);
  $("roundEndBody").innerHTML = `<div class="bar"><h2 id="roundEndTitle">Round ${lr.round + 1} is over</h2><button class="btn" id="continueBtn">Continue <span id="endCount"></span></button></div>${R.roundEndHTML(lr, nm, v.game)}`;
  $("roundEnd").classList.remove("hidden");
  let left = ROUND_END_SECONDS;
  const tick = () => { $("endCount").textContent = `(${left})`; if (left-- <= 0) closeRoundEnd(); };
  clearInterval(endTimer); tick(); endTimer = setInterval(tick, 1000);
  $("continueBtn").onclick = closeRoundEnd;
  $("continueBtn").focus();
}

function closeRoundEnd() { clearInterval(endTimer); $("roundEnd").classList.add("hidden"); }

function renderFinal(msg) {
  const v = msg.view, nm = R.seatNames(msg.table, v);
  const final = msg.final;
  const labels = final.totals.map((_, s) => nm[s]);
  const winners = final.winners || [];
  const win = winners.map((s) => nm[s]).join(" and ");
  const me = mySeat != null && winners.includes(mySeat);
  const lr = msg.last_round;
  const html = `<h2>Game over</h2><p class="winner" id="winnerLine">${me ? "You win!" : `${esc(win)} win${winners.length === 1 ? "s" : ""}!`}</p>
    <h3>Final scores</h3>${R.finalTable(final, labels)}
    ${lr ? `<h3>Round ${lr.round + 1}: the final tables</h3>${R.roundEndHTML(lr, nm, v.game)}` : ""}
    <div class="controls"><a class="btn" href="/replay/${encodeURIComponent(tableId)}">Replay</a><a class="btn" href="/api/tables/${encodeURIComponent(tableId)}/record" download>Download record</a><a class="btn" href="/">Lobby</a><button class="btn secondary" id="closeFinal">Close</button></div>`;
  if ($("final").dataset.done !== "1") {
    $("finalBody").innerHTML = html;
    $("final").dataset.done = "1";
    $("final").classList.remove("hidden");
    closeRoundEnd();
    $("closeFinal").onclick = () => $("final").classList.add("hidden");
  }
  $("mine").classList.add("hidden");
  R.setHTML($("controls"), "");
}

// ------------------------------------------------------------------------------ chat, seat link

function addChat(lines) {
  const list = $("chat");
  for (const l of lines) {
    const li = document.createElement("li");
    li.innerHTML = `<b>${esc(l.name)}${l.seat == null ? "" : ""}</b> ${esc(l.text)}`;
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
}

$("chatForm").onsubmit = (e) => {
  e.preventDefault();
  const text = $("chatText").value.trim();
  if (!text || !ws) return;
  ws.send(JSON.stringify({ type: "chat", text: text.slice(0, 200) }));
  $("chatText").value = "";
};

function seatLink() { return saved && saved.token ? `${location.origin}/t/${encodeURIComponent(tableId)}#seat=${saved.token}` : null; }

function drawSeatLink() {
  const has = mySeat != null && seatLink();
  $("seatLinkPanel").classList.toggle("hidden", !has);
  $("seatLinkBox").classList.add("hidden");
}

$("showSeatLink").onclick = () => {
  const box = $("seatLinkBox");
  box.classList.toggle("hidden");
  $("seatLink").value = box.classList.contains("hidden") ? "" : seatLink();
};
$("copySeatLink").onclick = async () => {
  try { await navigator.clipboard.writeText(seatLink()); $("copySeatLink").textContent = "Copied!"; }
  catch (e) { $("seatLinkBox").classList.remove("hidden"); $("seatLink").value = seatLink(); $("seatLink").select(); }
};

// ------------------------------------------------------------------------- keyboard and tips

document.addEventListener("keydown", (e) => {
  if (!last || e.target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "Escape") { closeRoundEnd(); hideTip(); return; }
  const n = Number(e.key);
  if (n >= 1 && n <= 9) {
    if (last.view.game === "sushi-go-party") { const b = $("hand").querySelectorAll(".card")[n - 1]; if (b && !b.disabled) { partyChoose(b.dataset.card); e.preventDefault(); } }
    else if (last.view.game === "sushi-go" && last.view.hand && n <= last.view.hand.length && ($("hand").querySelector(".card:not([disabled])"))) { choose(n - 1); e.preventDefault(); }
    else if (last.view.game === "sushi-roll" && last.legal.length && n <= last.view.belts[mySeat].length) { const p = n - 1; rsel = rsel.includes(p) ? rsel.filter((x) => x !== p) : [...rsel, p]; drawRollControls(last); e.preventDefault(); }
  } else if (e.key === "Enter" && !e.target.closest("button, a")) {
    const b = $("playBtn") || $("takeBtn");
    if (b && !b.disabled) { b.click(); e.preventDefault(); }
  } else if (e.key === "c" && $("chop")) { $("chop").click(); }
});

function hideTip() { $("tip").classList.add("hidden"); }
function showTip(el) {
  const tip = $("tip");
  tip.textContent = el.dataset.tip;
  tip.classList.remove("hidden");
  const r = el.getBoundingClientRect();
  const w = Math.min(280, window.innerWidth - 16);
  tip.style.maxWidth = w + "px";
  tip.style.left = Math.max(8, Math.min(window.innerWidth - w - 8, r.left + window.scrollX)) + "px";
  tip.style.top = (r.bottom + window.scrollY + 6) + "px";
}
// A tap or Enter on a pictured card or die (not a choice) shows its name and rule.
document.addEventListener("click", (e) => {
  const el = e.target.closest("[data-tip]");
  if (el && !el.matches("button")) showTip(el); else if (!e.target.closest("#tip")) hideTip();
});
document.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && e.target.matches && e.target.matches("span[data-tip]")) showTip(e.target);
});

setInterval(() => {
  if (timerEnd == null || !last || last.view.is_over) { $("timerPill").classList.add("hidden"); return; }
  const left = Math.max(0, Math.round((timerEnd - Date.now()) / 1000));
  $("timerPill").textContent = `Timer ${left}s`;
  $("timerPill").classList.remove("hidden");
}, 500);

$("copyLink").onclick = async () => {
  const link = location.origin + location.pathname;
  try { await navigator.clipboard.writeText(link); $("copyLink").textContent = "Copied!"; }
  catch (e) { window.prompt("Copy this link:", link); }
};

start();
