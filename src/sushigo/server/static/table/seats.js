// The parts of a seat's box that every game shares: the header (name, online dot or bot tag, stand-in,
// points and the "+N now" pill) and the frame around the game's own body.
import { S, esc, nt, num, t } from "./state.js";

/** A seat's name: an account's links to its profile (a program is marked), a deleted one is "deleted
 *  player", a conceded seat says so. */
function seatName(info, name) {
  if (!info || info.kind === "bot") return esc(name);
  let html = info.deleted ? `<i>${esc(t("deleted player"))}</i>`
    : info.account ? `<a href="/players/${encodeURIComponent(info.account)}" target="_blank" rel="noopener">${esc(name)}</a>` : esc(name);
  // The title's text is looked up outside the template literal: Babel's extractor misses a call there.
  const programTitle = t("An account playing through an API token");
  if (info.program) html += ` <span class="tag" title="${esc(programTitle)}">${esc(t("program"))}</span>`;
  if (info.conceded) html += ` <span class="muted">${esc(t("(conceded)"))}</span>`;
  return html;
}

/** A seat's header. `extra.badge` is HTML after the name (Sushi Roll's red belt); `extra.column`
 *  marks a column that is no seat of the table (Sushi Go!'s dummy). */
export function seatHeader(msg, s, nm, pts, running, extra = {}) {
  const info = extra.column ? null : msg.table.seats[s];
  const online = info && info.connected ? t("online") : t("offline");
  const who = !info ? "" : info.kind === "bot" ? `<span class="tag">${esc(t("bot"))}</span>` : `<span class="dot ${info.connected ? "on" : ""}" role="img" aria-label="${esc(online)}"></span>`;
  const standin = info && info.standin ? ` <span class="muted">${esc(t("(bot playing)"))}</span>` : "";
  // Party's estimate can be negative (eel, temaki's fewest): "−3 now", not "+-3 now".
  const ifEnded = t("points if the round ended now");
  const run = running != null ? `<span class="pill run" title="${esc(ifEnded)}">${esc(t("{points} now", { points: signed(running) }))}</span>` : "";
  const you = s === S.mySeat ? " " + esc(t("(you)")) : "";
  return `<h3><span class="who">${who} ${seatName(info, nm[s])}${you}${extra.badge || ""}${standin}</span><span class="pts">${run}<span class="pill">${esc(nt("{n} pt", "{n} pts", pts, { n: num(pts) }))}</span></span></h3>`;
}

/** A score during the round, signed as the "+N now" pill writes it ("−3", not "-3"). */
export function signed(n) { return n < 0 ? "−" + num(-n) : "+" + num(n); }

/** One seat's box: the header, a status line, and the game's body. */
export function seatBox(msg, s, nm, { acting, status, body, extra = {} }) {
  const v = msg.view, totals = v.scores.totals;
  // While seats are still open nobody is choosing: each seat says whether it is taken.
  if (msg.table.status === "open" && !extra.column) {
    const info = msg.table.seats[s];
    acting = false;
    status = !info ? null : info.kind === "bot" ? t("ready") : info.taken ? t("joined") : info.reserved ? t("kept for its last player (Play again)") : t("open seat — waiting for a player");
  }
  return `<div class="seat ${s === S.mySeat ? "me" : ""} ${acting ? "acting" : ""}" data-seat="${s}">
        ${seatHeader(msg, s, nm, totals[s] ?? 0, msg.running && msg.running[s], extra)}
        ${status == null ? "" : `<div class="status ${acting ? "waiting" : "done"}">${esc(status)}</div>`}
        ${body}</div>`;
}
