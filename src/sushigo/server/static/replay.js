// The replay viewer: a spectator's view of every step of a finished game. Each game's seats, log lines
// and round end are drawn by the same module the table page uses (games/index.js, chosen once). Every
// word goes through the message catalogue (i18n.js); a language switch draws the same step again.
import { gameOf, logLine } from "/static/games/index.js";
import * as Analysis from "/static/replay-analysis.js";
const $ = (id) => document.getElementById(id);
const { esc } = window.SushiArt;
const { t } = window.I18N;
const num = (n) => window.I18N.num(n);
const R = window.SushiRender;
const tableId = decodeURIComponent(location.pathname.split("/").pop());
let frames = [], table = null, at = 0, chat = [], failed = null;
$("download").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
window.I18N.mountSwitch($("nav"));

/** The step's caption in words: the frame's log entries as the log writes them (catalogue names, the
 *  faces a re-roll changed), never the engine's action text (``maki_1``, ``reroll 0,2``). */
function caption(f, game, nm) {
  if (!f.action) return t("Start of the game");
  if (f.kind === "round_end" && f.round_end) return t("End of round {n}.", { n: num(f.round_end.round + 1) });
  if (!f.log.length) return f.action;
  const box = document.createElement("ol");
  box.innerHTML = f.log.map((e) => logLine(game, e, nm)).join("");
  box.querySelectorAll(".log-when").forEach((n) => n.remove());
  return [...box.children].map((li) => li.textContent.trim()).join(" — ");
}
function show() {
  const f = frames[at], v = f.view, nm = R.seatNames(table, v), game = gameOf(v);
  window.SushiArt.useGame(v.game);  // card names and rules from this game's catalogue
  $("step").textContent = t("Step {n} of {total}", { n: num(at), total: num(frames.length - 1) });
  $("action").textContent = caption(f, game, nm);
  // The log up to this frame; this frame's entries are marked.
  const entries = [];
  frames.slice(0, at + 1).forEach((fr, i) => fr.log.forEach((e) => entries.push({ e, now: i === at })));
  R.patchList($("log"), entries.map(({ e, now }, i) => ({ key: "l" + i + (now ? "n" : ""), html: logLine(game, e, nm).replace("<li", now ? '<li class="now"' : "<li") })));
  $("log").scrollTop = $("log").scrollHeight;
  const panel = $("roundEndPanel");
  panel.classList.toggle("hidden", !f.round_end);
  if (f.round_end) R.setHTML(panel, `<h2>${esc(t("Round {n} is over", { n: num(f.round_end.round + 1) }))}</h2>${game.roundEnd(f.round_end, nm)}`);
  const columns = game.columns(v);
  $("seats").classList.toggle("party-seats", game.seatsClass === "party-seats");
  R.patchList($("seats"), [...Array(columns).keys()].map((s) => ({ key: "s" + s, html: game.replaySeat(f, v, s, nm) })));
  const labels = nm.slice(0, columns);
  let html = `<div class="scroll-x"><table class="scores"><tr><th></th>${labels.map((l) => `<th>${esc(l)}</th>`).join("")}</tr>`;
  v.scores.rounds.forEach((r, i) => { html += `<tr><td>${esc(t("Round {n}", { n: num(i + 1) }))}</td>${r.map((p) => `<td>${num(p)}</td>`).join("")}</tr>`; });
  html += `<tr class="total"><th>${esc(t("Total so far"))}</th>${v.scores.totals.map((p) => `<th>${num(p)}</th>`).join("")}</tr></table></div>`;
  if (f.round_end && f.round_end.final) html = R.finalTable(f.round_end.final, labels);
  R.setHTML($("scores"), `<p class="muted">${esc(f.kind === "round_end" ? t("End of round {n}.", { n: num(f.round_end.round + 1) }) : game.replayWhen(v))}</p>` + html);
  // Chat lines written up to this moment of the game are not timed to frames; all are shown.
}
/** The game's line above the frames (Party: the menu and the house rules), drawn again once the
 *  words for the options have arrived. */
function drawInfo() {
  const game = frames.length && gameOf(frames[0].view);
  if (game && game.replayInfo) R.setHTML($("info"), game.replayInfo(table, frames, drawInfo));
}
/** The words that are not a frame's: the title, the chat, the "How to play" link. */
function drawPage() {
  if (failed !== null) { drawFailure(); return; }
  if (!table) { $("title").textContent = t("Replay"); return; }
  $("title").textContent = t("Replay — {name}", { name: window.SushiArt.tableName(table) });
  $("chat").innerHTML = chat.map((l) => `<li><b>${esc(l.name)}</b> ${esc(l.text)}</li>`).join("") || `<li class="muted">${esc(t("No chat at this table."))}</li>`;
  const game = frames.length ? frames[0].view.game : table.game;
  const spec = window.SushiArt.gameSpec(game);
  const how = $("howTo");
  how.href = `/rules/${encodeURIComponent(game)}?lang=${encodeURIComponent(window.I18N.lang())}`;
  how.setAttribute("aria-label", t("How to play {game}", { game: spec ? spec.title : game }));
  how.classList.remove("hidden");
}
function drawFailure() {
  // The words come from the server's code (``rate/limited: ...``); its own sentence, in English, stays
  // folded under "Details" for whoever reports the problem.
  const detail = String(failed.detail || "");
  const code = (/^([a-z_]+\/[a-z_]+): /.exec(detail) || [])[1];
  const words = {
    "rate/limited": () => t("Too many requests; wait a minute and try again."),
    "server/busy": () => t("The server is running as many tables as it can; try again later."),
    "table/not_found": () => t("There is no such table."),
  };
  const why = code && words[code] ? words[code]() : t("Please try again in a moment.");
  const reason = detail.replace(/^[a-z_]+\/[a-z_]+: /, "");
  const more = reason ? `<details class="muted"><summary>${esc(t("Details"))}</summary>${esc(reason)}</details>` : "";
  document.querySelector("main").innerHTML = `<section class="panel"><h2>${esc(t("This replay cannot be shown"))}</h2><p>${esc(why)}</p>${more}<p><a class="btn" href="/">${esc(t("Back to the lobby"))}</a></p></section>`;
}
function go(i) { at = Math.max(0, Math.min(frames.length - 1, i)); show(); }
$("first").onclick = () => go(0); $("prev").onclick = () => go(at - 1); $("next").onclick = () => go(at + 1); $("lastBtn").onclick = () => go(frames.length - 1);
document.addEventListener("keydown", (e) => {
  if (e.target.closest && e.target.closest("select, input, textarea")) return;  // the language switch takes its own arrows
  if (e.key === "ArrowRight") go(at + 1);
  if (e.key === "ArrowLeft") go(at - 1);
});
document.addEventListener("click", (e) => {
  const el = e.target.closest("[data-tip]"), tip = $("tip");
  if (!el) { tip.classList.add("hidden"); return; }
  tip.textContent = el.dataset.tip; tip.classList.remove("hidden");
  const r = el.getBoundingClientRect(), w = Math.min(280, innerWidth - 16);
  tip.style.maxWidth = w + "px";
  tip.style.left = Math.max(8, Math.min(innerWidth - w - 8, r.left + scrollX)) + "px";
  tip.style.top = (r.bottom + scrollY + 6) + "px";
});
/** Draws everything again in the new words (the same step; the patched lists rebuild what changed). */
function redraw() {
  drawPage();
  if (frames.length) { drawInfo(); go(at); Analysis.draw(); }
}
/** The frame where an analysed decision was still to be made: the first of its round and turn. */
function frameOf(d) {
  const i = frames.findIndex((f) => f.view.round === d.round && (d.turn === null || f.view.turn === d.turn));
  return i;
}
// The first draw waits for the card catalogues and the messages (art.js fetches GET /api/games as the
// page starts; i18n.js the language's catalogue).
window.I18N.ready.then(drawPage);
Promise.all([fetch(`/api/tables/${encodeURIComponent(tableId)}/replay`).then((r) => r.json()), window.SushiArt.ready(), window.I18N.ready]).then(([data]) => {
  if (!data.frames) { failed = data; drawFailure(); return; }
  frames = data.frames; table = data.table; chat = data.chat || [];
  drawPage();
  drawInfo();
  go(0);
  Analysis.mount(tableId, R.seatNames(table, frames[0].view).slice(0, table.players || frames[0].view.players), (doc, index) => {
    const i = frameOf(doc.decisions.find((d) => d.index === index) || {});
    if (i >= 0) go(i);
  });
  window.SushiArt.onCatalogue(() => { drawInfo(); go(at); Analysis.draw(); });
  window.addEventListener("sushigo:lang", redraw);
  window.addEventListener("sushigo:catalogue", redraw);
});
