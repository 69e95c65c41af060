// The round-end view (a dialog with the round's final tables, closing by itself) and the final one.
import { $, R, S, esc, list, nt, num, t } from "./state.js";
import { countUp } from "./alive.js";
import { bindFinal } from "./lifecycle.js";

const ROUND_END_SECONDS = 12;
let endTimer = null;

/** Shows the last round's final tables when a round has just ended (also after a reconnect). */
export function maybeRoundEnd(msg, game, nm) {
  const lr = msg.last_round, v = msg.view;
  if (!lr || v.is_over) return;
  const seen = Number(sessionStorage.getItem(S.endKey) ?? -1);
  if (!game.freshRound(v) || lr.round <= seen) return;
  sessionStorage.setItem(S.endKey, String(lr.round));
  drawRoundEnd(lr, game, nm);
  $("roundEnd").classList.remove("hidden");
  countUp($("roundEndBody").querySelectorAll(".end-seat h3 .pill, tr.total th:not([scope])"));
  left = ROUND_END_SECONDS;
  const tick = () => { $("endCount").textContent = `(${num(left)})`; if (left-- <= 0) closeRoundEnd(); };
  clearInterval(endTimer); tick(); endTimer = setInterval(tick, 1000);
  $("continueBtn").focus();
}

let left = 0;

function drawRoundEnd(lr, game, nm) {
  $("roundEndBody").innerHTML = `<div class="bar"><h2 id="roundEndTitle">${esc(t("Round {n} is over", { n: num(lr.round + 1) }))}</h2><button class="btn" id="continueBtn">${esc(t("Continue"))} <span id="endCount">(${num(Math.max(left, 0))})</span></button></div>${game.roundEnd(lr, nm)}`;
  $("continueBtn").onclick = closeRoundEnd;
}

/** Draws the open round-end or final dialog again (the language changed), keeping its countdown. */
export function redrawDialogs(msg, game, nm) {
  if (!$("roundEnd").classList.contains("hidden") && msg.last_round) drawRoundEnd(msg.last_round, game, nm);
  if ($("final").dataset.done === "1" && msg.final) {
    const open = !$("final").classList.contains("hidden");
    $("finalBody").innerHTML = finalHTML(msg, game, nm);
    $("closeFinal").onclick = () => $("final").classList.add("hidden");
    bindFinal();
    $("final").classList.toggle("hidden", !open);
  }
}

export function closeRoundEnd() { clearInterval(endTimer); $("roundEnd").classList.add("hidden"); }

/** The game-over dialog: the winners, the final table and the last round's tables. */
function finalHTML(msg, game, nm) {
  const final = msg.final;
  const labels = final.totals.map((_, s) => nm[s]);
  const winners = final.winners || [];
  const me = S.mySeat != null && winners.includes(S.mySeat);
  const others = winners.filter((s) => s !== S.mySeat).map((s) => nm[s]);
  let line;
  if (me && others.length) line = t("You and {names} win!", { names: list(others) });
  else if (me) line = t("You win!");
  else line = nt("{names} wins!", "{names} win!", winners.length, { names: list(others) });
  const lr = msg.last_round;
  const id = encodeURIComponent(S.tableId);
  // "Play again" (a seated player) and an invitation to the next table come first, where a phone shows them.
  const again = S.mySeat == null ? "" : `<div class="final-invite hidden banner panel"><p id="finalInvite"></p><div class="row"><button class="btn" type="button" id="finalAccept">${esc(t("Accept"))}</button><button class="btn secondary" type="button" id="finalDecline">${esc(t("Decline"))}</button></div></div>` +
    `<div class="controls"><button class="btn" type="button" id="playAgain">${esc(t("Play again"))}</button><span class="msg" id="playAgainMsg" role="alert"></span></div>`;
  return `<h2 id="finalTitle">${esc(t("Game over"))}</h2><p class="winner" id="winnerLine">${esc(line)}</p>${again}
    <h3>${esc(t("Final scores"))}</h3>${R.finalTable(final, labels)}
    ${lr ? `<h3>${esc(t("Round {round}: the final tables", { round: num(lr.round + 1) }))}</h3>${game.roundEnd(lr, nm)}` : ""}
    <div class="controls"><a class="btn" href="/replay/${id}">${esc(t("Replay"))}</a><a class="btn" href="/api/tables/${id}/record" download>${esc(t("Download record"))}</a><a class="btn" href="/">${esc(t("Lobby"))}</a><button class="btn secondary" id="closeFinal">${esc(t("Close"))}</button></div>`;
}

export function renderFinal(msg, game, nm) {
  const html = finalHTML(msg, game, nm);
  if ($("final").dataset.done !== "1") {
    $("finalBody").innerHTML = html;
    $("final").dataset.done = "1";
    $("final").classList.remove("hidden");
    closeRoundEnd();
    $("closeFinal").onclick = () => $("final").classList.add("hidden");
    bindFinal();
  }
  $("mine").classList.add("hidden");
  R.setHTML($("controls"), "");
}
