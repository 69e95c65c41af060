// The table page: connects to the table's WebSocket, draws the receiver's view, sends actions.
// The server decides legality; the page matches a selection to one of the view's structured `legal`
// actions and sends its text. Drawing is keyed (render.js patchList / setHTML): nodes that did not
// change are never rebuilt, so a `presence` message or another seat's move never swallows a click in
// progress. The game's own parts come from its module (games/index.js), chosen once per view.
import { $, A, R, S, seatNames, send, t, nt, num, esc } from "./state.js";
import { start } from "./connection.js";
import { drawScores } from "./scores.js";
import { maybeRoundEnd, redrawDialogs, renderFinal } from "./roundend.js";
import { addChat, drawSeatLink, seatLink, setupChat } from "./chat.js";
import { setupKeys } from "./keys.js";
import { onAck, onChat, onState, setupAlive } from "./alive.js";
import { GAMES, gameOf, logLine } from "../games/index.js";
import { cancelled, drawActions, moved, onRematch, setupLifecycle } from "./lifecycle.js";

let game = null;

function render(msg) {
  const prev = S.last;
  if (prev && prev.state_id !== msg.state_id) S.prevView = prev.view;
  S.last = msg;
  game = gameOf(msg.view);
  A.useGame(msg.view.game);  // card names and rules from this game's catalogue
  document.body.dataset.game = msg.view.game;
  if (msg.log) {
    if (msg.log.start <= S.logEntries.length) S.logEntries = S.logEntries.slice(0, msg.log.start).concat(msg.log.entries);
    drawLog(msg);
  }
  if (prev && prev.state_id !== msg.state_id && msg.view.legal.length === 0 && !msg.pick) game.reset();
  S.timerEnd = msg.deadline == null ? null : Date.now() + msg.deadline * 1000;
  R.setHTML($("seatInfo"), esc(S.mySeat == null ? t("You are watching.") : t("You play seat {seat}.", { seat: num(S.mySeat + 1) })));
  drawInfo(msg);
  drawSeats(msg);
  drawSpectators(msg.table);
  game.mine(msg, seatNames(msg));
  R.setHTML($("scores"), drawScores(msg, game, labels(msg)));
  // Waiting for a friend: no hand yet, the invite link on top, and who the table waits for.
  const open = msg.table.status === "open";
  $("invitePanel").classList.toggle("hidden", !open);
  if (open) {
    const free = msg.table.seats.filter((s) => s.kind === "human" && !s.taken).length;
    const who = nt("Waiting for {n} more player to join…", "Waiting for {n} more players to join…", free, { n: num(free) });
    $("waiting").textContent = who;
    $("inviteWho").textContent = who + " " + t("Send them this link:");
    $("mine").classList.add("hidden");
  }
  $("chatForm").classList.toggle("hidden", msg.table.status === "finished" || msg.view.is_over);
  drawActions(msg);
  $("ratedPill").classList.toggle("hidden", !msg.table.rated);
  $("ratedPill").textContent = t("rated");
  if (msg.table.status === "finished" && msg.table.rematch) onRematch({ table: msg.table.rematch });
  maybeRoundEnd(msg, game, seatNames(msg));
  if (msg.view.is_over) renderFinal(msg, game, seatNames(msg));
  onState(prev, msg, game);
}

/** The score table's column heads: a seat's name for each column (Sushi Go!'s dummy included). */
function labels(msg) { return seatNames(msg).slice(0, game.columns(msg.view)); }

/** What the turn timer played, in words: the ack's structured ``choice`` named by the game (Sushi Roll
 *  names dice from the belts it was chosen on: the view before this turn's). */
function timerLabel(msg) {
  if (!msg || msg.by !== "timer" || !game) return null;
  const choice = msg.choice || (S.prevView && S.prevView.legal.find((a) => a.text === msg.action));
  return choice && game.label ? game.label(choice, S.prevView) : null;
}

function drawSpectators(table) {
  const n = table.spectators;
  R.setHTML($("spectators"), n ? esc(nt("{n} watching", "{n} watching", n, { n: num(n) })) : "");
}

function drawInfo(msg) { R.setHTML($("info"), game.info(msg, seatNames(msg)).map((b) => `<div>${b}</div>`).join("")); }

function drawSeats(msg) {
  $("seats").classList.toggle("party-seats", game.seatsClass === "party-seats");
  R.patchList($("seats"), game.seats(msg, seatNames(msg)));
}

function drawLog(msg) {
  const nm = seatNames(msg), g = gameOf(msg.view), list = $("log");
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
  R.patchList(list, S.logEntries.map((e, i) => ({ key: "l" + i, html: logLine(g, e, nm) })));
  if (atEnd) list.scrollTop = list.scrollHeight;
}

/** Someone else picked (or took a pick back) inside the turn: only who is still choosing changed.
 *  The turn's state_id stays ours to act on; the log and the timer carry on as they were. */
function picked(msg) {
  if (!S.last) return;
  const left = S.timerEnd == null ? null : Math.max(0, (S.timerEnd - Date.now()) / 1000);
  render({ ...S.last, view: { ...S.last.view, to_act: msg.to_act }, deadline: left, log: null });
}

function presence(msg) {
  if (!S.last) return;
  S.last.table.seats.forEach((s, i) => { s.connected = !!msg.connected[i]; s.standin = !!msg.standin[i]; });
  S.last.table.spectators = msg.spectators;
  drawSeats(S.last);
  drawSpectators(S.last.table);
}

// Redraws a game module may ask for (Party: the house rules' words arrived; Roll: a swap target chosen).
const page = {
  drawInfo: () => { if (S.last) drawInfo(S.last); },
  drawSeats: () => { if (S.last) { drawSeats(S.last); game.redraw(); } },
};
for (const g of Object.values(GAMES)) if (g.bind) g.bind(page);

setupChat();
setupLifecycle();
setupKeys(() => game);
setupAlive();
setInterval(() => {
  if (S.timerEnd == null || !S.last || S.last.view.is_over) { $("timerPill").classList.add("hidden"); return; }
  const left = Math.max(0, Math.round((S.timerEnd - Date.now()) / 1000));
  $("timerPill").textContent = t("Timer {seconds} s", { seconds: num(left) });
  $("timerPill").classList.remove("hidden");
}, 500);

// For tests and the browser console: the page's state by its old global names.
for (const [name, get] of Object.entries({ last: () => S.last, logEntries: () => S.logEntries, mySeat: () => S.mySeat, pchoice: () => (game && game.choice ? game.choice() : null) })) {
  Object.defineProperty(window, name, { get, configurable: true });
}
window.seatLink = seatLink;
window.send = send;

/** Draws the page again from the last state message (new card names, a new language): the seat, the
 *  selection in progress (kept by the game's module) and the log stay as they are. */
function redrawAll() {
  if (!S.last) return;
  const left = S.timerEnd == null ? null : Math.max(0, (S.timerEnd - Date.now()) / 1000);
  render({ ...S.last, deadline: left, log: null });
  drawLog(S.last);
  redrawDialogs(S.last, game, seatNames(S.last));
}

// The language switch in the header; a new language draws everything again without a reload (art.js
// fetches the card catalogue in that language and calls its listeners again, which redraws once more).
const I = window.I18N;
if (I && I.mountSwitch) I.mountSwitch($("langSwitch"));
window.addEventListener("sushigo:lang", () => { addChat([], true); redrawAll(); });
window.addEventListener("sushigo:catalogue", redrawAll);  // the cards' names in the new language

// The first draw waits for the card catalogues (GET /api/games, fetched by art.js as the page starts)
// and the page's words (i18n.js); if they are slow the page draws with plain names after a few seconds
// and again when they come.
Promise.all([A.ready(), I && I.ready ? I.ready.catch(() => null) : null]).then(() => {
  A.onCatalogue(redrawAll);
  start({
    welcome: () => { $("game").classList.remove("hidden"); drawSeatLink(); },
    state: render,
    picked,
    presence,
    chat: (lines) => { addChat(lines); onChat(lines); },
    ack: (msg) => { if (game) game.reset(); onAck(msg, timerLabel(msg)); },
    moved: (reconnect) => { moved(reconnect); if (S.last) redrawAll(); },
    rematch: onRematch,
    cancelled,
  });
});
