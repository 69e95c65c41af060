// The score table while the game is on (the final table is render.js's finalTable). Every view's
// `scores` has the same shape: `rounds` (points per seat, per finished round) and `totals`.
import { R, esc, num, t } from "./state.js";

/** Rounds, "Round N so far" (the `running` estimate), the game's `rows` ([label, cells]), the total. */
export function basicScores(msg, labels, rows = []) {
  const v = msg.view, rep = v.scores;
  let html = `<table class="scores"><tr><th></th>${labels.map((l) => `<th>${esc(l)}</th>`).join("")}</tr>`;
  rep.rounds.forEach((r, i) => { html += `<tr><td>${esc(t("Round {n}", { n: num(i + 1) }))}</td>${r.map((p) => `<td>${num(p)}</td>`).join("")}</tr>`; });
  if (msg.running) html += `<tr class="muted"><td>${esc(t("Round {round} so far", { round: num(Math.min(v.round, 2) + 1) }))}</td>${msg.running.map((p) => `<td>${num(p)}</td>`).join("")}</tr>`;
  for (const [label, cells] of rows) html += `<tr><td>${esc(label)}</td>${cells.map((c) => `<td>${num(c)}</td>`).join("")}</tr>`;
  return html + `<tr class="total"><th>${esc(t("Total"))}</th>${rep.totals.map((x) => `<th>${num(x)}</th>`).join("")}</tr></table>`;
}

/** The page's score panel: the final table once the game is over, else the game's own table. */
export function drawScores(msg, game, labels) {
  return msg.final ? R.finalTable(msg.final, labels) : game.scores(msg, labels);
}
