// The table page: connects to the table's WebSocket, draws the receiver's view, sends actions.
// The server decides legality; this page only composes action texts and checks them against `legal`.
"use strict";
const $ = (id) => document.getElementById(id);
const { cardHTML, dieHTML, esc } = window.SushiArt;
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const storeKey = "sushigo:" + tableId;
let saved = JSON.parse(localStorage.getItem(storeKey) || "null");
let ws = null, mySeat = null, last = null, closedOnPurpose = false, retry = 500, roundsSeen = -1;
let sel = [], dummySel = null, useChop = false;        // Sushi Go! selection (hand indices)
let rsel = [], other = null;                            // Sushi Roll selection (own positions; [seat, pos])
let timerEnd = null;

function names(table) { return table.seats.map((s, i) => s.name || `Seat ${i + 1}`); }
function showMsg(text) { $("msg").textContent = text || ""; }

async function start() {
  $("invite").textContent = location.href;
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
    if (msg.type === "welcome") { mySeat = msg.seat; $("game").classList.remove("hidden"); }
    else if (msg.type === "state") render(msg);
    else if (msg.type === "ack") { sel = []; dummySel = null; useChop = false; rsel = []; other = null; showMsg(""); }
    else if (msg.type === "error") {
      if (msg.code === "auth/invalid") { localStorage.removeItem(storeKey); saved = null; closedOnPurpose = true; ws.close(); location.reload(); return; }
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

function render(msg) {
  const prev = last;
  last = msg;
  if (prev && prev.state_id !== msg.state_id && msg.legal.length === 0) { sel = []; dummySel = null; rsel = []; other = null; }
  timerEnd = msg.deadline == null ? null : Date.now() + msg.deadline * 1000;
  $("seatInfo").textContent = mySeat == null ? "You are watching." : `You play seat ${mySeat + 1}.`;
  if (msg.view.game === "sushi-go") renderGo(msg); else renderRoll(msg);
  if (msg.table.status === "open") {
    const free = msg.table.seats.filter((s) => s.kind === "human" && !s.taken).length;
    $("waiting").textContent = `Waiting for ${free} more player${free === 1 ? "" : "s"} to join…`;
    $("waiting").className = "status waiting";
  }
  if (msg.view.is_over) renderFinal(msg);
}

// ------------------------------------------------------------------------------------ Sushi Go!

function renderGo(msg) {
  const v = msg.view, t = msg.table, nm = names(t);
  const dummy = v.options && v.options.dummy;
  $("roundPill").textContent = `Round ${v.round + 1} of 3`;
  $("turnPill").textContent = v.is_over ? "Game over" : `Turn ${v.turn + 1}`;
  const waitingFor = v.to_act.map((s) => (s === mySeat ? "you" : nm[s]));
  $("waiting").textContent = v.is_over ? "" : waitingFor.length ? `Waiting for ${waitingFor.join(", ")}…` : "";
  $("waiting").className = "status waiting";
  // Seats
  let html = "";
  const totals = (v.scores && v.scores.totals) || [];
  const n = v.tableaux.length;
  for (let s = 0; s < n; s++) {
    const isDummy = dummy && s === 2;
    const name = isDummy ? "Dummy" : nm[s];
    const seatInfo = isDummy ? null : t.seats[s];
    const acting = !isDummy && v.to_act.includes(s);
    const status = isDummy ? (v.dummy_controller != null ? `controlled by ${nm[v.dummy_controller]}` : "")
      : v.is_over ? "" : acting ? "picking…" : "picked ✓";
    const who = isDummy ? "" : seatInfo.kind === "bot" ? '<span class="tag">bot</span>' : `<span class="dot ${seatInfo.connected ? "on" : ""}" title="${seatInfo.connected ? "online" : "offline"}"></span>`;
    const standin = seatInfo && seatInfo.standin ? ` <span class="muted">(bot playing)</span>` : "";
    const cards = v.tableaux[s].map((c, i) => cardHTML(c, { small: true, onWasabi: v.on_wasabi[s][i], disabled: true })).join("");
    html += `<div class="seat ${s === mySeat ? "me" : ""} ${acting ? "acting" : ""}" data-seat="${s}">
      <h3><span>${who} ${esc(name)}${s === mySeat ? " (you)" : ""}${standin}</span><span class="pill">${totals[s] ?? 0} pts</span></h3>
      <div class="status ${acting ? "waiting" : "done"}">${esc(status)}</div>
      <div class="muted">Hand: ${v.hand_sizes[s] ?? 0} · Puddings: ${v.puddings[s]}</div>
      <div class="cards" style="margin-top:6px">${cards || '<span class="muted">No cards yet</span>'}</div></div>`;
  }
  $("seats").innerHTML = html;
  // My hand
  const mine = mySeat != null && !v.is_over;
  $("mine").classList.toggle("hidden", !mine);
  $("hand").classList.remove("hidden");
  $("myBelt").classList.add("hidden");
  if (mine) drawHand(msg);
  renderScoresGo(v, nm);
  const rounds = (v.scores && v.scores.rounds) || [];
  if (roundsSeen >= 0 && rounds.length > roundsSeen && !v.is_over) showRoundResult(rounds.length - 1, rounds[rounds.length - 1].points, nm, dummy);
  roundsSeen = rounds.length;
}

function drawHand(msg) {
  const v = msg.view, hand = v.hand;
  const canAct = msg.legal.length > 0;
  const canChop = msg.legal.some((a) => a.split(" ")[0].includes("+"));
  const ctrl = v.dummy_controller === mySeat && v.options.dummy;
  const need = useChop ? 2 : 1;
  if (!canChop) useChop = false;
  $("mineTitle").textContent = canAct ? "Your hand — choose a card" : "Your hand";
  $("hint").textContent = !canAct ? "Waiting for the others…" : ctrl && sel.length >= need ? "Now choose the dummy's card" : useChop ? "Choose two cards, in order" : "";
  $("hand").innerHTML = hand.map((c, i) => {
    const pos = sel.indexOf(i);
    const badge = pos >= 0 ? String(pos + 1) : dummySel === i ? "D" : "";
    return cardHTML(c, { index: i, selected: pos >= 0 || dummySel === i, badge, disabled: !canAct });
  }).join("");
  $("hand").onclick = (e) => {
    const b = e.target.closest(".card");
    if (!b || b.disabled) return;
    const i = Number(b.dataset.index);
    const at = sel.indexOf(i);
    if (at >= 0) sel.splice(at, 1);
    else if (dummySel === i) dummySel = null;
    else if (ctrl && sel.length >= need) dummySel = i;
    else if (sel.length < need) sel.push(i);
    else sel = [i];
    drawHand(last);
  };
  let controls = "";
  if (canAct) {
    if (canChop) controls += `<label><input type="checkbox" id="chop" ${useChop ? "checked" : ""}> Use chopsticks (take two cards)</label>`;
    const ready = sel.length === need && (!ctrl || dummySel != null);
    controls += `<button class="btn" id="playBtn" ${ready ? "" : "disabled"}>Play ${esc(sel.map((i) => hand[i].replace(/_/g, " ")).join(" + "))}${ctrl && dummySel != null ? " · dummy gets " + esc(hand[dummySel].replace(/_/g, " ")) : ""}</button>`;
  }
  $("controls").innerHTML = controls;
  if ($("chop")) $("chop").onchange = (e) => { useChop = e.target.checked; if (!useChop) sel = sel.slice(0, 1); drawHand(last); };
  if ($("playBtn")) $("playBtn").onclick = () => {
    let text = sel.map((i) => hand[i]).join("+");
    if (ctrl) text += " dummy=" + hand[dummySel];
    send(text);
  };
}

const GO_CATS = ["maki", "tempura", "sashimi", "dumpling", "nigiri", "soy_sauce"];

function renderScoresGo(v, nm) {
  const rep = v.scores || {};
  const n = v.tableaux.length;
  const label = (s) => (v.options.dummy && s === 2 ? "Dummy" : nm[s]);
  let html = `<table class="scores"><tr><th></th>${[...Array(n).keys()].map((s) => `<th>${esc(label(s))}</th>`).join("")}</tr>`;
  (rep.rounds || []).forEach((r, i) => {
    html += `<tr><td>Round ${i + 1}</td>${r.points.map((p) => `<td>${p.total}</td>`).join("")}</tr>`;
  });
  html += `<tr><td>Puddings</td>${rep.pudding_counts.map((c, s) => `<td>${c}${rep.pudding_points ? ` (${rep.pudding_points[s] >= 0 ? "+" : ""}${rep.pudding_points[s]})` : ""}</td>`).join("")}</tr>`;
  html += `<tr><th>Total</th>${rep.totals.map((t) => `<th>${t}</th>`).join("")}</tr></table>`;
  $("scores").innerHTML = html;
}

function categoryTable(points, labels, cats) {
  let html = `<table class="scores"><tr><th></th>${labels.map((l) => `<th>${esc(l)}</th>`).join("")}</tr>`;
  for (const c of cats) {
    if (!points.some((p) => p[c])) continue;
    html += `<tr><td>${c.replace(/_/g, " ")}</td>${points.map((p) => `<td>${p[c] || 0}</td>`).join("")}</tr>`;
  }
  html += `<tr><th>Round total</th>${points.map((p) => `<th>${p.total}</th>`).join("")}</tr></table>`;
  return html;
}

function showRoundResult(index, points, nm, dummy) {
  const labels = points.map((_, s) => (dummy && s === 2 ? "Dummy" : nm[s]));
  const cats = last.view.game === "sushi-go" ? GO_CATS : ROLL_CATS;
  $("roundResult").innerHTML = `<div class="bar"><h2>Round ${index + 1} scores</h2><button class="btn secondary" id="closeRound">OK</button></div>${categoryTable(points, labels, cats)}`;
  $("roundResult").classList.remove("hidden");
  $("closeRound").onclick = () => $("roundResult").classList.add("hidden");
}

// ----------------------------------------------------------------------------------- Sushi Roll

const ROLL_CATS = ["maki", "nigiri", "dumpling", "tempura", "sashimi"];

function renderRoll(msg) {
  const v = msg.view, t = msg.table, nm = names(t);
  $("roundPill").textContent = `Round ${Math.min(v.round, 2) + 1} of 3`;
  $("turnPill").textContent = v.is_over ? "Game over" : `Cycle ${v.cycle + 1}`;
  $("waiting").textContent = v.is_over || v.to_act == null ? "" : v.to_act === mySeat ? "Your turn!" : `Waiting for ${nm[v.to_act]}…`;
  $("waiting").className = "status waiting";
  const myTurn = msg.legal.length > 0;
  const canSwap = myTurn && msg.legal.some((a) => a.startsWith("swap"));
  let html = "";
  for (let s = 0; s < v.players; s++) {
    const seatInfo = t.seats[s];
    const acting = v.to_act === s;
    const who = seatInfo.kind === "bot" ? '<span class="tag">bot</span>' : `<span class="dot ${seatInfo.connected ? "on" : ""}"></span>`;
    const belt = v.belts[s].map((f, p) => dieHTML(f, {
      small: s !== mySeat, pos: p, belt: s,
      selected: other && other[0] === s && other[1] === p,
      disabled: !(canSwap && s !== mySeat),
    })).join("");
    const tray = (v.trays[s] || []).map((f) => dieHTML(f, { small: true, disabled: true })).join("");
    html += `<div class="seat ${s === mySeat ? "me" : ""} ${acting ? "acting" : ""}" data-seat="${s}">
      <h3><span>${who} ${esc(nm[s])}${s === mySeat ? " (you)" : ""}${v.red_belt === s ? ' <span class="redbelt" title="red belt holder"></span>' : ""}${seatInfo.standin ? ' <span class="muted">(bot playing)</span>' : ""}</span><span class="pill">${v.scores[s]} pts</span></h3>
      <div class="tokens">Menu <b>${v.menu[s]}</b> · Chopsticks <b>${v.chopsticks[s]}</b> · Pudding <b>${v.pudding[s]}</b></div>
      ${s === mySeat ? "" : `<div class="muted">Belt</div><div class="dice belt-other">${belt || '<span class="muted">empty</span>'}</div>`}
      <div class="muted">Tray</div><div class="dice">${tray || '<span class="muted">empty</span>'}</div></div>`;
  }
  $("seats").innerHTML = html;
  $("seats").onclick = (e) => {
    const d = e.target.closest(".die");
    if (!d || d.disabled || !d.dataset.belt) return;
    const s = Number(d.dataset.belt), p = Number(d.dataset.pos);
    other = other && other[0] === s && other[1] === p ? null : [s, p];
    renderRoll(last);
  };
  const mine = mySeat != null && !v.is_over;
  $("mine").classList.toggle("hidden", !mine);
  $("hand").classList.add("hidden");
  $("myBelt").classList.remove("hidden");
  if (mine) {
    $("mineTitle").textContent = myTurn ? "Your belt — your turn" : "Your belt";
    $("hint").textContent = myTurn ? "Select a die to take it; select several to re-roll; one of yours and one on another belt to swap." : "";
    $("myBelt").innerHTML = v.belts[mySeat].map((f, p) => dieHTML(f, { pos: p, selected: rsel.includes(p), disabled: !myTurn })).join("");
    $("myBelt").onclick = (e) => {
      const d = e.target.closest(".die");
      if (!d || d.disabled) return;
      const p = Number(d.dataset.pos);
      rsel = rsel.includes(p) ? rsel.filter((x) => x !== p) : [...rsel, p];
      renderRoll(last);
    };
    let c = "";
    if (myTurn) {
      c += `<button class="btn" id="takeBtn" ${rsel.length === 1 ? "" : "disabled"}>Take</button>`;
      c += `<button class="btn secondary" id="rerollBtn" ${rsel.length >= 1 && v.menu[mySeat] > 0 ? "" : "disabled"}>Re-roll (menu ${v.menu[mySeat]})</button>`;
      c += `<button class="btn secondary" id="swapBtn" ${rsel.length === 1 && other && v.chopsticks[mySeat] > 0 ? "" : "disabled"}>Swap (chopsticks ${v.chopsticks[mySeat]})</button>`;
    }
    $("controls").innerHTML = c;
    if (myTurn) {
      $("takeBtn").onclick = () => send(`take ${rsel[0]}`);
      $("rerollBtn").onclick = () => send(`reroll ${[...rsel].sort((a, b) => a - b).join(",")}`);
      $("swapBtn").onclick = () => send(`swap ${rsel[0]} with ${other[0]}:${other[1]}`);
    }
  }
  // Scores
  let sh = `<table class="scores"><tr><th></th>${nm.map((x) => `<th>${esc(x)}</th>`).join("")}</tr>`;
  v.round_scores.forEach((r, i) => { sh += `<tr><td>Round ${i + 1}</td>${r.map((p) => `<td>${p}</td>`).join("")}</tr>`; });
  sh += `<tr><th>Total</th>${v.scores.map((p) => `<th>${p}</th>`).join("")}</tr></table>`;
  $("scores").innerHTML = sh;
  if (roundsSeen >= 0 && v.round_scores.length > roundsSeen && !v.is_over) {
    const r = v.round_scores.length - 1;
    $("roundResult").innerHTML = `<div class="bar"><h2>Round ${r + 1} scores</h2><button class="btn secondary" id="closeRound">OK</button></div><table class="scores"><tr>${nm.map((x) => `<th>${esc(x)}</th>`).join("")}</tr><tr>${v.round_scores[r].map((p) => `<td>${p}</td>`).join("")}</tr></table>`;
    $("roundResult").classList.remove("hidden");
    $("closeRound").onclick = () => $("roundResult").classList.add("hidden");
  }
  roundsSeen = v.round_scores.length;
}

// -------------------------------------------------------------------------------------- result

function renderFinal(msg) {
  const v = msg.view, nm = names(msg.table);
  let totals, winners, rows = "";
  if (v.game === "sushi-go") {
    totals = v.scores.totals; winners = v.scores.winners || [];
    const labels = totals.map((_, s) => (v.options.dummy && s === 2 ? "Dummy" : nm[s]));
    v.scores.rounds.forEach((r, i) => { rows += `<h3>Round ${i + 1}</h3>` + categoryTable(r.points, labels, GO_CATS); });
    rows += `<h3>Totals</h3><table class="scores"><tr><th></th>${labels.map((l) => `<th>${esc(l)}</th>`).join("")}</tr>
      <tr><td>Pudding points</td>${v.scores.pudding_points.map((p) => `<td>${p}</td>`).join("")}</tr>
      <tr><th>Total</th>${totals.map((t) => `<th>${t}</th>`).join("")}</tr></table>`;
  } else {
    totals = v.scores; winners = v.winners || [];
    rows = `<table class="scores"><tr><th></th>${nm.map((l) => `<th>${esc(l)}</th>`).join("")}</tr>` +
      v.round_scores.map((r, i) => `<tr><td>Round ${i + 1}</td>${r.map((p) => `<td>${p}</td>`).join("")}</tr>`).join("") +
      `<tr><td>Puddings</td>${v.pudding.map((p) => `<td>${p}</td>`).join("")}</tr><tr><th>Total</th>${totals.map((t) => `<th>${t}</th>`).join("")}</tr></table>`;
  }
  const win = winners.map((s) => nm[s]).join(" and ");
  const me = mySeat != null && winners.includes(mySeat);
  $("finalBody").innerHTML = `<h2>Game over</h2><p class="winner" id="winnerLine">${me ? "You win!" : `${esc(win)} win${winners.length === 1 ? "s" : ""}!`}</p>${rows}
    <div class="controls"><a class="btn" href="/replay/${tableId}">Replay</a><a class="btn" href="/api/tables/${tableId}/record" download>Download record</a><a class="btn" href="/">Lobby</a><button class="btn secondary" id="closeFinal">Close</button></div>`;
  $("final").classList.remove("hidden");
  $("closeFinal").onclick = () => $("final").classList.add("hidden");
  $("mine").classList.add("hidden");
  $("controls").innerHTML = "";
  $("hand").innerHTML = "";
  $("myBelt").innerHTML = "";
}

setInterval(() => {
  if (timerEnd == null || !last || last.view.is_over) { $("timerPill").classList.add("hidden"); return; }
  const left = Math.max(0, Math.round((timerEnd - Date.now()) / 1000));
  $("timerPill").textContent = `Timer ${left}s`;
  $("timerPill").classList.remove("hidden");
}, 500);

$("copyLink").onclick = async () => {
  try { await navigator.clipboard.writeText(location.href); $("copyLink").textContent = "Copied!"; }
  catch (e) { window.prompt("Copy this link:", location.href); }
};

start();
