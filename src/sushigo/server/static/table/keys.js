// The keyboard (number keys choose, Enter plays, c toggles chopsticks, Escape closes) and card tips.
import { $, S } from "./state.js";
import { closeRoundEnd } from "./roundend.js";

function hideTip() { $("tip").classList.add("hidden"); }

function showTip(el) {
  const tip = $("tip");
  tip.textContent = el.dataset.tip;
  tip.classList.remove("hidden");
  const r = el.getBoundingClientRect();
  const w = Math.min(280, window.innerWidth - 16);
  tip.style.maxWidth = w + "px";
  tip.style.left = Math.max(8, Math.min(window.innerWidth - w - 8, r.left + window.scrollX)) + "px";
  tip.style.top = (r.bottom + window.scrollY + 6) + "px";
}

/** `game()` returns the current game's module (its `key(n)` handles a number key). */
export function setupKeys(game) {
  document.addEventListener("keydown", (e) => {
    if (!S.last || e.target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape") { closeRoundEnd(); hideTip(); return; }
    const n = Number(e.key);
    if (n >= 1 && n <= 9) {
      if (game().key(n)) e.preventDefault();
    } else if (e.key === "Enter" && !e.target.closest("button, a")) {
      const b = $("playBtn") || $("takeBtn");
      if (b && !b.disabled) { b.click(); e.preventDefault(); }
    } else if (e.key === "c" && $("chop")) { $("chop").click(); }
  });
  // A tap or Enter on a pictured card or die (not a choice) shows its name and rule.
  document.addEventListener("click", (e) => {
    const el = e.target.closest("[data-tip]");
    if (el && !el.matches("button")) showTip(el); else if (!e.target.closest("#tip")) hideTip();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && e.target.matches && e.target.matches("span[data-tip]")) showTip(e.target);
  });
}
