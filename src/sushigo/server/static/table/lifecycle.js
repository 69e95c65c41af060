// Around a game (issue 21): "Leave" an open table, "Cancel table" for its creator, "Concede" a running
// game (after a confirmation), "Play again" at the final table, the invitation to a table made by "Play
// again" (Accept / Decline), and the notices when the seat moved to another device or the table was
// cancelled. Every request names the seat by this device's seat token when it has one; a signed-in
// player's session names it otherwise (the CSRF header comes from account.js's fetch).
import { $, S, esc, forgetSeat, t } from "./state.js";
import { errorText } from "./errors.js";

const tableUrl = (id, what) => `/api/tables/${encodeURIComponent(id)}/${what}`;
const createdKey = () => "sushigo:created:" + S.tableId;
let confirming = false;
let lastMsg = null;

/** POSTs `body` (JSON) and resolves to `{ok, status, body}` (`status` 0 when offline). */
async function post(url, body) {
  try {
    const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
    const data = r.status === 204 ? null : await r.json().catch(() => null);
    return { ok: r.ok, status: r.status, body: data };
  } catch (e) { return { ok: false, status: 0, body: null }; }
}

/** The refusal of an HTTP call in the reader's words (the API's `code`, or "code: message" details). */
function refusal(r, fallback) {
  if (r.status === 0) return t("The server cannot be reached; try again.");
  const b = r.body || {};
  const code = b.code || (/^([a-z_]+\/[a-z_]+):/.exec(String(b.detail || "")) || [])[1];
  return errorText({ code, params: b.params }, fallback);
}

/** This device's seat token, as the life-cycle calls take it (none: the session names the seat). */
const seatBody = () => (S.saved && S.saved.token ? { token: S.saved.token } : {});

function say(text) { $("msg").textContent = text || ""; }

/** Draws the table's own actions for the state `msg`: what this reader may do at this table now. */
export function drawActions(msg) {
  lastMsg = msg;
  const box = $("tableActions");
  if (!box) return;
  const status = msg.table.status, over = msg.view.is_over, seated = S.mySeat != null;
  const mine = seated ? msg.table.seats[S.mySeat] : null;
  if (confirming && !(status === "playing" && seated && !over)) confirming = false;
  let html = "";
  if (status === "open" && seated) html += `<button class="btn secondary" type="button" id="leaveBtn">${esc(t("Leave"))}</button>`;
  if (status === "open" && localStorage.getItem(createdKey())) html += `<button class="btn secondary" type="button" id="cancelBtn">${esc(t("Cancel table"))}</button>`;
  if (status === "playing" && seated && !over && !(mine && mine.conceded)) {
    html += confirming
      ? `<div class="confirm" role="alertdialog" aria-labelledby="concedeQ"><span id="concedeQ">${esc(msg.table.rated ? t("Concede this game? A bot plays your seat to the end, and you finish last in the rating.") : t("Concede this game? A bot plays your seat to the end."))}</span>` +
        `<button class="btn" type="button" id="concedeYes">${esc(t("Concede"))}</button><button class="btn secondary" type="button" id="concedeNo">${esc(t("Keep playing"))}</button></div>`
      : `<button class="btn secondary" type="button" id="concedeBtn">${esc(t("Concede"))}</button>`;
  }
  if (mine && mine.conceded) html += `<span class="muted">${esc(t("You conceded; a bot plays your seat to the end."))}</span>`;
  if (box.dataset.html === html) return;
  box.dataset.html = html;
  box.innerHTML = html;
}

function redraw() { if (lastMsg) { $("tableActions").dataset.html = ""; drawActions(lastMsg); } }

async function leave() {
  const r = await post(tableUrl(S.tableId, "leave"), seatBody());
  if (!r.ok) { say(refusal(r, t("You could not leave this table."))); return; }
  forgetSeat();
  location.reload();  // the free seats are offered again, to this page too
}

async function cancel() {
  // The cancel key from the table's creation (a guest's proof); a signed-in creator's session suffices.
  const key = localStorage.getItem(createdKey());
  const r = await post(tableUrl(S.tableId, "cancel"), key && key !== "1" ? { token: key } : {});
  if (!r.ok) { say(refusal(r, t("The table could not be cancelled."))); return; }
  localStorage.removeItem(createdKey());
  cancelled();
}

async function concede() {
  confirming = false;
  const r = await post(tableUrl(S.tableId, "concede"), seatBody());
  if (!r.ok) { say(refusal(r, t("You could not concede."))); redraw(); return; }
  say("");
  redraw();
}

/** The table was cancelled (by this page or its creator): the page says so and stops. */
export function cancelled() {
  S.closed = true;
  const old = S.ws;
  S.ws = null;
  if (old) old.close();
  const main = document.querySelector("main");
  let el = $("cancelledNotice");
  if (!el) {
    el = document.createElement("section");
    el.id = "cancelledNotice";
    el.className = "panel";
    el.setAttribute("role", "alert");
    main.prepend(el);
  }
  el.innerHTML = `<h2>${esc(t("This table was cancelled"))}</h2><p>${esc(t("It was closed before the game began."))}</p><a class="btn" href="/">${esc(t("Back to the lobby"))}</a>`;
  $("game").classList.add("hidden");
  $("joinPanel").classList.add("hidden");
}

// ------------------------------------------------------------------------------ play again

/** Takes the seat reserved for this reader at table `id` and opens it. */
async function accept(id, manage = null) {
  const from = S.saved && S.saved.token ? { from_token: S.saved.token } : {};
  const r = await post(tableUrl(id, "accept"), from);
  if (r.ok && r.body && r.body.token) keepSeatAt(id, r.body);
  if (manage) localStorage.setItem("sushigo:created:" + id, manage);
  else if (!r.ok && r.status !== 409) return refusal(r, t("The seat at the new table could not be taken."));
  location.href = `/t/${encodeURIComponent(id)}`;
  return null;
}

function keepSeatAt(id, join) {
  const saved = { seat: join.seat, token: join.token, name: S.saved ? S.saved.name : undefined };
  localStorage.setItem("sushigo:" + id, JSON.stringify(saved));
}

/** "Play again": makes (or finds) the next table with the same seats and options and takes this seat. */
export async function playAgain(button) {
  if (button) button.disabled = true;
  const r = await post(tableUrl(S.tableId, "rematch"), seatBody());
  const id = r.body && r.body.table && r.body.table.id;
  if (!r.ok || !id) {
    if (button) button.disabled = false;
    const el = $("playAgainMsg");
    if (el) el.textContent = refusal(r, t("No new table could be made."));
    return;
  }
  const problem = await accept(id, r.body.manage || null);
  if (problem) { const el = $("playAgainMsg"); if (el) el.textContent = problem; if (button) button.disabled = false; }
}

let invite = null;  // {table, from}

/** A `rematch` message (or a finished table that has a next one): the invitation banner. */
export function onRematch(msg) {
  if (S.mySeat == null || !msg || !msg.table) return;
  if (sessionStorage.getItem("sushigo:declined:" + msg.table)) return;
  invite = { table: msg.table, from: msg.from || null };
  drawInvite();
}

function drawInvite() {
  if (!invite) return;
  $("rematchText").textContent = invite.from ? t("{name} wants to play again at a new table with the same seats.", { name: invite.from }) : t("A new table with the same seats is waiting for you.");
  $("rematchBanner").classList.remove("hidden");
  // The final dialog covers the page: the invitation shows inside it too.
  const fin = $("finalInvite");
  if (fin) { fin.textContent = $("rematchText").textContent; fin.closest(".final-invite").classList.remove("hidden"); }
}

async function acceptInvite() {
  if (!invite) return;
  const problem = await accept(invite.table);
  if (problem) $("rematchMsg").textContent = problem;
}

async function declineInvite() {
  if (!invite) return;
  const from = S.saved && S.saved.token ? { from_token: S.saved.token } : {};
  const r = await post(tableUrl(invite.table, "decline"), from);
  if (!r.ok && r.status !== 409) { $("rematchMsg").textContent = refusal(r, t("The invitation could not be declined.")); return; }
  sessionStorage.setItem("sushigo:declined:" + invite.table, "1");
  invite = null;
  $("rematchBanner").classList.add("hidden");
  const fin = document.querySelector(".final-invite");
  if (fin) fin.classList.add("hidden");
}

/** The final dialog's buttons: "Play again" and the invitation's Accept / Decline. */
export function bindFinal() {
  const again = $("playAgain");
  if (again) again.onclick = () => playAgain(again);
  const yes = $("finalAccept"), no = $("finalDecline");
  if (yes) yes.onclick = acceptInvite;
  if (no) no.onclick = declineInvite;
  if (invite) drawInvite();
}

// ------------------------------------------------------------------------------ seat moved

/** The seat was opened on another device: this page only watches now, and says so. */
export function moved(reconnect) {
  S.moved = true;
  S.mySeat = null;
  let el = $("movedNotice");
  if (!el) {
    el = document.createElement("section");
    el.id = "movedNotice";
    el.className = "panel";
    el.setAttribute("role", "alert");
    document.querySelector("main").prepend(el);
  }
  el.innerHTML = `<p><b>${esc(t("Your seat was opened on another device."))}</b> ${esc(t("This page only watches now."))}</p>` +
    `<button class="btn secondary" type="button" id="takeBack">${esc(t("Play here again"))}</button>`;
  el.querySelector("#takeBack").onclick = () => { el.remove(); S.moved = false; reconnect(); };
}

export function setupLifecycle() {
  $("tableActions").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    if (b.id === "leaveBtn") leave();
    else if (b.id === "cancelBtn") cancel();
    else if (b.id === "concedeBtn") { confirming = true; redraw(); const y = $("concedeNo"); if (y) y.focus(); }
    else if (b.id === "concedeNo") { confirming = false; redraw(); }
    else if (b.id === "concedeYes") concede();
  });
  $("rematchAccept").onclick = acceptInvite;
  $("rematchDecline").onclick = declineInvite;
  window.addEventListener("sushigo:lang", () => { redraw(); drawInvite(); });
}

