// The round-end view (a dialog with the round's final tables, closing by itself) and the final one.
import { $, R, S, esc } from "./state.js";
import { countUp } from "./alive.js";

const ROUND_END_SECONDS = 12;
let endTimer = null;

/** Shows the last round's final tables when a round has just ended (also after a reconnect). */
export function maybeRoundEnd(msg, game, nm) {
  const lr = msg.last_round, v = msg.view;
  if (!lr || v.is_over) return;
  const seen = Number(sessionStorage.getItem(S.endKey) ?? -1);
  if (!game.freshRound(v) || lr.round <= seen) return;
  sessionStorage.setItem(S.endKey, String(lr.round));
  $("roundEndBody").innerHTML = `<div class="bar"><h2 id="roundEndTitle">Round ${lr.round + 1} is over</h2><button class="btn" id="continueBtn">Continue <span id="endCount"></span></button></div>${game.roundEnd(lr, nm)}`;
  $("roundEnd").classList.remove("hidden");
  countUp($("roundEndBody").querySelectorAll(".end-seat h3 .pill, tr.total th:not([scope])"));
  let left = ROUND_END_SECONDS;
  const tick = () => { $("endCount").textContent = `(${left})`; if (left-- <= 0) closeRoundEnd(); };
  clearInterval(endTimer); tick(); endTimer = setInterval(tick, 1000);
  $("continueBtn").onclick = closeRoundEnd;
  $("continueBtn").focus();
}

export function closeRoundEnd() { clearInterval(endTimer); $("roundEnd").classList.add("hidden"); }

/** The game-over dialog: the winners, the final table and the last round's tables. */
export function renderFinal(msg, game, nm) {
  const final = msg.final;
  const labels = final.totals.map((_, s) => nm[s]);
  const winners = final.winners || [];
  const win = winners.map((s) => nm[s]).join(" and ");
  const me = S.mySeat != null && winners.includes(S.mySeat);
  const lr = msg.last_round;
  const id = encodeURIComponent(S.tableId);
  const html = `<h2 id="finalTitle">Game over</h2><p class="winner" id="winnerLine">${me ? "You win!" : `${esc(win)} win${winners.length === 1 ? "s" : ""}!`}</p>
    <h3>Final scores</h3>${R.finalTable(final, labels)}
    ${lr ? `<h3>Round ${lr.round + 1}: the final tables</h3>${game.roundEnd(lr, nm)}` : ""}
    <div class="controls"><a class="btn" href="/replay/${id}">Replay</a><a class="btn" href="/api/tables/${id}/record" download>Download record</a><a class="btn" href="/">Lobby</a><button class="btn secondary" id="closeFinal">Close</button></div>`;
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
