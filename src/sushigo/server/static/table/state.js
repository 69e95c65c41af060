// The table page's shared state and the few helpers every part uses (native ES module, no build step).
// art.js and render.js are classic scripts (the lobby and the replay use them too): they are read here
// from window.SushiArt and window.SushiRender.

export const $ = (id) => document.getElementById(id);
export const A = window.SushiArt;
export const R = window.SushiRender;
export const { esc } = A;

// Every word the table shows goes through the page's catalogue (window.I18N, /static/i18n.js): `t`,
// `tp` (with a context) and `nt` (plural) take the English text as the key and `{name}` placeholders.
// Until the catalogue is there (or if i18n.js failed) the English text is shown, formatted the same way.
const fill = (text, params) => String(text).replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
const I = () => window.I18N;
export const t = (msgid, params) => (I() ? I().t(msgid, params) : fill(msgid, params));
export const tp = (ctx, msgid, params) => (I() ? I().tp(ctx, msgid, params) : fill(msgid, params));
export const nt = (one, many, n, params) => (I() ? I().nt(one, many, n, params) : fill(n === 1 ? one : many, { n, ...params }));
/** A translated template (`t("{name} took {cards}")`, unfilled) as HTML: its words escaped, each
 *  `{placeholder}` replaced by the HTML given for it (`<b>Ann</b>`). */
export function fillHTML(template, params) {
  return esc(template).replace(/\{(\w+)\}/g, (m, k) => (Object.prototype.hasOwnProperty.call(params, k) ? String(params[k]) : m));
}
/** A number as the reader's language writes it. */
export const num = (n) => (I() ? I().num(n) : String(n));
/** A list of names joined as the reader's language joins them ("Ann, Bob and Cy"). */
export function list(items) {
  if (I() && I().list) return I().list(items);
  try { return new Intl.ListFormat(I() ? I().lang() : "en", { type: "conjunction" }).format(items); } catch (e) { return items.join(", "); }
}

const tableId = decodeURIComponent(location.pathname.split("/").pop());

/** Everything the page knows; `last` is the latest `state` message. Game-specific selection state lives
 *  in each game's module (games/*.js), never here. */
export const S = {
  tableId,
  storeKey: "sushigo:" + tableId,
  endKey: "sushigo:roundend:" + tableId,
  saved: loadSeat("sushigo:" + tableId),
  ws: null,
  mySeat: null,
  last: null,
  logEntries: [],
  timerEnd: null,
  changeTo: null,
  prevView: null,
};

// The seat this device holds at this table, `{token, seat, name}`, kept in localStorage. Only a token the
// server accepted is stored: a join's answer, or a seat link once its welcome came (and, when this device
// already held a seat, only after the player chose to switch; see connection.js).
function loadSeat(key) {
  try {
    const saved = JSON.parse(localStorage.getItem(key) || "null");
    return saved && typeof saved.token === "string" ? saved : null;
  } catch (e) { return null; }
}

/** Stores the seat this device holds here (replacing the one it held). */
export function keepSeat(saved) { S.saved = saved; localStorage.setItem(S.storeKey, JSON.stringify(saved)); }

/** Forgets the stored seat: only when the server rejected that very token. */
export function forgetSeat() { S.saved = null; localStorage.removeItem(S.storeKey); }

export function showMsg(text) { $("msg").textContent = text || ""; }

/** The legal action object whose text is `text`, if any (the server lists them in `view.legal`). */
export function legalAction(text) { return S.last && S.last.view.legal.find((a) => a.text === text); }

/** Sends an action text the server listed as legal now. */
export function send(text) {
  if (!legalAction(text)) { showMsg(t("That is not a legal move now.")); return; }
  S.ws.send(JSON.stringify({ type: "action", action: text, state_id: S.last.state_id }));
}

/** Takes the seat's pending secret pick back. */
export function withdraw() { S.ws.send(JSON.stringify({ type: "action", action: "withdraw", state_id: S.last.state_id })); }

/** Replaces the pending pick: take it back, then (on that ack) send the new one. */
export function changePick(text) { S.changeTo = text; withdraw(); }

/** Seat names as the table shows them (a game may rename a column, e.g. Sushi Go!'s dummy). A bot the
 *  server named itself ("Random bot 2", its kind and seat) is called "Bot 2" in the reader's language. */
export function seatNames(msg) {
  return R.seatNames(msg.table, msg.view).map((n, i) => botName(msg.table.seats[i], i) || n);
}

/** Python's ``str.title()``: the server's default bot name ("mcts" → "Mcts bot 2"). */
const title = (w) => w.toLowerCase().replace(/(^|[^a-z])([a-z])/g, (m, a, b) => a + b.toUpperCase());
function botName(seat, i) {
  if (!seat || seat.kind !== "bot" || !seat.bot || seat.name !== `${title(seat.bot)} bot ${i + 1}`) return null;
  return t("Bot {n}", { n: num(i + 1) });
}

/** "Waiting for you, Ann…" for the seats in `to_act` (always a list). */
export function waitingFor(v, nm) {
  if (!v.to_act.length) return "";
  const others = v.to_act.filter((s) => s !== S.mySeat).map((s) => nm[s]);
  if (!v.to_act.includes(S.mySeat)) return t("Waiting for {names}…", { names: list(others) });
  return others.length ? t("Waiting for you and {names}…", { names: list(others) }) : t("Waiting for you…");
}

/** Shows the own-area (hand or belt) for a seated player while the game is on; returns whether shown. */
export function showMine(v, { belt = false } = {}) {
  const mine = S.mySeat != null && !v.is_over;
  $("mine").classList.toggle("hidden", !mine);
  $("hand").classList.toggle("hidden", belt);
  $("myBelt").classList.toggle("hidden", !belt);
  return mine;
}
