// Sushi Roll: the red belt and supply, seats with belts and trays, the own belt with take / re-roll /
// swap, scores, log lines, round end and replay seats. The buttons match the selection to the view's
// structured `legal` actions ({kind, positions, other_seat, other}); trays show nigiri on wasabi from
// the view's `on_wasabi` (the core's placement), never from a rule of their own.
import { $, A, R, S, esc, send, waitingFor, showMine } from "../table/state.js";
import { seatBox } from "../table/seats.js";
import { basicScores } from "../table/scores.js";

const CATS = ["maki", "nigiri", "dumpling", "tempura", "sashimi"];
const RED = ' <span class="redbelt" role="img" aria-label="red belt"></span>';

// Selection: positions on the own belt, a die on another belt ([seat, position]).
let rsel = [], other = null, beltKey = "";

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

export function reset() { rsel = []; other = null; }

export function info(msg, nm) {
  const v = msg.view;
  const order = [...Array(v.players).keys()].map((i) => (v.red_belt + i) % v.players);
  return [
    `<b>Sushi Roll</b> · red belt (starts this cycle): <span class="redbelt"></span> ${esc(nm[v.red_belt])} · turn order: ${order.map((s) => esc(nm[s])).join(" → ")}`,
    `Supply: menu ${v.supply_menu}, chopsticks ${v.supply_chopsticks}, pudding ${v.supply_pudding}`,
  ];
}

function fresh(v) {
  const out = { tray: v.trays.map(() => new Set()), belt: v.belts.map(() => new Set()) };
  const e = S.logEntries[S.logEntries.length - 1];
  if (!e || e.end || e.round !== v.round) return out;
  if (e.take !== undefined && v.trays[e.seat].length) out.tray[e.seat].add(v.trays[e.seat].length - 1);
  if (e.reroll) e.reroll.forEach((p) => out.belt[e.seat].add(p));
  return out;
}

export function seats(msg, nm) {
  const v = msg.view, marks = fresh(v);
  const canSwap = v.legal.some((a) => a.kind === "swap");
  return v.belts.map((belt, s) => {
    const dice = belt.map((f, p) => (canSwap && s !== S.mySeat)
      ? A.dieHTML(f, { small: true, pos: p, belt: s, selected: other && other[0] === s && other[1] === p })
      : A.dieHTML(f, { small: true, static: true, cls: marks.belt[s].has(p) ? "fresh" : "" })).join("");
    const tray = R.trayHTML(v.trays[s] || [], v.on_wasabi[s], marks.tray[s]);
    return { key: "s" + s, html: seatBox(msg, s, nm, { acting: v.to_act.includes(s), status: null, extra: { badge: v.red_belt === s ? RED : "" }, body: `<div class="tokens">Menu <b>${v.menu[s]}</b> · Chopsticks <b>${v.chopsticks[s]}</b> · Pudding <b>${v.pudding[s]}</b></div>
        ${s === S.mySeat ? "" : `<div class="muted">Belt</div><div class="dice belt-other">${dice || '<span class="muted">empty</span>'}</div>`}
        <div class="muted">Tray</div><div class="dice tray">${tray || '<span class="muted">empty</span>'}</div>` }) };
  });
}

export function mine(msg, nm) {
  const v = msg.view;
  $("roundPill").textContent = `Round ${Math.min(v.round, 2) + 1} of 3`;
  $("turnPill").textContent = v.is_over ? "Game over" : `Cycle ${v.cycle + 1}`;
  $("waiting").textContent = v.is_over ? "" : v.to_act.includes(S.mySeat) ? "Your turn!" : waitingFor(v, nm);
  const myTurn = v.legal.length > 0;
  $("seats").onclick = (e) => {
    const d = e.target.closest("button.die");
    if (!d || d.disabled || !d.dataset.belt) return;
    const s = Number(d.dataset.belt), p = Number(d.dataset.pos);
    other = other && other[0] === s && other[1] === p ? null : [s, p];
    redrawAll();
  };
  if (!showMine(v, { belt: true })) return;
  const key = v.belts[S.mySeat].join(",") + "|" + msg.state_id;
  if (key !== beltKey) { beltKey = key; if (!myTurn) reset(); }
  $("mineTitle").textContent = myTurn ? "Your belt — your turn" : "Your belt";
  $("myBelt").onclick = (e) => {
    const d = e.target.closest("button.die");
    if (!d || d.disabled) return;
    toggle(Number(d.dataset.pos));
  };
  drawControls(msg);
}

let redrawAll = () => {};
/** Takes the page's redraws: the seats are drawn again when a swap target is chosen on another belt. */
export function bind(page) { redrawAll = page.drawSeats; }

function toggle(p) {
  rsel = rsel.includes(p) ? rsel.filter((x) => x !== p) : [...rsel, p];
  drawControls(S.last);
}

/** The legal action of `kind` the selection makes, if any. */
function chosen(kind) {
  const sorted = [...rsel].sort((a, b) => a - b);
  return S.last.view.legal.find((a) => a.kind === kind && same(a.positions, sorted)
    && (kind !== "swap" || (other && a.other_seat === other[0] && a.other === other[1]))) || null;
}

function drawControls(msg) {
  const v = msg.view, myTurn = v.legal.length > 0, marks = fresh(v);
  R.patchList($("myBelt"), v.belts[S.mySeat].map((f, p) => ({ key: `${f}@${p}`, html: A.dieHTML(f, { pos: p, selected: rsel.includes(p), disabled: !myTurn, cls: marks.belt[S.mySeat].has(p) ? "fresh" : "" }) })));
  let hint = myTurn ? "Select a die to take it; select several to re-roll; one of yours and one on another belt to swap." + (A.touchOnly() ? "" : " Keys: 1–9 choose, Enter takes.") : "";
  if (rsel.length) hint = rsel.map((p) => A.dieRule(v.belts[S.mySeat][p])).join(" ");
  if (other) hint += ` Swap target: ${A.dieRule(v.belts[other[0]][other[1]])}`;
  $("hint").textContent = hint;
  let c = "";
  const take = chosen("take"), reroll = chosen("reroll"), swap = chosen("swap");
  if (myTurn) {
    c += `<button class="btn" id="takeBtn" ${take ? "" : "disabled"}>Take</button>`;
    c += `<button class="btn secondary" id="rerollBtn" ${reroll ? "" : "disabled"}>Re-roll (menu ${v.menu[S.mySeat]})</button>`;
    c += `<button class="btn secondary" id="swapBtn" ${swap ? "" : "disabled"}>Swap (chopsticks ${v.chopsticks[S.mySeat]})</button>`;
  }
  R.setHTML($("controls"), c);
  if (myTurn) {
    $("takeBtn").onclick = () => { const a = chosen("take"); if (a) send(a.text); };
    $("rerollBtn").onclick = () => { const a = chosen("reroll"); if (a) send(a.text); };
    $("swapBtn").onclick = () => { const a = chosen("swap"); if (a) send(a.text); };
  }
}

/** Number keys select the n-th die of the own belt. */
export function key(n) {
  const v = S.last.view;
  if (!v.legal.length || n > v.belts[S.mySeat].length) return false;
  toggle(n - 1);
  return true;
}

export function scores(msg, labels) { return basicScores(msg, labels); }

export function freshRound(v) { return v.cycle === 0 && v.trays.every((t) => t.length === 0); }

export function logLine(e, nm) {
  const who = `<b>${esc(nm[e.seat])}</b>`;
  let what;
  if (e.reroll) what = `re-rolled ${e.before.map(R.faceName).join(", ")} → <b>${e.after.map(R.faceName).join(", ")}</b> (menu)`;
  else if (e.swap) what = `swapped ${R.faceName(e.swap)} for ${esc(nm[e.with_seat])}'s ${R.faceName(e.got)} (chopsticks)`;
  else {
    const g = Object.entries(e.gained || {}).map(([k, v]) => `+${v} ${k}`).join(", ");
    what = `took ${R.faceName(e.take)}${g ? ` (${g} token${Object.values(e.gained).reduce((a, b) => a + b, 0) > 1 ? "s" : ""})` : ""}`;
  }
  return `<li><span class="log-when">R${e.round + 1}</span> ${who} ${what}</li>`;
}

export function roundEnd(lr, nm) {
  const labels = lr.points.map((_, s) => nm[s]);
  const seats = lr.points.map((p, s) => {
    const parts = CATS.filter((c) => p[c]).map((c) => `${R.catLabel(c)} ${p[c]}`);
    return R.endSeat(s, labels[s], p, lr.trays[s].length, R.trayHTML(lr.trays[s], lr.on_wasabi[s]), parts);
  }).join("");
  return `<div class="seats end-seats">${seats}</div>${R.categoryTable(lr.points, labels, CATS)}`;
}

export function replaySeat(f, v, s, nm) {
  const last = f.log.find((e) => !e.end);
  const marks = new Set();
  if (last && last.seat === s && last.take !== undefined && v.trays[s].length) marks.add(v.trays[s].length - 1);
  return `<div class="seat" data-seat="${s}"><h3><span>${esc(nm[s])}${v.red_belt === s ? RED : ""}</span><span class="pill">${v.scores.totals[s]} pts</span></h3>
        <div class="tokens">Menu ${v.menu[s]} · Chopsticks ${v.chopsticks[s]} · Pudding ${v.pudding[s]}</div>
        <div class="muted">Belt</div><div class="dice">${v.belts[s].map((d) => A.dieHTML(d, { small: true, static: true })).join("") || '<span class="muted">—</span>'}</div>
        <div class="muted">Tray</div><div class="dice tray">${R.trayHTML(v.trays[s] || [], v.on_wasabi[s], marks) || '<span class="muted">—</span>'}</div></div>`;
}

export function columns(v) { return v.players; }

export function replayWhen(v) { return `Round ${Math.min(v.round, 2) + 1}.`; }

export function redraw() { if (S.last) drawControls(S.last); }
