// The table's life: short motion (hands slide in when they pass, reveals flip, dice roll, points count up
// at a round's end), "your turn" when the tab is in the background (title, favicon, vibration, an optional
// notification), a few sounds made with the Web Audio API (no sound files), and notices to the player
// (the turn timer chose for you). Motion is skipped by any click or key and absent under
// prefers-reduced-motion (style.css turns every CSS animation off; the script starts none).
import { $, S, nt, num, t } from "./state.js";

const store = {
  get: (k) => { try { return localStorage.getItem(k); } catch (e) { return null; } },
  set: (k, v) => { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
};
const SOUND_KEY = "sushigo:sound", NOTIFY_KEY = "sushigo:notify";
const MOTION_MS = 320;

/** Whether the player asked the system for less motion. */
export function reduced() { return !!(window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches); }

// ------------------------------------------------------------------------------------ notices

/** A notice the player must not miss (it stays until dismissed or the player acts again). */
export function notice(text) {
  $("noticeText").textContent = text;
  $("notice").classList.remove("hidden");
}
export function clearNotice() { $("notice").classList.add("hidden"); }

/** The server's ack: ``by: "timer"`` says the turn timer chose ``label`` for this seat. Called with no
 *  message when the page drops its selection itself (after switching seats). */
export function onAck(msg, label) {
  if (msg && msg.by === "timer") {
    notice(t("Time ran out: {action} was played for you.", { action: label || msg.action }));
    play("timer");
  } else { clearNotice(); actedAt = Date.now(); }
}

// ------------------------------------------------------------------------------------- motion

const counting = new Set();

/** Finishes every running animation and count at once (a click or key skips the motion). */
export function skipMotion() {
  if (document.getAnimations) for (const a of document.getAnimations()) { try { a.finish(); } catch (e) { a.cancel(); } }
  for (const el of counting) el.textContent = el.dataset.countTo;
  counting.clear();
}

/** Slides an area in from the side the cards came from (a hand or belt passed to this seat). */
function slideIn(el, from = -48) {
  if (!el || reduced() || !el.animate) return;
  el.animate([{ transform: `translateX(${from}px)`, opacity: 0.2 }, { transform: "none", opacity: 1 }], { duration: MOTION_MS, easing: "ease-out" });
}

/** Counts every number in `els` (their text, e.g. "14 pts") up from 0 over a short moment. */
export function countUp(els) {
  if (reduced()) return;
  const items = [...els].map((el) => {
    const text = el.textContent.trim();
    const m = /^(-?\d+)(.*)$/s.exec(text);
    if (!m) return null;
    const to = Number(m[1]);
    // "7 очков" but "1 очко": a points pill is written afresh for every number it shows on the way up.
    const pts = text === nt("{n} pt", "{n} pts", to, { n: num(to) });
    return { el, to, text: (n) => (pts ? nt("{n} pt", "{n} pts", n, { n: num(n) }) : num(n) + m[2]) };
  }).filter((x) => x && x.to > 0);
  if (!items.length) return;
  for (const it of items) { it.el.dataset.countTo = it.text(it.to); counting.add(it.el); }
  const t0 = performance.now();
  const step = (now) => {
    const k = Math.min(1, (now - t0) / 400);
    for (const it of items) if (counting.has(it.el)) it.el.textContent = it.text(Math.round(it.to * k));
    if (k < 1 && items.some((it) => counting.has(it.el))) requestAnimationFrame(step);
    else for (const it of items) counting.delete(it.el);
  };
  for (const it of items) it.el.textContent = it.text(0);
  requestAnimationFrame(step);
}

// ---------------------------------------------------------------------------------- your turn

const baseTitle = () => t("sushigo — table");
const baseIcon = "/static/logo.svg";
const TURN_ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#d64541"/>'
  + '<circle cx="16" cy="16" r="7" fill="#fff"/></svg>');
let myTurn = false;

function drawTurnMarks() {
  const on = myTurn && document.hidden;
  const title = on ? "● " + t("Your turn — sushigo") : baseTitle();
  if (document.title !== title) document.title = title;
  const icon = $("favicon");
  const href = on ? TURN_ICON : baseIcon;
  if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
}

let actedAt = 0;  // when this page's own action was last accepted

function turnStarted() {
  // A turn that follows the player's own move at once (every Sushi Go! turn) makes no fuss in front;
  // one that comes after a wait, or while the tab is hidden, chimes and vibrates.
  if (!document.hidden && Date.now() - actedAt < 3000) return;
  play("turn");
  try { if (navigator.vibrate && (!navigator.userActivation || navigator.userActivation.hasBeenActive)) navigator.vibrate([120, 60, 120]); } catch (e) { /* not allowed */ }
  if (document.hidden && $("notifySwitch").checked && window.Notification && Notification.permission === "granted") {
    try { new Notification(t("Your turn — sushigo"), { body: document.getElementById("title").textContent || t("Your table"), tag: "sushigo-turn", icon: baseIcon }); } catch (e) { /* not allowed here */ }
  }
}

// --------------------------------------------------------------------------------------- sound

let audio = null;
function ctx() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!audio) audio = new AC();
  if (audio.state === "suspended") audio.resume();
  return audio;
}

// Each sound: notes [frequency Hz, start s, length s], a wave shape and a volume; all under half a second.
const SOUNDS = {
  turn: { wave: "sine", vol: 0.18, notes: [[660, 0, 0.12], [880, 0.12, 0.18]] },
  reveal: { wave: "triangle", vol: 0.12, notes: [[520, 0, 0.06], [390, 0.05, 0.08]] },
  round: { wave: "sine", vol: 0.16, notes: [[523, 0, 0.12], [659, 0.1, 0.12], [784, 0.2, 0.22]] },
  chat: { wave: "sine", vol: 0.08, notes: [[1200, 0, 0.05]] },
  timer: { wave: "square", vol: 0.06, notes: [[440, 0, 0.1], [330, 0.12, 0.16]] },
};

/** Plays one of the table's sounds when the sound switch is on. */
export function play(name) {
  if (!$("soundSwitch") || !$("soundSwitch").checked) return;
  const s = SOUNDS[name], ac = ctx();
  if (!s || !ac) return;
  const t = ac.currentTime + 0.01;
  for (const [f, at, len] of s.notes) {
    const o = ac.createOscillator(), g = ac.createGain();
    o.type = s.wave; o.frequency.value = f;
    g.gain.setValueAtTime(0.0001, t + at);
    g.gain.exponentialRampToValueAtTime(s.vol, t + at + 0.01);
    g.gain.exponentialRampToValueAtTime(0.0001, t + at + len);
    o.connect(g).connect(ac.destination);
    o.start(t + at); o.stop(t + at + len + 0.02);
  }
}

// ------------------------------------------------------------------------------- the page's hooks

/** Called with every drawn state (after drawing): slides a passed hand in, plays the reveal sound, and
 *  marks the turn. ``prev`` is the state drawn before (null at first). */
export function onState(prev, msg, game) {
  const v = msg.view;
  const mine = S.mySeat != null && msg.table.status === "playing" && !v.is_over && v.legal.length > 0;
  if (mine && !myTurn) turnStarted();
  myTurn = mine;
  drawTurnMarks();
  if (!prev) return;
  const pv = prev.view;
  const moved = (v.round !== pv.round) || (v.turn !== pv.turn) || (v.cycle !== pv.cycle);
  if (moved && !v.is_over && S.mySeat != null) {
    // The hand passed (Sushi Go!, Party) or the belts moved on (Sushi Roll): the own area slides in.
    const right = game && game.passesRight ? game.passesRight(v) : false;
    slideIn($("hand").classList.contains("hidden") ? $("myBelt") : $("hand"), right ? 48 : -48);
  }
  if (msg.log && msg.log.entries.length && msg.log.start > 0) play(msg.log.entries.some((e) => e.end) ? "round" : "reveal");
}

/** A chat line arrived after the page had its state (the stored ones after a connect make no sound). */
export function onChat(lines) { if (S.last && lines.length < 3) play("chat"); }

/** The switches (sound off by default, remembered; notifications only when asked for), the motion skip. */
export function setupAlive() {
  const sound = $("soundSwitch"), notify = $("notifySwitch");
  sound.checked = store.get(SOUND_KEY) === "1";
  sound.onchange = () => { store.set(SOUND_KEY, sound.checked ? "1" : "0"); if (sound.checked) { ctx(); play("turn"); } };
  if (!window.Notification) { notify.closest("label").classList.add("hidden"); }
  else {
    notify.checked = store.get(NOTIFY_KEY) === "1" && Notification.permission === "granted";
    notify.onchange = async () => {
      if (notify.checked && Notification.permission !== "granted") {
        const p = await Notification.requestPermission().catch(() => "denied");
        if (p !== "granted") { notify.checked = false; notice(t("The browser does not allow notifications for this page.")); }
      }
      store.set(NOTIFY_KEY, notify.checked ? "1" : "0");
    };
  }
  $("noticeClose").onclick = clearNotice;
  document.addEventListener("visibilitychange", drawTurnMarks);
  window.addEventListener("sushigo:lang", drawTurnMarks);
  // Any click or key finishes the motion at once.
  document.addEventListener("pointerdown", skipMotion, true);
  document.addEventListener("keydown", skipMotion, true);
}
