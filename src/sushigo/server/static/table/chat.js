// Chat and the personal seat link.
import { $, S, esc } from "./state.js";

export function addChat(lines) {
  const list = $("chat");
  for (const l of lines) {
    const li = document.createElement("li");
    // a spectator's line is marked as such, so a watcher can never pass for a seated player
    const watcher = l.spectator || l.seat == null;
    if (watcher) li.className = "watcher";
    li.innerHTML = `<b>${esc(l.name)}</b>${watcher ? ' <span class="tag">watching</span>' : ""} ${esc(l.text)}`;
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
    try { await navigator.clipboard.writeText(seatLink()); $("copySeatLink").textContent = "Copied!"; }
    catch (e) { $("seatLinkBox").classList.remove("hidden"); $("seatLink").value = seatLink(); $("seatLink").select(); }
  };
  for (const id of ["copyLink", "copyInvite"]) {
    $(id).onclick = async () => {
      const link = location.origin + location.pathname;
      try { await navigator.clipboard.writeText(link); $(id).textContent = "Copied!"; }
      catch (e) { window.prompt("Copy this link:", link); }
    };
  }
  $("inviteLink").textContent = location.origin + location.pathname;
}
