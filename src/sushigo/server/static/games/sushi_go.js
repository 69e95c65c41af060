// Sushi Go!: the table's info line, seats, hand and pick, scores, log lines, round end and replay seats.
// Picks come from the view's structured `legal` actions ({text, label, cards, dummy}); nothing here reads
// an action's text.
import { $, A, R, S, esc, send, changePick, withdraw, waitingFor, showMine, t, fillHTML, nt, num, list } from "../table/state.js";
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
  const title = (spec && spec.title) || "Sushi Go!";
  const bits = [`<b>${esc(title)}</b> · ${esc(on.length ? t("Variants: {list}", { list: list(on) }) : t("standard rules"))}`];
  if (v.is_over) return bits;
  if (o.dummy) {
    const pile = v.hand_sizes[2] ?? 0;
    let line = nt("Hands swap between you two each turn. The dummy's pile ({n} card) gives its top card to the player in control, who also chooses the dummy's card; control alternates every turn.",
      "Hands swap between you two each turn. The dummy's pile ({n} cards) gives its top card to the player in control, who also chooses the dummy's card; control alternates every turn.", pile, { n: num(pile) });
    if (v.dummy_controller != null) line += " " + t("In control now: {name}.", { name: nm[v.dummy_controller] });
    line += " " + t("Hands: {a} {na}, {b} {nb}, dummy pile {nd}.", { a: nm[0], na: num(v.hand_sizes[0]), b: nm[1], nb: num(v.hand_sizes[1]), nd: num(pile) });
    bits.push(esc(line));
  } else {
    const right = o.pass_both_ways && v.round === 1;
    const order = [...Array(v.players).keys()].map((i) => (right ? (v.players - i) % v.players : i));
    const chain = order.map((s) => nm[s]).concat(nm[order[0]]).join(right ? " ← " : " → ");
    bits.push(esc(right ? t("Round {round}: hands pass right ← ({order})", { round: num(v.round + 1), order: chain }) : t("Round {round}: hands pass left → ({order})", { round: num(v.round + 1), order: chain })));
  }
  return bits;
}

/** Indices of each tableau's cards revealed in the latest turn (to mark them). */
function fresh(v, entries) {
  const out = v.tableaux.map(() => new Set());
  const e = entries[entries.length - 1];
  if (!e || e.end || e.round !== v.round || e.turn !== v.turn - 1) return out;
  const mark = (s, n) => { const tab = v.tableaux[s]; for (let i = Math.max(0, tab.length - n); i < tab.length; i++) out[s].add(i); };
  for (const p of e.plays) mark(p.seat, p.cards.length);
  if (e.dummy) mark(2, 1);
  return out;
}

export function seats(msg, nm) {
  const v = msg.view, marks = fresh(v, S.logEntries);
  return v.tableaux.map((tab, s) => {
    const dummy = isDummy(v, s);
    const acting = !dummy && v.to_act.includes(s);
    const status = dummy ? (v.dummy_controller != null ? t("controlled by {name}", { name: nm[v.dummy_controller] }) : "") : v.is_over ? "" : acting ? t("picking…") : t("picked ✓");
    const body = R.groupTableau(tab, v.on_wasabi[s], marks[s]);
    const line = t("Hand {n} · Puddings {puddings}", { n: num(v.hand_sizes[s] ?? 0), puddings: num(v.puddings[s]) });
    const named = t("{name}'s table", { name: nm[s] });
    return { key: "s" + s, html: seatBox(msg, s, nm, { acting, status, extra: { column: dummy }, body: `<div class="muted">${esc(line)}</div>
        <div class="tableau" aria-label="${esc(named)}">${body || `<span class="muted">${esc(t("No cards yet"))}</span>`}</div>` }) };
  });
}

export function mine(msg, nm) {
  const v = msg.view;
  $("roundPill").textContent = t("Round {round} of {rounds}", { round: num(v.round + 1), rounds: num(3) });
  $("turnPill").textContent = v.is_over ? t("Game over") : t("Turn {turn}", { turn: num(v.turn + 1) });
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
  $("mineTitle").textContent = canAct ? t("Your hand — choose a card") : changing ? t("Your hand — your pick is in") : t("Your hand");
  let hint = "", tap = false;
  if (changing) hint = t("You picked {pick}. Until everyone has picked you may choose again.", { pick: label(pick) });
  else if (!canAct) hint = t("Waiting for the others…");
  else if (ctrl && sel.length >= need) hint = t("Now choose the dummy's card");
  else if (useChop) hint = t("Choose two cards, in order");
  else { tap = true; hint = A.touchOnly() ? t("Tap a card, then Play.") : t("Tap a card (or press its number), then Play. Keys: 1–9 choose, Enter plays."); }
  if (sel.length) hint = sel.map((i) => A.cardRule(hand[i])).join(" ") + " " + (tap ? "" : hint);
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
    if (enabled && canChop) controls += `<label><input type="checkbox" id="chop" ${useChop ? "checked" : ""}> ${esc(t("Use chopsticks (take two cards)"))}</label>`;
    const action = selected();
    let text;
    if (!changing) text = action ? t("Play {pick}", { pick: label(action) }) : t("Play");
    else text = action ? t("Change pick to {pick}", { pick: label(action) }) : t("Choose another card to change");
    if (enabled) controls += `<button class="btn" id="playBtn" ${action ? "" : "disabled"}>${esc(text)}</button>`;
    if (changing) controls += `<button class="btn secondary" id="takeBackBtn">${esc(t("Take back my pick"))}</button>`;
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
  return basicScores(msg, labels, [[t("Puddings (count)"), c]]);
}

export function freshRound(v) { return v.turn === 0 && v.tableaux.every((x) => x.length === 0); }

function play_(p, nm) {
  const cards = p.cards.map((c, i) => (p.on_wasabi[i] ? t("{card} on wasabi", { card: R.cardName(c) }) : R.cardName(c))).join(" + ");
  const who = `<b>${esc(nm[p.seat])}</b>`;
  return p.chopsticks ? fillHTML(t("{name} used chopsticks: {cards}"), { name: who, cards: esc(cards) }) : fillHTML(t("{name} took {cards}"), { name: who, cards: esc(cards) });
}

export function logLine(e, nm) {
  const parts = e.plays.map((p) => play_(p, nm));
  if (e.dummy) {
    const card = R.cardName(e.dummy.card);
    parts.push(fillHTML(t("{dummy} got {card} (chosen by {name})"), { dummy: `<b>${esc(nm[2] || t("Dummy"))}</b>`, card: esc(e.dummy.on_wasabi ? t("{card} on wasabi", { card }) : card), name: esc(nm[e.dummy.by]) }));
  }
  const when = t("R{round} T{turn}", { round: num(e.round + 1), turn: num(e.turn + 1) }) + (e.forced ? " · " + t("last card") : "");
  return `<li><span class="log-when">${esc(when)}</span> ${parts.join(" · ")}</li>`;
}

export function roundEnd(lr, nm) {
  const labels = lr.points.map((_, s) => nm[s] || t("Dummy"));
  const icons = lr.tableaux.map((x) => x.reduce((a, c) => a + (c.startsWith("maki_") ? Number(c.slice(5)) : 0), 0));
  const best = Math.max(...lr.points.map((q) => q.maki));
  const seats = lr.points.map((p, s) => {
    const parts = CATS.filter((c) => p[c]).map((c) => `${R.catLabel(c)} ${num(p[c])}${c === "maki" ? " " + (p.maki >= best ? nt("({n} icon, 1st)", "({n} icons, 1st)", icons[s], { n: num(icons[s]) }) : nt("({n} icon, 2nd)", "({n} icons, 2nd)", icons[s], { n: num(icons[s]) })) : ""}`);
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
  return `<div class="seat" data-seat="${s}"><h3><span>${esc(nm[s])}</span><span class="pill">${esc(nt("{n} pt", "{n} pts", v.scores.totals[s], { n: num(v.scores.totals[s]) }))}</span></h3>
        <div class="muted">${esc(t("Hand"))}</div><div class="cards">${hand.map((c) => A.cardHTML(c, { small: true, static: true })).join("") || '<span class="muted">—</span>'}</div>
        <div class="muted">${esc(t("Table · Puddings {n}", { n: num(v.puddings[s]) }))}</div><div class="tableau">${R.groupTableau(v.tableaux[s], v.on_wasabi[s], marks) || '<span class="muted">—</span>'}</div></div>`;
}

/** Replay: the seats (columns) shown, the dummy included. */
export function columns(v) { return v.tableaux.length; }

/** Replay: where the game stands, under the scores. */
export function replayWhen(v) { return t("Round {round}, turn {turn}.", { round: num(v.round + 1), turn: num(v.turn) }); }

export function redraw() { if (S.last) drawHand(S.last); }

/** A pick in words from its structure ({cards, dummy}): never the server's English label. */
export function label(a) {
  if (!a || !a.cards) return a ? a.text : "";
  const cards = a.cards.map((c) => R.cardName(c)).join(" + ");
  return a.dummy ? t("{cards}, dummy gets {card}", { cards, card: R.cardName(a.dummy) }) : cards;
}

/** Whether this round's hands pass to the right (round 2 with *pass both ways*): the hand slides in from there. */
export function passesRight(v) { return !!(v.options && v.options.pass_both_ways && v.round === 1); }
