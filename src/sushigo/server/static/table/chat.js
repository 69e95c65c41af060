// Chat and the personal seat link.
import { $, S, esc, t, num } from "./state.js";

const kept = [];

/** A chat author's name: the server's stand-in names ("Spectator 3", "Player 2") in the reader's words. */
function author(l) {
  const m = /^(Spectator|Player) (\d+)$/.exec(l.name || "");
  if (m && m[1] === "Spectator" && l.seat == null) return t("Spectator {n}", { n: num(Number(m[2])) });
  if (m && m[1] === "Player" && l.seat != null && Number(m[2]) === l.seat + 1) return t("Player {n}", { n: num(l.seat + 1) });
  return l.name;
}

/** Adds chat lines; ``again`` draws every line kept so far anew (the language changed). */
export function addChat(lines, again = false) {
  const list = $("chat");
  if (again) { list.textContent = ""; lines = kept.slice(); } else kept.push(...lines);
  for (const l of lines) {
    const li = document.createElement("li");
    // a spectator's line is marked as such, so a watcher can never pass for a seated player
    const watcher = l.spectator || l.seat == null;
    if (watcher) li.className = "watcher";
    li.innerHTML = `<b>${esc(author(l))}</b>${watcher ? ` <span class="tag">${esc(t("watching"))}</span>` : ""} ${esc(l.text)}`;
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
}

export function seatLink() { return S.saved && S.saved.token ? `${location.origin}/t/${encodeURIComponent(S.tableId)}#seat=${S.saved.token}` : null; }

export function drawSeatLink() {
  const has = S.mySeat != null && seatLink();
  $("seatLinkPanel").classList.toggle("hidden", !has);
  $("seatLinkBox").classList.add("hidden");
}

export function setupChat() {
  $("chatForm").onsubmit = (e) => {
    e.preventDefault();
    const text = $("chatText").value.trim();
    if (!text || !S.ws) return;
    S.ws.send(JSON.stringify({ type: "chat", text: text.slice(0, 200) }));
    $("chatText").value = "";
  };
  $("showSeatLink").onclick = () => {
    const box = $("seatLinkBox");
    box.classList.toggle("hidden");
    $("seatLink").value = box.classList.contains("hidden") ? "" : seatLink();
  };
  $("copySeatLink").onclick = async () => {
    try { await navigator.clipboard.writeText(seatLink()); $("copySeatLink").textContent = t("Copied!"); }
    catch (e) { $("seatLinkBox").classList.remove("hidden"); $("seatLink").value = seatLink(); $("seatLink").select(); }
  };
  for (const id of ["copyLink", "copyInvite"]) {
    $(id).onclick = async () => {
      const link = location.origin + location.pathname;
      try { await navigator.clipboard.writeText(link); $(id).textContent = t("Copied!"); }
      catch (e) { window.prompt(t("Copy this link:"), link); }
    };
  }
  $("inviteLink").textContent = location.origin + location.pathname;
}
