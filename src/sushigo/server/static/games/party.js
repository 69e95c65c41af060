// Sushi Go Party!: the menu and house rules, seats, the hand and every decision (a pick with its copy or
// bonus, a spoon's request or gift, a menu's draw, chopsticks' extra card, a takeout box's flips),
// scores, log lines, round end and replay seats. Decisions come from the view's structured `legal`
// actions ({kind, label, card, copies, bonus, name, refs}); nothing here reads an action's text.
import { $, A, R, S, esc, send, withdraw, waitingFor, showMine, t, fillHTML, nt, num } from "../table/state.js";
import { seatBox, signed } from "../table/seats.js";

// Selection: the card chosen, the action chosen for it, the cards chosen to turn face down.
let psel = null, pchoice = null, pkey = "", flipSel = new Set();

export function reset() { psel = null; pchoice = null; flipSel = new Set(); }

/** The chosen action's text (for tests and the console). */
export function choice() { return pchoice && pchoice.text; }

export function info(msg) {
  const v = msg.view;
  const bits = [`<b>${esc(title(v.game))}</b> · ${fillHTML(t("Menu: {menu}"), { menu: R.menuStrip(v.menu) })}`];
  if (!v.is_over) {
    const right = v.options && v.options.pass_both_ways && v.round === 1;
    const round = num(v.round + 1);
    let line = right ? t("Round {round}: hands pass right ←", { round }) : t("Round {round}: hands pass left →", { round });
    line += " · " + nt("{n} card in the deck", "{n} cards in the deck", v.deck_size, { n: num(v.deck_size) });
    if (v.menu.includes("uramaki")) line += " · " + t("{uramaki} places left: {n}", { uramaki: R.tileTitle("uramaki"), n: num(3 - v.uramaki_claimed) });
    bits.push(esc(line));
  }
  bits.push(`<span id="partyRules">${esc(rulesLine(v.game, msg.table.options || {}, redrawInfo))}</span>`);
  return bits;
}

// This module draws whichever game index.js maps to it; the game's name always comes from the message
// being drawn (a view's or a table's ``game``), so nothing here spells it.

/** The game's title in the reader's language (the card catalogue's). */
function title(game) { const spec = A.gameSpec(game); return (spec && spec.title) || game; }

let redrawInfo = () => {};
/** Takes the page's redraws: the info bar is drawn again once the house rules' words arrive. */
export function bind(page) { redrawInfo = page.drawInfo; }

// The words for each rule option come from GET /api/games' ``option_details`` (the lobby's source too),
// fetched once by art.js when the page starts; until they arrive (or if the fetch fails) an option is
// shown by its name and value, and each waiting page redraws once they are here.
let optionInfo = [], asked = false, here = false;
const waiters = new Set();

/** "House rules: …" for the options a Party table of ``game`` has that differ from the recommendation
 *  (§3.10); ``onWords`` is called (once per distinct function) when the words arrive after this call. */
export function rulesLine(game, options, onWords) {
  const keys = Object.keys(options || {});
  if (!keys.length) return t("Recommended rules");
  if (!here && onWords) waiters.add(onWords);
  if (!asked) {
    asked = true;
    A.games().then((data) => {
      const g = (data.games || []).find((x) => x.game === game);
      optionInfo = (g && g.option_details) || [];
      here = true;
      const waiting = [...waiters];
      waiters.clear();
      waiting.forEach((f) => f());
    }).catch(() => { here = true; waiters.clear(); });
  }
  // The catalogue in the reader's language once art.js has it (it is fetched again when the language changes).
  const spec = A.gameSpec(game);
  const details = (spec && spec.option_details) || optionInfo;
  const rules = keys.map((k) => {
    const o = details.find((x) => x.name === k);
    const c = o && o.choices.find((x) => x.value === options[k]);
    return o ? o.label + ": " + (c ? c.label : options[k]) : k.replace(/_/g, " ") + ": " + options[k];
  }).join(" · ");
  return t("House rules: {rules}", { rules });
}

export const seatsClass = "party-seats";

export function seats(msg, nm) {
  const v = msg.view;
  const dessert = R.tileTitle(v.menu[v.menu.length - 1]);
  return [...Array(v.players).keys()].map((s) => {
    const acting = v.to_act.includes(s);
    let status = "";
    if (!v.is_over) {
      if (v.phase === "choose") status = acting ? t("choosing…") : t("chose ✓");
      else if (v.resolving && v.resolving.decider === s) status = t("deciding: {card}", { card: R.cardName(v.resolving.card) });
    }
    const marks = new Set();
    const at = v.phase === "resolve" ? v.turn : v.turn - 1;
    (v.tableaux[s] || []).forEach((c, i) => { if (c.turn === at) marks.add(i); });
    const body = R.partyTableau(v.tableaux[s] || [], marks);
    let line = t("Hand {n} · {dessert} kept {kept}", { n: num(v.hand_sizes[s] ?? 0), dessert, kept: num(v.desserts[s].length) });
    if (v.uramaki_race && v.uramaki_race[s]) line += " · " + nt("{card} {n} pt", "{card} {n} pts", v.uramaki_race[s], { card: R.tileTitle("uramaki"), n: num(v.uramaki_race[s]) });
    const named = t("{name}'s table", { name: nm[s] });
    return { key: "s" + s, html: seatBox(msg, s, nm, { acting, status, body: `<div class="muted">${esc(line)}</div>
        <div class="tableau" aria-label="${esc(named)}">${body || `<span class="muted">${esc(t("No cards yet"))}</span>`}</div>` }) };
  });
}

export function mine(msg, nm) {
  const v = msg.view;
  $("roundPill").textContent = t("Round {round} of {rounds}", { round: num(v.round + 1), rounds: num(3) });
  $("turnPill").textContent = v.is_over ? t("Game over") : t("Turn {turn}", { turn: num(v.turn + 1) });
  let waiting = "";
  if (!v.is_over) {
    if (v.phase === "resolve" && v.resolving) {
      const r = v.resolving, card = R.cardName(r.card), name = nm[r.seat];
      const what = r.ask ? t("Resolving {name}'s {card} (asks for {ask})", { name, card, ask: R.askName(r.ask) }) : t("Resolving {name}'s {card}", { name, card });
      waiting = r.decider === S.mySeat ? t("{what}: waiting for you…", { what }) : t("{what}: waiting for {who}…", { what, who: nm[r.decider] });
    } else waiting = waitingFor(v, nm);
  }
  $("waiting").textContent = waiting;
  if (showMine(v)) drawHand(msg);
}

function drawHand(msg) {
  const v = msg.view, hand = v.hand, legal = v.legal, res = v.resolving;
  const key = [hand.join(","), v.round, v.turn, v.phase, res ? res.card + res.step : ""].join("|");
  if (key !== pkey) { pkey = key; reset(); }
  const deciding = v.phase === "resolve" && legal.length > 0;
  const choosing = v.phase === "choose" && legal.length > 0;
  const flipping = deciding && legal.every((a) => a.kind === "flip");
  const naming = deciding && legal.every((a) => a.kind === "ask" || a.kind === "give");
  const plays = legal.filter((a) => a.kind === "play");
  // What the cards row shows: the hand, or a menu's four drawn cards while its player chooses.
  const fromMenu = deciding && !flipping && !naming && res && res.card.startsWith("menu") && v.menu_drawn;
  const row = fromMenu ? v.menu_drawn : hand;
  const playable = new Set(plays.map((a) => a.card));
  let title = t("Your hand"), hint = "";
  if (choosing) { title = t("Your hand — choose a card"); hint = A.touchOnly() ? t("Tap a card, then Play.") : t("Tap a card, then Play. Keys: 1–9 choose, Enter plays."); }
  else if (msg.pick && v.phase === "choose") { title = t("Your hand — your pick is in"); hint = t("You picked {pick}. Until everyone has picked you may take it back.", { pick: label(msg.pick) }); }
  else if (deciding && res) {
    const card = R.cardName(res.card);
    if (flipping) { title = t("{card}: turn cards face down", { card }); hint = t("Tap your earlier cards to turn them face down (each scores 2), then Confirm."); }
    else if (res.step === "ask") { title = t("{card}: name a card", { card }); hint = t("The first player to your left with it in hand gives it to you and takes the spoon."); }
    else if (naming) { title = t("{card}: choose what to give", { card }); hint = t("The spoon asks for {ask}; you choose which one.", { ask: R.askName(res.ask) }); }
    else if (fromMenu) { title = t("{card}: choose one of the four cards you drew", { card }); hint = t("Only you see these; the rest go back into the deck."); }
    else if (res.card.startsWith("chopsticks")) { title = t("{card}: play an extra card from your hand", { card }); hint = t("The chopsticks go back into your hand."); }
    else { title = t("{card}: choose a card", { card }); }
  } else if (!v.is_over) hint = t("Waiting for the others…");
  $("mineTitle").textContent = title;
  if (psel && !pchoice && choosing) hint = t("Choose how to play it:");
  $("hint").textContent = psel ? A.cardRule(psel) + " " + hint : hint;
  R.patchList($("hand"), row.map((c, i) => ({ key: `${c}#${i}`, html: A.cardHTML(c, { index: i, selected: psel === c && row.indexOf(c) === i, disabled: !playable.has(c) }) })));
  $("hand").onclick = (e) => {
    const b = e.target.closest(".card");
    if (!b || b.disabled) return;
    choose(b.dataset.card);
  };
  let c = "";
  const button = (a, pressed) => `<button class="btn ${pressed ? "" : "secondary"}" data-action="${esc(a.text)}"${pressed == null ? "" : ` aria-pressed="${pressed}"`}>${esc(label(a))}</button>`;
  if (flipping) {
    const refs = (msg.refs && msg.refs[S.mySeat]) || [];
    const can = new Set(legal.flatMap((a) => a.refs));
    // One flat row (no overlapping stacks), so that every card is easy to tap on a phone.
    const mineNow = v.tableaux[S.mySeat] || [];
    const cards = mineNow.map((card, i) => [card, refs[i]]).filter(([, r]) => can.has(r)).map(([card, r]) =>
      A.cardHTML(R.partyIdentity(card) === "face_down" ? "face_down" : card.card, { small: true, index: r, selected: flipSel.has(r), note: card.copies ? "= " + R.cardName(card.copies) : "", cls: "flippable" }));
    c += `<div class="decision" id="decision"><div class="cards" id="flipCards">${cards.join("")}</div></div>`;
    const flip = flipAction(msg);
    const none = t("that set cannot be turned over");
    const confirm = t("Confirm: {choice}", { choice: flip ? label(flip) : none });
    c += `<button class="btn" id="confirmFlip" ${flip ? "" : "disabled"}>${esc(confirm)}</button>`;
  } else if (naming) {
    c += `<div class="decision" id="decision"><div class="choice-list">${legal.map((a) => button(a, null)).join("")}</div></div>`;
  } else if (psel) {
    const options = plays.filter((a) => a.card === psel);
    if (options.length > 1) c += `<div class="decision" id="decision"><div class="choice-list">${options.map((a) => button(a, !!pchoice && a.text === pchoice.text)).join("")}</div></div>`;
  }
  if ((choosing || deciding) && !flipping && !naming) c += `<button class="btn" id="playBtn" ${pchoice ? "" : "disabled"}>${esc(pchoice ? t("Play {pick}", { pick: label(pchoice) }) : t("Play"))}</button>`;
  if (msg.pick && v.phase === "choose" && !choosing) c += `<button class="btn secondary" id="takeBackBtn">${esc(t("Take back my pick"))}</button>`;
  R.setHTML($("controls"), c);
  $("controls").onclick = (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    const action = b.dataset.action && S.last.view.legal.find((a) => a.text === b.dataset.action);
    if (action && naming) send(action.text);
    else if (action) { pchoice = action; drawHand(S.last); }
    else if (b.id === "playBtn" && pchoice) send(pchoice.text);
    else if (b.id === "takeBackBtn") withdraw();
    else if (b.id === "confirmFlip") { const f = flipAction(S.last); if (f) send(f.text); }
    else if (b.classList.contains("card") && b.dataset.index !== undefined) {
      const ref = Number(b.dataset.index);
      if (flipSel.has(ref)) flipSel.delete(ref); else flipSel.add(ref);
      drawHand(S.last);
    }
  };
}

/** The legal flip that turns over the chosen cards. The server lists one flip per distinct set of card
 *  names, so a choice that is not listed as such is matched by the names of its cards. */
function flipAction(msg) {
  const v = msg.view, refs = (msg.refs && msg.refs[S.mySeat]) || [];
  const flips = v.legal.filter((a) => a.kind === "flip");
  const chosen = [...flipSel].sort((a, b) => a - b);
  const exact = flips.find((a) => a.refs.length === chosen.length && a.refs.every((r, i) => r === chosen[i]));
  if (exact) return exact;
  const nameOf = new Map(refs.map((r, i) => [r, R.partyIdentity(v.tableaux[S.mySeat][i])]));
  const names = (list) => list.map((r) => nameOf.get(r)).sort().join(",");
  const want = names(chosen);
  return flips.find((a) => names(a.refs) === want) || null;
}

function choose(card) {
  if (psel === card) { psel = null; pchoice = null; }
  else {
    psel = card;
    const options = S.last.view.legal.filter((a) => a.kind === "play" && a.card === card);
    pchoice = options.length === 1 ? options[0] : null;
  }
  drawHand(S.last);
}

/** Number keys choose the n-th card of the row. */
export function key(n) {
  const b = $("hand").querySelectorAll(".card")[n - 1];
  if (!b || b.disabled) return false;
  choose(b.dataset.card);
  return true;
}

/** Party's score table while the game is on. The rows that are points add up: the finished rounds sum to
 *  *Total* (each seat's "pts"); "Round N so far" is each seat's "+N now" (not banked yet), and the row
 *  under it is *Total* plus that, what the seat would have if the round ended now. The kept desserts
 *  are a count on a row of their own, since they only score when the game ends. */
export function scores(msg, labels) {
  const v = msg.view, rep = v.scores, run = msg.running, n = labels.length;
  const row = (kind, text, cells, quiet = false) => `<tr data-row="${kind}"${quiet ? ' style="color:var(--muted)"' : ""}><td>${esc(text)}</td>${cells.map((c) => `<td>${typeof c === "number" ? num(c) : c}</td>`).join("")}</tr>`;
  let html = `<table class="scores party-scores"><tr><th></th>${labels.map((l) => `<th scope="col">${esc(l)}</th>`).join("")}</tr>`;
  rep.rounds.forEach((r, i) => { html += row("round", t("Round {n}", { n: num(i + 1) }), r); });
  html += `<tr class="total" data-row="total"><th scope="row">${esc(t("Total"))}</th>${rep.totals.map((x) => `<th>${num(x)}</th>`).join("")}</tr>`;
  if (run && run.length === n) {
    const round = num(v.round + 1);
    html += row("so-far", t("Round {round} so far", { round }), run.map(signed), true);
    html += row("if-ended", v.round === 2 ? t("Total if round {round} ended now (desserts score at the end)", { round }) : t("Total if round {round} ended now", { round }), rep.totals.map((x, s) => x + run[s]), true);
  }
  html += row("dessert", t("{dessert} kept (count)", { dessert: R.tileTitle(v.menu[v.menu.length - 1]) }), rep.dessert_counts, true);
  return html + "</table>";
}

export function freshRound(v) { return v.turn === 0 && v.tableaux.every((x) => x.length === 0); }

export function logLine(e, nm) {
  return `<li><span class="log-when">${esc(t("R{round} T{turn}", { round: num(e.round + 1), turn: num(e.turn + 1) }))}</span> ${e.plays.map((p) => R.partyPlay(p, nm)).join(" · ")}</li>`;
}

export function roundEnd(lr, nm) {
  const labels = lr.points.map((_, s) => nm[s]);
  const cats = R.sheetCats(lr.points);
  const seats = lr.points.map((p, s) => {
    const parts = cats.filter((c) => p[c]).map((c) => `${R.catLabel(c)} ${p[c]}`);
    return R.endSeat(s, labels[s], p, lr.tableaux[s].length, R.partyTableau(lr.tableaux[s]), parts);
  }).join("");
  return `<div class="seats end-seats party-seats">${seats}</div>${R.categoryTable(lr.points, labels, cats)}`;
}

export function replaySeat(f, v, s, nm) {
  const last = f.log.find((e) => !e.end);
  const hand = (f.hands && f.hands[s]) || [];
  const marks = new Set();
  (v.tableaux[s] || []).forEach((c, i) => { if (last && last.plays && c.turn === last.turn) marks.add(i); });
  return `<div class="seat" data-seat="${s}"><h3><span>${esc(nm[s])}</span><span class="pill">${esc(nt("{n} pt", "{n} pts", v.scores.totals[s], { n: num(v.scores.totals[s]) }))}</span></h3>
        <div class="muted">${esc(t("Hand"))}</div><div class="cards">${hand.map((c) => A.cardHTML(c, { small: true, static: true })).join("") || '<span class="muted">—</span>'}</div>
        <div class="muted">${esc(t("Table · {dessert} kept {n}", { dessert: R.tileTitle(v.menu[v.menu.length - 1]), n: num(v.desserts[s].length) }))}</div><div class="tableau">${R.partyTableau(v.tableaux[s] || [], marks) || '<span class="muted">—</span>'}</div></div>`;
}

export function columns(v) { return v.players; }

export function replayWhen(v) { return t("Round {round}, turn {turn}.", { round: num(v.round + 1), turn: num(v.turn) }); }

/** Replay: the menu and house rules above the frames. */
export function replayInfo(table, frames, redraw) {
  const menu = table.menu || (frames[0] && frames[0].view.menu) || [];
  const game = (frames[0] && frames[0].view.game) || table.game;
  return `<div><b>${esc(title(game))}</b> · ${fillHTML(t("Menu: {menu}"), { menu: R.menuStrip(menu) })}</div><div id="partyRules">${esc(rulesLine(game, table.options || {}, redraw))}</div>`;
}

export function redraw() { if (S.last) drawHand(S.last); }

/** A decision in words from its structure ({kind, card, copies, wasabi, bonus, name, refs}); never the
 *  server's English label. */
export function label(a) {
  if (!a || !a.kind) return a ? a.text : "";
  if (a.kind === "ask") return t("Ask for {card}", { card: R.askName(a.name) });
  if (a.kind === "give") return t("Give {card}", { card: R.cardName(a.card) });
  if (a.kind === "flip") return a.refs.length ? nt("Turn {n} card face down", "Turn {n} cards face down", a.refs.length, { n: num(a.refs.length) }) : t("Turn nothing over");
  let text = a.copies ? t("{card} copying {copied}", { card: R.cardName(a.card), copied: R.cardName(a.copies) }) : R.cardName(a.card);
  if (a.wasabi === false) text = t("{play} (not on your wasabi)", { play: text });
  if (a.bonus && a.bonus.length) text = t("{play}, and use {bonus} this turn", { play: text, bonus: a.bonus.map((b) => R.cardName(b)).join(" + ") });
  return text;
}
