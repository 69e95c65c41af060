// Sushi Go!: the table's info line, seats, hand and pick, scores, log lines, round end and replay seats.
// Picks come from the view's structured `legal` actions ({text, label, cards, dummy}); nothing here reads
// an action's text.
import { $, A, R, S, esc, send, changePick, withdraw, waitingFor, showMine } from "../table/state.js";
import { seatBox } from "../table/seats.js";
import { basicScores } from "../table/scores.js";

const CATS = ["maki", "tempura", "sashimi", "dumpling", "nigiri", "soy_sauce"];

// Selection: hand indices in order, the dummy's card, chopsticks; the hand they belong to; and the
// picks this hand allowed (kept while a pick is pending, so that it can be changed).
let sel = [], dummySel = null, useChop = false, handKey = "", choices = [], seenPick = null;

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const isDummy = (v, s) => v.options.dummy && s === 2;

export function reset() { sel = []; dummySel = null; useChop = false; }

export function info(msg, nm) {
  const v = msg.view, o = v.options || {};
  // The variants turned on, in the words of the game's options (GET /api/games, read by art.js).
  const spec = A.gameSpec(v.game), details = (spec && spec.option_details) || [];
  const on = Object.keys(o).filter((k) => o[k] === true).map((k) => { const d = details.find((x) => x.name === k); return d ? d.label : k.replace(/_/g, " "); });
  const bits = [`<b>Sushi Go!</b> · ${on.length ? "Variants: " + esc(on.join(", ")) : "standard rules"}`];
  if (v.is_over) return bits;
  if (o.dummy) {
    bits.push(`Hands swap between you two each turn. The dummy's pile (${v.hand_sizes[2] ?? 0} cards) gives its top card to the player in control, who also chooses the dummy's card; control alternates every turn${v.dummy_controller != null ? ` (now: ${esc(nm[v.dummy_controller])})` : ""}. Hands: ${esc(nm[0])} ${v.hand_sizes[0]}, ${esc(nm[1])} ${v.hand_sizes[1]}, dummy pile ${v.hand_sizes[2]}.`);
  } else {
    const right = o.pass_both_ways && v.round === 1;
    const order = [...Array(v.players).keys()].map((i) => (right ? (v.players - i) % v.players : i));
    bits.push(`Round ${v.round + 1}: hands pass ${right ? "right ←" : "left →"} (${order.map((s) => esc(nm[s])).concat(esc(nm[order[0]])).join(right ? " ← " : " → ")})`);
  }
  return bits;
}

/** Indices of each tableau's cards revealed in the latest turn (to mark them). */
function fresh(v, entries) {
  const out = v.tableaux.map(() => new Set());
  const e = entries[entries.length - 1];
  if (!e || e.end || e.round !== v.round || e.turn !== v.turn - 1) return out;
  const mark = (s, n) => { const t = v.tableaux[s]; for (let i = Math.max(0, t.length - n); i < t.length; i++) out[s].add(i); };
  for (const p of e.plays) mark(p.seat, p.cards.length);
  if (e.dummy) mark(2, 1);
  return out;
}

export function seats(msg, nm) {
  const v = msg.view, marks = fresh(v, S.logEntries);
  return v.tableaux.map((t, s) => {
    const dummy = isDummy(v, s);
    const acting = !dummy && v.to_act.includes(s);
    const status = dummy ? (v.dummy_controller != null ? `controlled by ${nm[v.dummy_controller]}` : "") : v.is_over ? "" : acting ? "picking…" : "picked ✓";
    const body = R.groupTableau(t, v.on_wasabi[s], marks[s]);
    return { key: "s" + s, html: seatBox(msg, s, nm, { acting, status, extra: { column: dummy }, body: `<div class="muted">Hand ${v.hand_sizes[s] ?? 0} · Puddings ${v.puddings[s]}</div>
        <div class="tableau" aria-label="${esc(nm[s])}'s table">${body || '<span class="muted">No cards yet</span>'}</div>` }) };
  });
}

export function mine(msg, nm) {
  const v = msg.view;
  $("roundPill").textContent = `Round ${v.round + 1} of 3`;
  $("turnPill").textContent = v.is_over ? "Game over" : `Turn ${v.turn + 1}`;
  $("waiting").textContent = v.is_over ? "" : waitingFor(v, nm);
  if (showMine(v)) drawHand(msg);
}

function drawHand(msg) {
  const v = msg.view, hand = v.hand, legal = v.legal;
  const key = hand.join(",") + "|" + v.round + "|" + v.turn;
  if (key !== handKey) { handKey = key; reset(); choices = []; seenPick = null; }
  if (legal.length) choices = legal;
  const pick = msg.pick;
  const canAct = legal.length > 0;
  const changing = !!pick && !v.is_over;
  const canChop = choices.some((a) => a.cards.length === 2);
  const ctrl = choices.some((a) => a.dummy != null);
  // A pending pick made with chopsticks shows the box ticked (until the player changes it).
  if (pick && pick.text !== seenPick) { seenPick = pick.text; if (!sel.length) useChop = pick.cards.length === 2; }
  if (!pick) seenPick = null;
  if (!canChop) useChop = false;
  const need = useChop ? 2 : 1;
  // Mark the pending pick's cards in the hand (by occurrence): each card its place in the pick's order.
  const pickedAt = new Map();
  if (pick) {
    const used = new Set();
    hand.forEach((c, i) => {
      const k = pick.cards.findIndex((x, j) => x === c && !used.has(j));
      if (k >= 0) { used.add(k); pickedAt.set(i, pick.cards.length > 1 ? String(k + 1) : "✓"); }
    });
    if (pick.dummy) { const i = hand.findIndex((c, j) => c === pick.dummy && !pickedAt.has(j)); if (i >= 0) pickedAt.set(i, "D"); }
  }
  $("mineTitle").textContent = canAct ? "Your hand — choose a card" : changing ? "Your hand — your pick is in" : "Your hand";
  let hint = "";
  if (changing) hint = `You picked ${pick.label}. Until everyone has picked you may choose again.`;
  else if (!canAct) hint = "Waiting for the others…";
  else if (ctrl && sel.length >= need) hint = "Now choose the dummy's card";
  else if (useChop) hint = "Choose two cards, in order";
  else hint = A.touchOnly() ? "Tap a card, then Play." : "Tap a card (or press its number), then Play. Keys: 1–9 choose, Enter plays.";
  if (sel.length) hint = sel.map((i) => A.cardRule(hand[i])).join(" ") + " " + (hint.startsWith("Tap") ? "" : hint);
  $("hint").textContent = hint;
  const enabled = canAct || (changing && choices.length > 0);
  R.patchList($("hand"), hand.map((c, i) => {
    const pos = sel.indexOf(i);
    const badge = pos >= 0 ? String(pos + 1) : dummySel === i ? "D" : pickedAt.get(i) || "";
    return { key: `${c}#${i}`, html: A.cardHTML(c, { index: i, selected: pos >= 0 || dummySel === i, picked: pickedAt.has(i) && !sel.length, badge: badge && `${badge}`, disabled: !enabled }) };
  }));
  $("hand").onclick = (e) => {
    const b = e.target.closest(".card");
    if (!b || b.disabled) return;
    choose(Number(b.dataset.index));
  };
  let controls = "";
  if (enabled || changing) {
    if (enabled && canChop) controls += `<label><input type="checkbox" id="chop" ${useChop ? "checked" : ""}> Use chopsticks (take two cards)</label>`;
    const action = selected();
    if (enabled) controls += `<button class="btn" id="playBtn" ${action ? "" : "disabled"}>${changing ? (action ? "Change pick to" : "Choose another card to change") : "Play"} ${esc(action ? action.label : "")}</button>`;
    if (changing) controls += `<button class="btn secondary" id="takeBackBtn">Take back my pick</button>`;
  }
  R.setHTML($("controls"), controls);
  if ($("chop")) $("chop").onchange = (e) => { useChop = e.target.checked; if (!useChop) sel = sel.slice(0, 1); drawHand(S.last); };
  if ($("playBtn")) $("playBtn").onclick = play;
  if ($("takeBackBtn")) $("takeBackBtn").onclick = withdraw;
}

/** The pick the selection makes once complete (one card, two with chopsticks, and the dummy's card
 *  when the seat controls the dummy), if it is one of this hand's picks. */
function selected() {
  const hand = S.last.view.hand;
  const ctrl = choices.some((a) => a.dummy != null);
  if (sel.length !== (useChop ? 2 : 1) || (ctrl && dummySel == null)) return null;
  const cards = sel.map((i) => hand[i]);
  const dummy = dummySel == null ? null : hand[dummySel];
  return choices.find((a) => same(a.cards, cards) && a.dummy === dummy) || null;
}

function choose(i) {
  const ctrl = choices.some((a) => a.dummy != null);
  const need = useChop ? 2 : 1;
  const at = sel.indexOf(i);
  if (at >= 0) sel.splice(at, 1);
  else if (dummySel === i) dummySel = null;
  else if (ctrl && sel.length >= need) dummySel = i;
  else if (sel.length < need) sel.push(i);
  else sel = [i];
  drawHand(S.last);
}

function play() {
  const action = selected();
  if (!action) return;
  if (S.last.pick) {
    if (action.text === S.last.pick.text) { reset(); drawHand(S.last); return; }
    changePick(action.text);
  } else send(action.text);
}

/** Number keys choose the n-th card of the hand. */
export function key(n) {
  const v = S.last.view;
  if (!v.hand || n > v.hand.length || !$("hand").querySelector(".card:not([disabled])")) return false;
  choose(n - 1);
  return true;
}

export function scores(msg, labels) {
  const c = msg.view.scores.pudding_counts;
  return basicScores(msg, labels, [["Puddings (count)", c]]);
}

export function freshRound(v) { return v.turn === 0 && v.tableaux.every((t) => t.length === 0); }

function play_(p, nm) {
  const cards = p.cards.map((c, i) => R.cardName(c) + (p.on_wasabi[i] ? " on wasabi" : "")).join(" + ");
  return `<b>${esc(nm[p.seat])}</b> ${p.chopsticks ? "used chopsticks: " : "took "}${esc(cards)}`;
}

export function logLine(e, nm) {
  const parts = e.plays.map((p) => play_(p, nm));
  if (e.dummy) parts.push(`<b>Dummy</b> got ${esc(R.cardName(e.dummy.card))}${e.dummy.on_wasabi ? " on wasabi" : ""} (chosen by ${esc(nm[e.dummy.by])})`);
  return `<li><span class="log-when">R${e.round + 1} T${e.turn + 1}${e.forced ? " · last card" : ""}</span> ${parts.join(" · ")}</li>`;
}

export function roundEnd(lr, nm) {
  const labels = lr.points.map((_, s) => nm[s] || "Dummy");
  const icons = lr.tableaux.map((t) => t.reduce((a, c) => a + (c.startsWith("maki_") ? Number(c.slice(5)) : 0), 0));
  const best = Math.max(...lr.points.map((q) => q.maki));
  const seats = lr.points.map((p, s) => {
    const parts = CATS.filter((c) => p[c]).map((c) => `${R.catLabel(c)} ${p[c]}${c === "maki" ? ` (${icons[s]} icons, ${p.maki >= best ? "1st" : "2nd"})` : ""}`);
    return R.endSeat(s, labels[s], p, lr.tableaux[s].length, R.groupTableau(lr.tableaux[s], lr.on_wasabi[s]), parts);
  }).join("");
  return `<div class="seats end-seats">${seats}</div>${R.categoryTable(lr.points, labels, CATS)}`;
}

/** The replay's seat: every hand is shown once the game is over. */
export function replaySeat(f, v, s, nm) {
  const last = f.log.find((e) => !e.end);
  const marks = new Set();
  if (last && last.plays) {
    const p = last.plays.find((q) => q.seat === s);
    const n = p ? p.cards.length : last.dummy && s === 2 ? 1 : 0;
    for (let i = v.tableaux[s].length - n; i < v.tableaux[s].length; i++) marks.add(i);
  }
  const hand = (f.hands && f.hands[s]) || [];
  return `<div class="seat" data-seat="${s}"><h3><span>${esc(nm[s])}</span><span class="pill">${v.scores.totals[s]} pts</span></h3>
        <div class="muted">Hand</div><div class="cards">${hand.map((c) => A.cardHTML(c, { small: true, static: true })).join("") || '<span class="muted">—</span>'}</div>
        <div class="muted">Table · Puddings ${v.puddings[s]}</div><div class="tableau">${R.groupTableau(v.tableaux[s], v.on_wasabi[s], marks) || '<span class="muted">—</span>'}</div></div>`;
}

/** Replay: the seats (columns) shown, the dummy included. */
export function columns(v) { return v.tableaux.length; }

/** Replay: where the game stands, under the scores. */
export function replayWhen(v) { return `Round ${v.round + 1}, turn ${v.turn}.`; }

export function redraw() { if (S.last) drawHand(S.last); }

/** Whether this round's hands pass to the right (round 2 with *pass both ways*): the hand slides in from there. */
export function passesRight(v) { return !!(v.options && v.options.pass_both_ways && v.round === 1); }
