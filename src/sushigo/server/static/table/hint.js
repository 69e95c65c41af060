// The practice hint: a button in `#hint-slot` that asks the server (GET /api/tables/{id}/hint, the seat
// token in the X-Seat-Token header, never in the address; a signed-in player's account cookie) how the analysis engine values this seat's
// current choices. The server gives hints only at unrated tables where every other seat is a bot; the
// button is shown only there, and the server refuses anywhere else whatever the page does.
import { $, S, esc, t, num } from "./state.js";
import { actionWords } from "/static/replay-analysis.js";

let shown = "", busy = false, answer = null, problem = null, answeredFor = null;

/** Whether this page could ask for a hint now: a held seat, a practice table, a decision to make. */
function offered() {
  const msg = S.last;
  if (!msg || S.mySeat == null) return false;
  const tb = msg.table;
  if (tb.status !== "playing" || tb.rated) return false;
  if (!tb.seats.every((s, i) => i === S.mySeat || s.kind === "bot")) return false;
  return msg.view.legal.length > 1 && !msg.pick;
}

function draw() {
  const slot = $("hint-slot");
  if (!slot) return;
  const stateId = S.last ? S.last.state_id : null;
  if (answeredFor !== stateId) { answer = null; problem = null; }
  const show = offered();
  let html = "";
  if (show) {
    // Outside the template literal: Babel's extractor does not see a call nested in an attribute there.
    const title = t("Ask the strongest bot which pick it prefers now (practice tables only).");
    html = `<button class="btn secondary" id="hintBtn" title="${esc(title)}"${busy ? " disabled" : ""}>${esc(busy ? t("Thinking…") : t("Hint"))}</button>`;
    if (answer) {
      const rows = answer.choices.slice(0, 4).map((c) => `<li>${esc(t("{choice}: win {p}%", { choice: actionWords(c.action), p: num(Math.round(100 * c.win)) }))}</li>`).join("");
      html += `<p class="hint-answer"><b>${esc(t("Suggested: {choice}", { choice: actionWords(answer.preferred) }))}</b></p><ol class="hint-choices">${rows}</ol>`;
    } else if (problem) html += `<p class="muted">${esc(problem)}</p>`;
  }
  if (html === shown) return;
  shown = html;
  slot.innerHTML = html;
  const btn = $("hintBtn");
  if (btn) btn.onclick = ask;
}

function why(data) {
  const code = (/^([a-z_]+\/[a-z_]+): /.exec(String((data && data.detail) || "")) || [])[1];
  const words = {
    "hint/not_allowed": () => t("Hints are only for unrated tables where every other seat is a bot."),
    "hint/no_decision": () => t("There is no choice to make now."),
    "hint/busy": () => t("The hint took too long; try again."),
    "analysis/busy": () => t("One analysis at a time: wait for the one you started."),
    "analysis/limit": () => t("The server is analysing other games; try again in a minute."),
    "rate/limited": () => t("Too many requests; wait a minute and try again."),
  };
  return code && words[code] ? words[code]() : t("The hint took too long; try again.");
}

async function ask() {
  if (busy || !offered()) return;
  busy = true; problem = null; answer = null;
  const asked = S.last.state_id;
  draw();
  try {
    // A guest proves its seat with its token; a signed-in player's seat is its account's (the cookie).
    const headers = S.saved && S.saved.token ? { "X-Seat-Token": S.saved.token } : {};
    const r = await fetch(`/api/tables/${encodeURIComponent(S.tableId)}/hint`, { headers, credentials: "same-origin" });
    const data = await r.json();
    if (r.ok) answer = data; else problem = why(data);
  } catch (e) { problem = t("The hint took too long; try again."); }
  busy = false;
  answeredFor = asked;
  draw();
}

// The page draws each state message itself (main.js); the slot follows it by looking a few times a
// second, which costs nothing and needs no hook in the table's own code.
setInterval(draw, 400);
window.addEventListener("sushigo:lang", () => { shown = ""; draw(); });
