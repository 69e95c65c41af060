// Connecting: the seat link, joining a seat, the WebSocket and its reconnects, and the messages that
// change only part of the page (`picked`, `presence`).
import { $, S, showMsg } from "./state.js";

/** A seat link (``#seat=TOKEN``) opens the seat on this device; the token leaves the address bar. */
function takeSeatLink() {
  const m = /(?:^|[#&])seat=([A-Za-z0-9_-]{16,100})/.exec(location.hash);
  if (!m) return;
  S.saved = { token: m[1] };
  localStorage.setItem(S.storeKey, JSON.stringify(S.saved));
  history.replaceState(null, "", location.pathname + location.search);
}

/** Loads the table, then connects (with the saved seat's token) or offers the free seats. `on` holds
 *  the page's handlers: welcome, state, picked, presence, chat, ack. */
export async function start(on) {
  takeSeatLink();
  $("invite").textContent = location.origin + location.pathname;
  const r = await fetch(`/api/tables/${encodeURIComponent(S.tableId)}`);
  if (!r.ok) { document.querySelector("main").innerHTML = `<section class="panel"><h2>No such table</h2><a class="btn" href="/">Back to the lobby</a></section>`; return; }
  const table = await r.json();
  $("title").textContent = table.name;
  if (S.saved && S.saved.token) return connect(S.saved.token, on);
  const free = table.seats.filter((s) => s.kind === "human" && !s.taken);
  if (table.status === "open" && free.length) {
    $("joinPanel").classList.remove("hidden");
    $("joinName").value = localStorage.getItem("sushigo:name") || "";
    $("freeSeats").innerHTML = free.map((s) => `<button class="btn" data-seat="${s.seat}">Sit at seat ${s.seat + 1}</button>`).join("");
    $("freeSeats").onclick = (e) => { const b = e.target.closest("button"); if (b) join(Number(b.dataset.seat), on); };
    $("watchBtn").onclick = () => { $("joinPanel").classList.add("hidden"); connect(null, on); };
    return;
  }
  connect(null, on);
}

async function join(seat, on) {
  const name = $("joinName").value.trim();
  if (!name) { $("joinMsg").textContent = "Please enter a name."; return; }
  localStorage.setItem("sushigo:name", name);
  const r = await fetch(`/api/tables/${encodeURIComponent(S.tableId)}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name, seat }) });
  const data = await r.json();
  if (!r.ok) { $("joinMsg").textContent = data.detail || "cannot join"; return; }
  S.saved = { seat: data.seat, token: data.token, name };
  localStorage.setItem(S.storeKey, JSON.stringify(S.saved));
  $("joinPanel").classList.add("hidden");
  connect(data.token, on);
}

let closedOnPurpose = false, retry = 500;

function connect(token, on) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(S.tableId)}`);
  S.ws = ws;
  ws.onopen = () => { retry = 500; ws.send(JSON.stringify({ type: "hello", token })); };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "welcome") { S.mySeat = msg.seat; S.logEntries = []; on.welcome(msg); }
    else if (msg.type === "state") on.state(msg);
    else if (msg.type === "picked") on.picked(msg);
    else if (msg.type === "presence") on.presence(msg);
    else if (msg.type === "chat") on.chat(msg.lines);
    else if (msg.type === "ack") {
      if (msg.action === "withdraw" && S.changeTo) {
        ws.send(JSON.stringify({ type: "action", action: S.changeTo, state_id: msg.state_id }));
        S.changeTo = null;
        return;
      }
      on.ack(msg);
      showMsg("");
    } else if (msg.type === "error") {
      if (msg.code === "auth/invalid") {
        localStorage.removeItem(S.storeKey); S.saved = null; closedOnPurpose = true; ws.close();
        showMsg("This seat link does not open a seat at this table; you are watching.");
        closedOnPurpose = false; setTimeout(() => connect(null, on), 300); return;
      }
      S.changeTo = null;
      showMsg(msg.message);
    }
  };
  ws.onclose = () => {
    if (closedOnPurpose || (S.last && S.last.view.is_over)) return;
    showMsg("Connection lost; reconnecting…");
    setTimeout(() => connect(token, on), retry);
    retry = Math.min(retry * 2, 8000);
  };
}
