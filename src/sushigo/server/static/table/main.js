// The table page: connects to the table's WebSocket, draws the receiver's view, sends actions.
// The server decides legality; the page matches a selection to one of the view's structured `legal`
// actions and sends its text. Drawing is keyed (render.js patchList / setHTML): nodes that did not
// change are never rebuilt, so a `presence` message or another seat's move never swallows a click in
// progress. The game's own parts come from its module (games/index.js), chosen once per view.
import { $, A, R, S, seatNames, send } from "./state.js";
import { start } from "./connection.js";
import { drawScores } from "./scores.js";
import { maybeRoundEnd, renderFinal } from "./roundend.js";
import { addChat, drawSeatLink, seatLink, setupChat } from "./chat.js";
import { setupKeys } from "./keys.js";
import { onAck, onChat, onState, setupAlive } from "./alive.js";
import { GAMES, gameOf, logLine } from "../games/index.js";

let game = null;

function render(msg) {
  const prev = S.last;
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
  R.setHTML($("seatInfo"), S.mySeat == null ? "You are watching." : `You play seat ${S.mySeat + 1}.`);
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
    const who = `Waiting for ${free} more player${free === 1 ? "" : "s"} to join…`;
    $("waiting").textContent = who;
    $("inviteWho").textContent = who + " Send them this link:";
    $("mine").classList.add("hidden");
  }
  $("chatForm").classList.toggle("hidden", msg.table.status === "finished" || msg.view.is_over);
  maybeRoundEnd(msg, game, seatNames(msg));
  if (msg.view.is_over) renderFinal(msg, game, seatNames(msg));
  onState(prev, msg, game);
}

/** The score table's column heads: a seat's name for each column (Sushi Go!'s dummy included). */
function labels(msg) { return seatNames(msg).slice(0, game.columns(msg.view)); }

function drawSpectators(table) { R.setHTML($("spectators"), table.spectators ? `${table.spectators} watching` : ""); }

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
setupKeys(() => game);
setupAlive();
setInterval(() => {
  if (S.timerEnd == null || !S.last || S.last.view.is_over) { $("timerPill").classList.add("hidden"); return; }
  const left = Math.max(0, Math.round((S.timerEnd - Date.now()) / 1000));
  $("timerPill").textContent = `Timer ${left}s`;
  $("timerPill").classList.remove("hidden");
}, 500);

// For tests and the browser console: the page's state by its old global names.
for (const [name, get] of Object.entries({ last: () => S.last, logEntries: () => S.logEntries, mySeat: () => S.mySeat, pchoice: () => (game && game.choice ? game.choice() : null) })) {
  Object.defineProperty(window, name, { get, configurable: true });
}
window.seatLink = seatLink;
window.send = send;

// The first draw waits for the card catalogues (GET /api/games, fetched by art.js as the page starts);
// if they are slow the page draws with plain names after a few seconds and again when they come.
A.ready().then(() => {
  A.onCatalogue(() => {
    if (!S.last) return;
    const left = S.timerEnd == null ? null : Math.max(0, (S.timerEnd - Date.now()) / 1000);
    render({ ...S.last, deadline: left, log: null });
    drawLog(S.last);
  });
  start({
    welcome: () => { $("game").classList.remove("hidden"); drawSeatLink(); },
    state: render,
    picked,
    presence,
    chat: (lines) => { addChat(lines); onChat(lines); },
    ack: (msg) => { if (game) game.reset(); onAck(msg); },
  });
});
