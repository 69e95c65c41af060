// Connecting: the seat link, joining a seat, the WebSocket and its reconnects, and the messages that
// change only part of the page (`picked`, `presence`).
//
// A seat link (`#seat=TOKEN`) is only a proposal: its token is stored once the server accepted it, it
// never replaces a seat this device already holds without the player's click on "Switch", and a
// token the server rejects is reported on the page and never touches the stored seat.
import { $, S, esc, forgetSeat, keepSeat, num, showMsg, t } from "./state.js";
import { errorText } from "./errors.js";

const TOKEN = /^[A-Za-z0-9_-]{16,100}$/;

/** The seat link's token in the address, taken out of the address bar at once: the token, "" for a
 *  malformed one, null when the address has none. */
function takeSeatLink() {
  const m = /(?:^|[#&])seat=([^&]*)/.exec(location.hash);
  if (!m) return null;
  history.replaceState(null, "", location.pathname + location.search);
  return TOKEN.test(m[1]) ? m[1] : "";
}

/** Which seat `token` opens, asked without taking it (nothing changes at the table): the seat, null
 *  when the server rejects the token, undefined when it cannot tell now (offline, too many requests). */
async function seatOf(token) {
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(S.tableId)}/token`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }) });
    if (r.ok) return (await r.json()).seat;
    if (r.status === 403 || r.status === 422) return null;
  } catch (e) { /* offline: the switch itself will tell */ }
  return undefined;
}

/** The notice about a seat link above the table (`html` is built here, names escaped); null closes it. */
function notice(html) {
  let el = $("seatNotice");
  if (html == null) { if (el) el.remove(); return null; }
  if (!el) {
    el = document.createElement("section");
    el.id = "seatNotice";
    el.className = "panel";
    el.setAttribute("role", "alert");
    document.querySelector("main").prepend(el);
  }
  el.innerHTML = html;
  return el;
}

function reportRejected(still) {
  const el = notice(`<p><b>${esc(t("This seat link is not valid for this table."))}</b> ${esc(still)}</p><button class="btn secondary" type="button" id="seatNoticeOk">${esc(t("OK"))}</button>`);
  el.querySelector("#seatNoticeOk").onclick = () => notice(null);
}

function seatWords(table, seat) {
  if (seat == null || !table.seats[seat]) return t("another seat");
  const name = table.seats[seat].name;
  return name ? t("seat {seat} ({name})", { seat: num(seat + 1), name }) : t("seat {seat}", { seat: num(seat + 1) });
}

/** This device holds a seat and a link opens another: the player chooses; until then they keep theirs. */
function offerSwitch(table, link, seat, on) {
  const theirs = seatWords(table, seat), mine = S.saved.seat != null ? seatWords(table, S.saved.seat) : t("a seat");
  const el = notice(
    `<h2>${esc(t("Open another seat?"))}</h2><p>${esc(t("This link opens {theirs}. You already hold {mine} here.", { theirs, mine }))}</p>` +
    `<p class="muted">${esc(t("Switching leaves your seat on this device; copy your own seat link first if you want to come back to it."))}</p>` +
    `<div class="row"><button class="btn" type="button" id="keepSeat">${esc(t("Keep my seat"))}</button>` +
    `<button class="btn secondary" type="button" id="switchSeat">${esc(t("Switch to {seat}", { seat: theirs }))}</button></div>`);
  el.querySelector("#keepSeat").onclick = () => notice(null);
  el.querySelector("#switchSeat").onclick = () => {
    notice(null);
    const old = S.ws;
    S.ws = null;
    if (old) old.close();
    connect(link, on, { trial: true, fallback: S.saved && S.saved.token, switched: true });
  };
}

/** Loads the table, then connects (with the saved seat's token) or offers the free seats. `on` holds
 *  the page's handlers: welcome, state, picked, presence, chat, ack. */
export async function start(on) {
  const link = takeSeatLink();
  $("invite").textContent = location.origin + location.pathname;
  const r = await fetch(`/api/tables/${encodeURIComponent(S.tableId)}`);
  if (!r.ok) { document.querySelector("main").innerHTML = `<section class="panel"><h2>${esc(t("No such table"))}</h2><p>${esc(t("There is no table at this address. The link may be mistyped or out of date."))}</p><a class="btn" href="/">${esc(t("Back to the lobby"))}</a></section>`; return; }
  const table = await r.json();
  const showTitle = () => { $("title").textContent = window.SushiArt.tableName(table); };
  showTitle();  // the page starts once the catalogue is here (or late: then the event below redraws it)
  // a default name is worded per reader, from the game's title in the reader's catalogue
  window.addEventListener("sushigo:catalogue", showTitle);
  if (table.status === "cancelled") { on.cancelled(); return; }
  const mine = S.saved && S.saved.token;
  // A signed-in player whose account sits here is seated by the session: no token needed on this device.
  const account = window.SushiAccount ? await window.SushiAccount.me() : null;
  if (!mine && link === null && account && table.seats.some((s) => s.account === account.name)) return connect(null, on);
  if (link !== null && link !== mine) {
    const seat = link ? await seatOf(link) : null;
    if (seat === null) reportRejected(mine ? t("You keep your own seat.") : t("You can take a free seat or watch."));
    else if (!mine) return connect(link, on, { trial: true });  // no seat here yet: the link opens its seat
    else offerSwitch(table, link, seat, on);
  }
  if (mine) return connect(mine, on);
  const free = table.seats.filter((s) => s.kind === "human" && !s.taken && !s.reserved);
  // A play-again table keeps seats for the last game's players: this reader may hold one of them.
  const kept = table.rematch_of && table.seats.some((s) => s.reserved);
  if (table.status === "open" && (free.length || kept)) {
    $("joinPanel").classList.remove("hidden");
    $("joinName").value = account ? account.name : localStorage.getItem("sushigo:name") || "";
    // Signed in: the seat takes the account's name. A rated table seats accounts only.
    $("joinName").closest(".row").classList.toggle("hidden", !!account);
    $("seatLinkHint").classList.toggle("hidden", !!account);
    const guestAtRated = table.rated && !account;
    $("ratedJoin").classList.toggle("hidden", !guestAtRated);
    $("freeSeats").classList.toggle("hidden", guestAtRated);
    $("ratedSignIn").onclick = () => window.SushiAccount.openDialog("in");
    $("freeSeats").innerHTML = (kept ? `<button class="btn" id="takeKept">${esc(t("Take the seat kept for you"))}</button>` : "") +
      free.map((s) => `<button class="btn" data-seat="${s.seat}">${esc(t("Sit at seat {seat}", { seat: num(s.seat + 1) }))}</button>`).join("");
    $("freeSeats").onclick = (e) => {
      const b = e.target.closest("button");
      if (b && b.id === "takeKept") takeKept(table, on);
      else if (b) join(Number(b.dataset.seat), on);
    };
    $("watchBtn").onclick = () => { $("joinPanel").classList.add("hidden"); connect(null, on); };
    return;
  }
  connect(null, on);
}

/** A refused join in the reader's words: the API's ``detail`` is "code: English message". */
function joinError(data, name) {
  const detail = typeof (data && data.detail) === "string" ? data.detail : "";
  const code = detail.split(":")[0].trim();
  return errorText({ code, params: { name } }, t("This seat cannot be taken."));
}

async function join(seat, on) {
  const account = window.SushiAccount ? window.SushiAccount.current() : null;
  const name = account ? account.name : $("joinName").value.trim();
  if (!name) { $("joinMsg").textContent = t("Please enter a name."); return; }
  if (!account) localStorage.setItem("sushigo:name", name);
  let r;
  // 503: the table is moving to the server process this page reaches (docs/deploy.md): ask again shortly.
  for (let tries = 0; ; tries++) {
    r = await fetch(`/api/tables/${encodeURIComponent(S.tableId)}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name, seat }) });
    if (r.status !== 503 || tries >= 10) break;
    await new Promise((done) => setTimeout(done, 500));
  }
  const data = await r.json();
  if (!r.ok) { $("joinMsg").textContent = joinError(data, name); return; }
  keepSeat({ seat: data.seat, token: data.token, name });
  $("joinPanel").classList.add("hidden");
  connect(data.token, on);
}

/** Accepts the seat a play-again table keeps for this reader: the session names it, or the seat token
 *  this device held at the last table. */
async function takeKept(table, on) {
  let old = null;
  try { old = JSON.parse(localStorage.getItem("sushigo:" + table.rematch_of) || "null"); } catch (e) { old = null; }
  const body = old && old.token ? { from_token: old.token } : {};
  const r = await fetch(`/api/tables/${encodeURIComponent(S.tableId)}/accept`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) { $("joinMsg").textContent = errorText({ code: data.code }, t("No seat at the new table waits for you.")); return; }
  keepSeat({ seat: data.seat, token: data.token, name: old ? old.name : undefined });
  $("joinPanel").classList.add("hidden");
  connect(data.token, on);
}

let retry = 500;

/** Opens the table's WebSocket with `token` (null watches). A `trial` token (a seat link) is stored
 *  only once the server welcomed it; if it is rejected the page says so and goes back to `fallback`
 *  (the seat this device holds, or watching). Only the newest socket acts or reconnects. */
function connect(token, on, { trial = false, fallback = null, switched = false } = {}) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(S.tableId)}`);
  S.ws = ws;
  ws.onopen = () => { retry = 500; ws.send(JSON.stringify({ type: "hello", token })); };
  ws.onmessage = (ev) => {
    if (ws !== S.ws) return;
    const msg = JSON.parse(ev.data);
    if (msg.type === "welcome") {
      if (trial && token) { keepSeat({ token, seat: msg.seat }); trial = false; }
      S.mySeat = msg.seat; S.logEntries = [];
      on.welcome(msg);
      if (switched) { switched = false; on.ack(); }  // a selection made for the other seat is dropped
    }
    else if (msg.type === "state" && msg.table && msg.table.status === "cancelled") on.cancelled();
    else if (msg.type === "state") on.state(msg);
    else if (msg.type === "picked") on.picked(msg);
    else if (msg.type === "presence") on.presence(msg);
    else if (msg.type === "chat") on.chat(msg.lines);
    else if (msg.type === "moved") {
      // This socket now only watches; "Play here again" opens the seat on this device once more.
      on.moved(() => { const old = S.ws; S.ws = null; if (old) old.close(); connect(S.saved && S.saved.token ? S.saved.token : null, on); });
    }
    else if (msg.type === "rematch") on.rematch(msg);
    else if (msg.type === "cancelled") on.cancelled();
    else if (msg.type === "ack") {
      if (msg.action === "withdraw" && S.changeTo) {
        ws.send(JSON.stringify({ type: "action", action: S.changeTo, state_id: msg.state_id }));
        S.changeTo = null;
        return;
      }
      on.ack(msg);
      showMsg("");
    } else if (msg.type === "error") {
      if (msg.code === "auth/invalid") { rejected(ws, token, trial, fallback, on); return; }
      // The account this page played as signed out (here or on another device) or its session ended:
      // the server closed the socket; the page watches and says why (signing in again seats it).
      if (msg.code === "auth/ended") { S.ws = null; ws.close(); notice(`<p><b>${esc(errorText(msg))}</b></p>`); connect(null, on); return; }
      if (msg.code === "table/cancelled") { on.cancelled(); return; }
      // The table moves to another server process (a restart, a failover): the socket closes now and
      // the page reconnects at once, landing on the table's new owner.
      if (msg.code === "table/moving") { retry = 250; showMsg(t("Connection lost; reconnecting…")); return; }
      S.changeTo = null;
      showMsg(errorText(msg));
    }
  };
  ws.onclose = () => {
    if (ws !== S.ws || S.moved || S.closed || (S.last && S.last.view.is_over)) return;
    showMsg(t("Connection lost; reconnecting…"));
    setTimeout(() => { if (ws === S.ws) connect(token, on, { trial, fallback, switched }); }, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

/** The server rejected `token`: a seat link's is reported and leaves the stored seat alone; the stored
 *  seat's own token (the server says it opens no seat here) is reported and forgotten. */
function rejected(ws, token, trial, fallback, on) {
  S.ws = null;
  ws.close();
  if (trial) {
    reportRejected(fallback ? t("You keep your own seat.") : t("You are watching."));
    connect(fallback || null, on);
    return;
  }
  if (S.saved && S.saved.token === token) forgetSeat();
  notice(`<p><b>${esc(t("The seat saved on this device does not open a seat at this table."))}</b> ${esc(t("You are watching."))}</p>`);
  connect(null, on);
}
