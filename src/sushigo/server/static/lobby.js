// The lobby: create a table, list open, running and finished tables.
"use strict";
const $ = (id) => document.getElementById(id);
const esc = window.SushiArt.esc;
let BOTS = { "sushi-go": ["random"], "sushi-roll": ["random"] };

function seatRows() {
  const n = Number($("players").value);
  const game = $("game").value;
  const old = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  let html = "";
  for (let i = 0; i < n; i++) {
    const bots = BOTS[game] || ["random"];
    const def = i === 0 ? "me" : old[i] && old[i] !== "me" ? old[i] : "bot:" + (bots.includes("greedy") ? "greedy" : bots[0]);
    const opts = [["me", "You"], ["human", "Human (invite)"], ...bots.map((b) => ["bot:" + b, "Bot: " + b])];
    html += `<div class="seatrow"><span class="pill">Seat ${i + 1}</span><select data-seat="${i}">${opts
      .map(([v, t]) => `<option value="${v}" ${v === def ? "selected" : ""} ${v === "me" && i !== 0 ? "disabled" : ""}>${t}</option>`)
      .join("")}</select></div>`;
  }
  $("seats").innerHTML = html;
  $("variants").classList.toggle("hidden", game !== "sushi-go");
  $("dummy").disabled = n !== 2;
  if (n !== 2) $("dummy").checked = false;
}

async function loadGames() {
  try {
    const r = await fetch("/api/games");
    const data = await r.json();
    BOTS = {};
    for (const g of data.games) BOTS[g.game] = g.bots;
  } catch (e) { /* keep defaults */ }
  seatRows();
}

function when(ts) {
  if (!ts) return "";
  const d = new Date(ts * 1000);
  return d.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" }) + " " + d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

function tableRow(t, kind) {
  const seats = t.seats.map((s) => (s.kind === "bot" ? `${esc(s.name)} <span class="tag">bot</span>` : s.taken ? esc(s.name) : "<i>free</i>")).join(", ");
  const game = t.game === "sushi-go" ? "Sushi Go!" : "Sushi Roll";
  const opts = Object.keys(t.options || {}).filter((k) => t.options[k]).map((k) => k.replace(/_/g, " ")).join(", ");
  const id = encodeURIComponent(t.id);
  let action = "", extra = "";
  if (kind === "open") action = `<a class="btn" href="/t/${id}">Join</a>`;
  else if (kind === "playing") action = `<a class="btn" href="/t/${id}">Watch</a>`;
  else {
    const names = t.winner_names || (t.winners || []).map((s) => t.seats[s] && t.seats[s].name);
    const win = names && names.length ? `Winner: <b>${esc(names.join(" and "))}</b>` : t.status === "abandoned" ? "Abandoned" : "";
    extra = `<br><span class="muted">${win}${t.totals ? " · " + esc(t.totals.join(" / ")) : ""} · ${esc(when(t.finished_at || t.created_at))}</span>`;
    action = t.status === "finished" ? `<a class="btn" href="/replay/${id}">Replay</a> <a class="btn" href="/api/tables/${id}/record" download>Record</a>` : "";
  }
  return `<tr><td><b>${esc(t.name)}</b><br><span class="muted">${game}${opts ? " · " + esc(opts) : ""}</span>${extra}</td><td>${seats}</td><td class="actions">${action}</td></tr>`;
}

// Finished games come a page at a time, newest first; ``pages`` holds the cursors of the pages seen.
let pages = [null], page = 0;

async function fetchPage(status, cursor, limit) {
  const q = new URLSearchParams({ status, limit: String(limit) });
  if (cursor) q.set("cursor", cursor);
  const r = await fetch(`/api/tables?${q}`);
  if (!r.ok) throw new Error("cannot list tables");
  return r.json();
}

async function refresh() {
  try {
    for (const kind of ["open", "playing"]) {
      const data = await fetchPage(kind, null, 20);
      $(kind).innerHTML = data.tables.map((t) => tableRow(t, kind)).join("") || `<tr><td class="muted">None yet.</td></tr>`;
    }
    await refreshFinished();
  } catch (e) { /* try again later */ }
}

async function refreshFinished() {
  const data = await fetchPage("finished", pages[page], 10);
  $("finished").innerHTML = data.tables.map((t) => tableRow(t, "finished")).join("") || `<tr><td class="muted">None yet.</td></tr>`;
  pages[page + 1] = data.next;
  $("newer").disabled = page === 0;
  $("older").disabled = !data.next;
  $("pageNo").textContent = `Page ${page + 1}`;
}

$("older").addEventListener("click", () => { if (pages[page + 1]) { page += 1; refreshFinished(); } });
$("newer").addEventListener("click", () => { if (page > 0) { page -= 1; refreshFinished(); } });

async function create() {
  const game = $("game").value;
  const name = $("myname").value.trim() || "Me";
  const picks = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  const seats = picks.map((v) => (v.startsWith("bot:") ? { kind: "bot", bot: v.slice(4) } : { kind: "human" }));
  const options = {};
  if (game === "sushi-go") for (const k of ["pass_both_ways", "soy_sauce", "dummy"]) if ($(k).checked) options[k] = true;
  const body = { game, seats, options };
  if ($("timer").value) body.turn_timer = Number($("timer").value);
  $("createBtn").disabled = true;
  try {
    const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const t = await r.json();
    if (!r.ok) throw new Error(t.detail || "cannot create the table");
    const mine = picks.indexOf("me");
    if (mine >= 0) {
      const j = await fetch(`/api/tables/${t.id}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name, seat: mine }) });
      const seat = await j.json();
      if (!j.ok) throw new Error(seat.detail || "cannot join");
      localStorage.setItem("sushigo:" + t.id, JSON.stringify({ seat: seat.seat, token: seat.token, name }));
    }
    location.href = `/t/${t.id}`;
  } catch (e) {
    $("createMsg").textContent = String(e.message || e);
    $("createBtn").disabled = false;
  }
}

$("players").addEventListener("change", seatRows);
$("game").addEventListener("change", seatRows);
$("createBtn").addEventListener("click", create);
$("myname").value = localStorage.getItem("sushigo:name") || "";
$("myname").addEventListener("change", () => localStorage.setItem("sushigo:name", $("myname").value));
loadGames();
refresh();
setInterval(refresh, 4000);
