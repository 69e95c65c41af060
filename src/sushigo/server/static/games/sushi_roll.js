// Sushi Roll: the red belt and supply, seats with belts and trays, the own belt with take / re-roll /
// swap, scores, log lines, round end and replay seats. The buttons match the selection to the view's
// structured `legal` actions ({kind, positions, other_seat, other}); trays show nigiri on wasabi from
// the view's `on_wasabi` (the core's placement), never from a rule of their own.
import { $, A, R, S, esc, send, waitingFor, showMine, t, fillHTML, nt, num } from "../table/state.js";
import { seatBox } from "../table/seats.js";
import { basicScores } from "../table/scores.js";

const CATS = ["maki", "nigiri", "dumpling", "tempura", "sashimi"];
function RED() {
  const name = t("red belt");
  return ` <span class="redbelt" role="img" aria-label="${esc(name)}"></span>`;
}

// Selection: positions on the own belt, a die on another belt ([seat, position]).
let rsel = [], other = null, beltKey = "";

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

export function reset() { rsel = []; other = null; }

export function info(msg, nm) {
  const v = msg.view;
  const order = [...Array(v.players).keys()].map((i) => (v.red_belt + i) % v.players);
  const spec = A.gameSpec(v.game), title = (spec && spec.title) || "Sushi Roll";
  const red = fillHTML(t("red belt (starts this cycle): {who}"), { who: '<span class="redbelt"></span> ' + esc(nm[v.red_belt]) });
  const turns = t("turn order: {order}", { order: order.map((s) => nm[s]).join(" → ") });
  return [
    `<b>${esc(title)}</b> · ${red} · ${esc(turns)}`,
    esc(t("Supply: menu {menu}, chopsticks {chopsticks}, pudding {pudding}", { menu: num(v.supply_menu), chopsticks: num(v.supply_chopsticks), pudding: num(v.supply_pudding) })),
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
    const empty = `<span class="muted">${esc(t("empty"))}</span>`;
    return { key: "s" + s, html: seatBox(msg, s, nm, { acting: v.to_act.includes(s), status: null, extra: { badge: v.red_belt === s ? RED() : "" }, body: `<div class="tokens">${tokens(v, s, true)}</div>
        ${s === S.mySeat ? "" : `<div class="muted">${esc(t("Belt"))}</div><div class="dice belt-other">${dice || empty}</div>`}
        <div class="muted">${esc(t("Tray"))}</div><div class="dice tray">${tray || empty}</div>` }) };
  });
}

/** A seat's tokens: "Menu 1 · Chopsticks 0 · Pudding 2" (the numbers bold on the table). */
function tokens(v, s, bold) {
  const b = (x) => (bold ? `<b>${num(x)}</b>` : num(x));
  return fillHTML(t("Menu {menu} · Chopsticks {chopsticks} · Pudding {pudding}"), { menu: b(v.menu[s]), chopsticks: b(v.chopsticks[s]), pudding: b(v.pudding[s]) });
}

export function mine(msg, nm) {
  const v = msg.view;
  $("roundPill").textContent = t("Round {round} of {rounds}", { round: num(Math.min(v.round, 2) + 1), rounds: num(3) });
  $("turnPill").textContent = v.is_over ? t("Game over") : t("Cycle {cycle}", { cycle: num(v.cycle + 1) });
  $("waiting").textContent = v.is_over ? "" : v.to_act.includes(S.mySeat) ? t("Your turn!") : waitingFor(v, nm);
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
  $("mineTitle").textContent = myTurn ? t("Your belt — your turn") : t("Your belt");
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
  let hint = myTurn ? t("Select a die to take it; select several to re-roll; one of yours and one on another belt to swap.") + (A.touchOnly() ? "" : " " + t("Keys: 1–9 choose, Enter takes.")) : "";
  if (rsel.length) hint = rsel.map((p) => A.dieRule(v.belts[S.mySeat][p])).join(" ");
  if (other) hint += " " + t("Swap target: {die}", { die: A.dieRule(v.belts[other[0]][other[1]]) });
  $("hint").textContent = hint;
  let c = "";
  const take = chosen("take"), reroll = chosen("reroll"), swap = chosen("swap");
  if (myTurn) {
    c += `<button class="btn" id="takeBtn" ${take ? "" : "disabled"}>${esc(t("Take"))}</button>`;
    c += `<button class="btn secondary" id="rerollBtn" ${reroll ? "" : "disabled"}>${esc(t("Re-roll (menu {n})", { n: num(v.menu[S.mySeat]) }))}</button>`;
    c += `<button class="btn secondary" id="swapBtn" ${swap ? "" : "disabled"}>${esc(t("Swap (chopsticks {n})", { n: num(v.chopsticks[S.mySeat]) }))}</button>`;
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

export function freshRound(v) { return v.cycle === 0 && v.trays.every((x) => x.length === 0); }

const TOKEN = { menu: () => t("menu"), chopsticks: () => t("chopsticks"), pudding: () => t("pudding") };

export function logLine(e, nm) {
  const who = `<b>${esc(nm[e.seat])}</b>`;
  let what;
  if (e.reroll) what = fillHTML(t("{name} re-rolled {before} → {after} (menu)"), { name: who, before: esc(e.before.map(R.faceName).join(", ")), after: `<b>${esc(e.after.map(R.faceName).join(", "))}</b>` });
  else if (e.swap) what = fillHTML(t("{name} swapped {mine} for {other}'s {theirs} (chopsticks)"), { name: who, mine: esc(R.faceName(e.swap)), other: esc(nm[e.with_seat]), theirs: esc(R.faceName(e.got)) });
  else {
    const gained = Object.entries(e.gained || {});
    const n = gained.reduce((a, [, x]) => a + x, 0);
    const g = gained.map(([k, x]) => `+${num(x)} ${TOKEN[k] ? TOKEN[k]() : k}`).join(", ");
    what = g ? fillHTML(t("{name} took {face}"), { name: who, face: esc(R.faceName(e.take)) }) + " " + esc(nt("({tokens} token)", "({tokens} tokens)", n, { tokens: g, n: num(n) }))
      : fillHTML(t("{name} took {face}"), { name: who, face: esc(R.faceName(e.take)) });
  }
  return `<li><span class="log-when">${esc(t("R{round}", { round: num(e.round + 1) }))}</span> ${what}</li>`;
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
  return `<div class="seat" data-seat="${s}"><h3><span>${esc(nm[s])}${v.red_belt === s ? RED() : ""}</span><span class="pill">${esc(nt("{n} pt", "{n} pts", v.scores.totals[s], { n: num(v.scores.totals[s]) }))}</span></h3>
        <div class="tokens">${tokens(v, s, false)}</div>
        <div class="muted">${esc(t("Belt"))}</div><div class="dice">${v.belts[s].map((d) => A.dieHTML(d, { small: true, static: true })).join("") || '<span class="muted">—</span>'}</div>
        <div class="muted">${esc(t("Tray"))}</div><div class="dice tray">${R.trayHTML(v.trays[s] || [], v.on_wasabi[s], marks) || '<span class="muted">—</span>'}</div></div>`;
}

export function columns(v) { return v.players; }

export function replayWhen(v) { return t("Round {round}.", { round: num(Math.min(v.round, 2) + 1) }); }

export function redraw() { if (S.last && S.mySeat != null && !S.last.view.is_over) drawControls(S.last); }

/** An action in words from its structure and the belts it was chosen on (`view`: the view it was
 *  legal in); never the server's English label. */
export function label(a, view) {
  if (!a || !a.kind) return a ? a.text : "";
  const belts = (view && view.belts) || [];
  const me = S.mySeat;
  const face = (seat, p) => (belts[seat] && belts[seat][p] != null ? R.faceName(belts[seat][p]) : t("die {n}", { n: num(p + 1) }));
  if (a.kind === "take") return t("Take {face}", { face: face(me, a.positions[0]) });
  if (a.kind === "reroll") return t("Re-roll {faces}", { faces: a.positions.map((p) => face(me, p)).join(", ") });
  return t("Swap your {mine} for seat {seat}'s {theirs}", { mine: face(me, a.positions[0]), seat: num(a.other_seat + 1), theirs: face(a.other_seat, a.other) });
}
