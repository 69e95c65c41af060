// Our own card and dice art: small SVG drawings on CSS cards. No external images.
(function () {
"use strict";

const ICONS = {
  tempura: `<ellipse cx="30" cy="34" rx="17" ry="10" fill="#f2b84b" stroke="#a86a12" stroke-width="2"/>
    <path d="M14 34 q-7 -9 -3 -15 q4 6 9 7" fill="#e4572e" stroke="#a33" stroke-width="1.5"/>
    <circle cx="24" cy="31" r="2" fill="#fff3"/><circle cx="33" cy="36" r="2" fill="#fff3"/><circle cx="40" cy="31" r="1.6" fill="#fff3"/>`,
  sashimi: `<rect x="10" y="24" width="40" height="14" rx="7" fill="#f08a7e" stroke="#b24a3d" stroke-width="2"/>
    <path d="M16 27 q4 5 0 9 M25 27 q4 5 0 9 M34 27 q4 5 0 9 M43 27 q3 5 0 9" stroke="#fff8" stroke-width="2" fill="none"/>
    <path d="M12 42 h36" stroke="#3a8f4f" stroke-width="3" stroke-linecap="round"/>`,
  dumpling: `<path d="M10 38 q20 -30 40 0 z" fill="#f6ead2" stroke="#9b7b4a" stroke-width="2"/>
    <path d="M16 32 l3 -4 M22 27 l2 -5 M30 25 v-5 M38 27 l-2 -5 M44 32 l-3 -4" stroke="#9b7b4a" stroke-width="2" stroke-linecap="round"/>`,
  maki: `<circle cx="30" cy="30" r="15" fill="#1f3b2a" stroke="#0d1f15" stroke-width="2"/>
    <circle cx="30" cy="30" r="10" fill="#fdfbf5"/><circle cx="30" cy="30" r="4.5" fill="#e4572e"/>`,
  nigiri: (topping) => `<rect x="12" y="31" width="36" height="13" rx="6" fill="#fdfbf5" stroke="#b9b2a0" stroke-width="2"/>
    ${topping}`,
  wasabi: `<path d="M18 42 q-6 -12 6 -18 q2 -9 10 -6 q9 -3 10 7 q7 8 -2 17 z" fill="#8cc63f" stroke="#4e7a1b" stroke-width="2"/>
    <circle cx="27" cy="30" r="2" fill="#fff6"/>`,
  chopsticks: `<path d="M14 48 L44 10 M22 50 L50 16" stroke="#8a5a2b" stroke-width="4" stroke-linecap="round"/>
    <path d="M38 18 L44 10 M45 24 L50 16" stroke="#e4572e" stroke-width="4" stroke-linecap="round"/>`,
  pudding: `<path d="M16 44 L20 24 h20 L44 44 z" fill="#f7c96b" stroke="#a87a1e" stroke-width="2"/>
    <path d="M20 24 h20 l-1 6 q-9 4 -18 0 z" fill="#7a3e12"/><ellipse cx="30" cy="45" rx="18" ry="3" fill="#ddd"/>`,
  soy_sauce: `<path d="M24 12 h12 v6 l5 8 v20 a4 4 0 0 1 -4 4 h-14 a4 4 0 0 1 -4 -4 v-20 l5 -8 z" fill="#4a2a1a" stroke="#22120a" stroke-width="2"/>
    <rect x="23" y="30" width="14" height="10" rx="2" fill="#e4572e"/><rect x="25" y="8" width="10" height="5" fill="#c33"/>`,
  menu: `<rect x="17" y="12" width="26" height="36" rx="3" fill="#fff" stroke="#555" stroke-width="2"/>
    <path d="M22 21 h16 M22 28 h16 M22 35 h10" stroke="#777" stroke-width="2.5" stroke-linecap="round"/>`,
};

const NIGIRI = {
  egg_nigiri: `<rect x="11" y="22" width="38" height="12" rx="5" fill="#ffd84d" stroke="#c79a00" stroke-width="2"/>
    <rect x="27" y="21" width="6" height="24" fill="#1f3b2a"/>`,
  salmon_nigiri: `<path d="M10 32 q20 -16 40 0 z" fill="#f59a6b" stroke="#c0582c" stroke-width="2"/>
    <path d="M18 29 l4 -5 M27 27 l3 -6 M36 27 l3 -5" stroke="#fff9" stroke-width="2"/>`,
  squid_nigiri: `<path d="M10 32 q20 -18 40 0 z" fill="#ded8ee" stroke="#6f6688" stroke-width="2"/>
    <path d="M16 30 q4 -5 8 0 q4 -5 8 0 q4 -5 8 0" stroke="#8f86a8" stroke-width="1.8" fill="none"/>`,
};

// ------------------------------------------------------------------------ Sushi Go Party! cards

Object.assign(ICONS, {
  temaki: `<path d="M14 16 L46 20 L30 52 z" fill="#1f3b2a" stroke="#0d1f15" stroke-width="2"/>
    <path d="M14 16 q16 -10 32 4 q-16 4 -32 -4" fill="#fdfbf5" stroke="#b9b2a0" stroke-width="1.5"/>
    <circle cx="24" cy="15" r="3" fill="#e4572e"/><circle cx="33" cy="16" r="3" fill="#8cc63f"/><circle cx="40" cy="18" r="2.5" fill="#f59a6b"/>`,
  uramaki: `<circle cx="30" cy="30" r="15" fill="#fdfbf5" stroke="#b9b2a0" stroke-width="2"/>
    <circle cx="30" cy="30" r="9" fill="#1f3b2a"/><circle cx="30" cy="30" r="5" fill="#f59a6b"/>
    <circle cx="22" cy="19" r="1.3" fill="#333"/><circle cx="38" cy="21" r="1.3" fill="#333"/><circle cx="40" cy="37" r="1.3" fill="#333"/><circle cx="20" cy="39" r="1.3" fill="#333"/>`,
  eel: `<rect x="11" y="33" width="38" height="11" rx="5" fill="#fdfbf5" stroke="#b9b2a0" stroke-width="2"/>
    <path d="M9 32 q10 -12 21 -4 q11 8 21 -4 l0 8 q-10 10 -21 2 q-11 -8 -21 4 z" fill="#6b3a1e" stroke="#3b1e0c" stroke-width="2"/>
    <path d="M14 29 l3 3 M24 26 l2 3 M36 30 l2 3 M45 27 l2 3" stroke="#c98b4a" stroke-width="1.5"/>`,
  tofu: `<path d="M14 26 l8 -8 h24 l-8 8 z" fill="#fffdf2" stroke="#a89c7c" stroke-width="2"/>
    <path d="M14 26 h24 v18 h-24 z" fill="#f6f0d8" stroke="#a89c7c" stroke-width="2"/><path d="M38 26 l8 -8 v18 l-8 8 z" fill="#e6dcb8" stroke="#a89c7c" stroke-width="2"/>`,
  edamame: `<path d="M12 40 q6 -20 22 -22 q12 -2 14 6 q-4 12 -20 18 q-10 4 -16 -2 z" fill="#7cbf3a" stroke="#3f6e16" stroke-width="2"/>
    <circle cx="22" cy="36" r="4.5" fill="#a6dc5c"/><circle cx="31" cy="30" r="4.5" fill="#a6dc5c"/><circle cx="40" cy="25" r="4" fill="#a6dc5c"/>`,
  miso_soup: `<path d="M10 28 h40 q-2 18 -20 20 q-18 -2 -20 -20 z" fill="#8a2d1c" stroke="#4a150c" stroke-width="2"/>
    <ellipse cx="30" cy="28" rx="20" ry="5" fill="#d9a35b" stroke="#4a150c" stroke-width="2"/>
    <rect x="22" y="25" width="5" height="4" fill="#fffdf2"/><rect x="32" y="26" width="5" height="4" fill="#fffdf2"/><path d="M24 14 q3 4 0 8 M33 12 q3 4 0 8" stroke="#9996" stroke-width="2" fill="none"/>`,
  spoon: `<ellipse cx="22" cy="20" rx="9" ry="12" transform="rotate(-35 22 20)" fill="#d9dde3" stroke="#5a606a" stroke-width="2"/>
    <path d="M28 27 L47 48" stroke="#5a606a" stroke-width="5" stroke-linecap="round"/>`,
  takeout_box: `<path d="M14 24 h32 l-4 24 h-24 z" fill="#fdfbf5" stroke="#7a6a5a" stroke-width="2"/>
    <path d="M14 24 l6 -10 h20 l6 10" fill="#efe5d6" stroke="#7a6a5a" stroke-width="2"/><path d="M22 14 q8 -10 16 0" fill="none" stroke="#7a6a5a" stroke-width="2"/>
    <path d="M24 34 h12" stroke="#d9482b" stroke-width="3"/>`,
  special_order: `<circle cx="30" cy="30" r="17" fill="#fff" stroke="#555" stroke-width="2"/>
    <path d="M30 15 l4 10 h10 l-8 7 l3 11 l-9 -6 l-9 6 l3 -11 l-8 -7 h10 z" fill="#f2a900" stroke="#a87a00" stroke-width="1.5"/>`,
  tea: `<path d="M15 22 h26 v14 q0 12 -13 12 q-13 0 -13 -12 z" fill="#d6e8c4" stroke="#4e7a1b" stroke-width="2"/>
    <path d="M41 26 q8 0 8 6 q0 6 -8 6" fill="none" stroke="#4e7a1b" stroke-width="2.5"/><ellipse cx="28" cy="23" rx="12" ry="3" fill="#8cc63f"/>
    <path d="M22 16 q3 -4 0 -8 M30 16 q3 -4 0 -8" stroke="#9996" stroke-width="2" fill="none"/>`,
  green_tea_ice_cream: `<path d="M20 34 L30 54 L40 34 z" fill="#e2b36a" stroke="#9a6a22" stroke-width="2"/>
    <path d="M23 38 l10 8 M26 35 l10 8" stroke="#9a6a22" stroke-width="1.2"/>
    <circle cx="30" cy="26" r="11" fill="#9fd07a" stroke="#4e7a1b" stroke-width="2"/><circle cx="26" cy="22" r="2" fill="#fff8"/>`,
  face_down: `<rect x="12" y="9" width="36" height="42" rx="5" fill="#2b2118" stroke="#0d0906" stroke-width="2"/>
    <circle cx="30" cy="30" r="9" fill="none" stroke="#d9482b" stroke-width="3"/><path d="M24 30 h12" stroke="#d9482b" stroke-width="3"/>`,
});
const ONIGIRI = {
  circle: `<circle cx="30" cy="31" r="15"/>`,
  triangle: `<path d="M30 13 L47 45 H13 z"/>`,
  square: `<rect x="16" y="17" width="28" height="28" rx="3"/>`,
  rectangle: `<rect x="11" y="21" width="38" height="20" rx="3"/>`,
};
const FRUIT = {
  w: `<path d="M-11 0 a11 11 0 0 0 22 0 z" fill="#e4572e" stroke="#2f8f4f" stroke-width="3"/><circle cx="-4" cy="3" r="1.2" fill="#222"/><circle cx="3" cy="4" r="1.2" fill="#222"/>`,
  p: `<ellipse cx="0" cy="3" rx="8" ry="10" fill="#f2b84b" stroke="#a86a12" stroke-width="2"/><path d="M-5 -6 l5 -8 l5 8" fill="#3a8f4f"/><path d="M-5 0 l10 6 M5 0 l-10 6" stroke="#a86a12" stroke-width="1"/>`,
  o: `<circle cx="0" cy="2" r="10" fill="#f28c28" stroke="#b45a0a" stroke-width="2"/><path d="M0 -8 q4 -5 8 -3" stroke="#3a8f4f" stroke-width="2.5" fill="none"/>`,
};
const NUMBERED = /^(chopsticks|spoon|menu|takeout_box)_(\d+)$/;

function partyIcon(name) {
  const num = NUMBERED.exec(name);
  if (num) return svg(ICONS[num[1]]);
  const ura = /^uramaki_(\d)$/.exec(name);
  if (ura) return svg(ICONS.uramaki);
  const oni = /^onigiri_(\w+)$/.exec(name);
  if (oni) return svg(`<g fill="#fdfbf5" stroke="#8a8270" stroke-width="2">${ONIGIRI[oni[1]] || ""}</g><rect x="24" y="36" width="12" height="10" fill="#1f3b2a"/>`);
  const fr = /^fruit_([wpo])([wpo])$/.exec(name);
  if (fr) return svg(`<g transform="translate(19 28)">${FRUIT[fr[1]]}</g><g transform="translate(41 34)">${FRUIT[fr[2]]}</g>`);
  return null;
}

// ------------------------------------------------------------------ card facts, from GET /api/games

// Every card's name, rule, face text and colour, the order of card types, the score categories' labels
// and Party's tiles come from the games' catalogues that
// GET /api/games serves (the card types themselves, sushigo.game.GameSpec.cards); nothing here restates
// them. The fetch starts as soon as this script runs; a page draws once ``ready`` has settled (it waits
// at most a few seconds, then draws with plain names and redraws through ``onCatalogue`` when it comes).
const catalogues = {}, specs = {};
let game = null;
const catalogueListeners = [];
const I18N = window.I18N;
const t = (msgid, params) => (I18N ? I18N.t(msgid, params) : String(msgid).replace(/\{(\w+)\}/g, (all, k) => (params && k in params ? String(params[k]) : all)));
/** GET /api/games in the page's language; again on every language switch, after which the window's
 *  ``sushigo:catalogue`` event tells the pages to draw the cards' new names (the first load fires it too). */
function fetchGames(lang) {
  const q = lang && lang !== "en" ? `?lang=${encodeURIComponent(lang)}` : "";
  return fetch(`/api/games${q}`).then((r) => (r.ok ? r.json() : Promise.reject(new Error(`GET /api/games: ${r.status}`))));
}
function useDoc(doc) {
  for (const k of Object.keys(specs)) delete specs[k];
  for (const k of Object.keys(catalogues)) delete catalogues[k];
  for (const g of doc.games || []) {
    specs[g.game] = g;
    catalogues[g.game] = {
      cards: new Map((g.cards || []).map((c) => [c.id, c])),
      tiles: new Map((g.tiles || []).map((x) => [x.id, x])),
      categories: new Map((g.categories || []).map((c) => [c.id, c])),
    };
  }
  // the new document first: a listener that asks for games() gets this language's, not the last one's
  gamesDoc = Promise.resolve(doc);
  catalogueListeners.splice(0).forEach((f) => f());
  // Not before the page's first messages are in: a page that redrew its own words then would draw them in
  // English and keep them (the lobby's "(recommended)" did, when /api/games answered first).
  (I18N ? I18N.ready : Promise.resolve()).then(() => {
    window.dispatchEvent(new CustomEvent("sushigo:catalogue", { detail: { lang: I18N ? I18N.lang() : "en" } }));
  });
  return doc;
}
let gamesDoc = fetchGames(I18N ? I18N.lang() : "en").then(useDoc);
gamesDoc.catch(() => {});
let asked = I18N ? I18N.lang() : "en";
window.addEventListener("sushigo:lang", (e) => {
  const lang = e.detail.lang;
  if (lang === asked) return;
  asked = lang;
  fetchGames(lang).then((doc) => { if (asked === lang) useDoc(doc); }, () => {});
});
/** Settles when the catalogues are here, or after ``ms`` milliseconds (the page then draws without). */
function ready(ms = 4000) {
  return Promise.race([gamesDoc.then(() => true, () => false), new Promise((res) => setTimeout(() => res(false), ms))]);
}
/** Calls ``f`` once when the catalogues arrive (at once if they are here). */
function onCatalogue(f) { if (Object.keys(catalogues).length) f(); else catalogueListeners.push(f); }
/** A game's spec as GET /api/games describes it (title, options with their labels, ...), or null
 *  before it has come. */
function gameSpec(name) { return specs[name] || null; }
/** Chooses the game whose catalogue names the cards (the table and the replay call it per view). */
function useGame(name) { game = name; }

function lookup(kind, id) {
  const own = catalogues[game];
  if (own && own[kind].has(id)) return own[kind].get(id);
  for (const c of Object.values(catalogues)) if (c[kind].has(id)) return c[kind].get(id);
  return null;
}
/** The catalogue entry of a card or die face (``id``, ``name``, ``label``, ``rule``, ``kind``, ``short``,
 *  ``colour``) in the current game, or null. */
function cardInfo(id) { return lookup("cards", id); }
/** A Party tile (card type) entry (``name``, ``rule``), or null. */
function tileInfo(id) { return lookup("tiles", id); }
/** An id in words while its catalogue is missing (``green_tea_ice_cream`` → "Green tea ice cream"). */
function plain(id) { const s = String(id).replace(/_/g, " "); return s.charAt(0).toUpperCase() + s.slice(1); }
/** A card's name that tells it apart (``Maki ×2``, ``Spoon #5``), for log lines and notes. */
function cardLabel(id) { const c = cardInfo(id); return c ? c.label : plain(id); }
/** A tile's title (``Green tea ice cream``). */
function tileTitle(id) { const x = tileInfo(id); return x ? x.name : plain(id); }
/** The type (Party: the tile) a card counts for: ``spoon_4`` → ``spoon``, ``salmon_nigiri`` → ``nigiri``. */
function tileOf(id) { const c = cardInfo(id); return c && c.kind ? c.kind : id; }
/** The current game's card types in its catalogue's order (Party: the menu's, then ``face_down``):
 *  the order a table groups cards in; empty before the catalogue has come. */
function typeOrder() {
  const own = catalogues[game];
  return own ? [...new Set([...own.cards.values()].map((c) => c.kind).filter(Boolean))] : [];
}
/** A score category's label (``Soy sauce``, ``Green tea ice cream``), from the game's spec. */
function categoryLabel(id) { const c = lookup("categories", id); return c ? c.label : plain(id); }

function svg(inner) {
  return `<svg viewBox="0 0 60 60" aria-hidden="true">${inner}</svg>`;
}

function iconFor(symbol, count) {
  if (symbol.startsWith("maki")) {
    const n = count || 1;
    let out = "";
    const spots = n === 1 ? [[30, 30]] : n === 2 ? [[19, 30], [41, 30]] : [[18, 22], [42, 22], [30, 42]];
    for (const [x, y] of spots) {
      const s = n === 1 ? 1 : 0.62;
      out += `<g transform="translate(${x - 30 * s} ${y - 30 * s}) scale(${s})">${ICONS.maki}</g>`;
    }
    return svg(out);
  }
  if (NIGIRI[symbol]) return svg(ICONS.nigiri(NIGIRI[symbol]));
  const party = partyIcon(symbol);
  if (party) return party;
  return svg(ICONS[symbol] || `<text x="30" y="36" text-anchor="middle" font-size="14">${symbol}</text>`);
}

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** A card title whose second word ("nigiri", "sauce") small cards leave out. */
function nameHTML(title) {
  const [first, ...rest] = title.split(" ");
  // A soft hyphen lets the longest name break on the narrowest cards.
  return esc(first).replace("Chopsticks", "Chop&shy;sticks") + (rest.length ? `<span class="long"> ${esc(rest.join(" "))}</span>` : "");
}

/** The rule of a card, for tips and screen readers (the catalogue's sentence; it begins with the name). */
function cardRule(name) { const c = cardInfo(name); return c ? c.rule : plain(name); }

/** Returns the HTML of one Sushi Go! card: a button to choose it, or (``static``) a focusable picture. */
function cardHTML(name, extra = {}) {
  const info = cardInfo(name);
  const title = info ? info.name : plain(name), rule = info ? info.short : "";
  // The card type's colour; a card without one (face down) shows its back; grey until the catalogue comes.
  const colour = info ? "col-" + (info.colour || "none") : "col-unknown";
  const num = NUMBERED.exec(name);
  const count = /^(uramaki|maki)_\d$/.test(name) ? Number(name.slice(-1)) : num ? Number(num[2]) : 0;
  const cls = ["card", colour, extra.small ? "small" : "", extra.selected ? "selected" : "", extra.picked ? "picked" : "", extra.onWasabi ? "on-wasabi" : "", extra.cls || ""].join(" ");
  const badge = extra.badge ? `<span class="badge" aria-hidden="true">${esc(extra.badge)}</span>` : "";
  const label = [cardRule(name), extra.note ? t("({note}).", { note: extra.note }) : "", extra.onWasabi ? t("On a wasabi.") : "",
    extra.selected ? t("Selected.") : "", extra.picked ? t("Your pick.") : ""].filter(Boolean).join(" ");
  // A numbered card's number (its place in the resolution order) sits in a corner, readable even small.
  const mark = !count || num ? "" : ` <span class="n">×${count}</span>`;
  const corner = num ? `<span class="num" aria-hidden="true">${count}</span>` : "";
  const note = extra.note ? `<span class="card-note">${esc(extra.note)}</span>` : "";
  // with the count marked (``×2``) the name drops its own count (``Maki 2`` shows as ``Maki ×2``)
  const shown = mark ? title.replace(/ \d+$/, "") : title;
  const inner = `${badge}${corner}<span class="card-art">${iconFor(name, count)}</span><span class="card-name">${nameHTML(shown)}${mark}</span>${note}${extra.small ? "" : `<span class="card-rule">${esc(rule)}</span>`}`;
  if (extra.static) return `<span class="${cls}" role="img" tabindex="0" data-card="${esc(name)}" data-tip="${esc(label)}" aria-label="${esc(label)}">${inner}</span>`;
  return `<button type="button" class="${cls}" data-card="${esc(name)}" ${extra.index !== undefined ? `data-index="${extra.index}"` : ""} ${extra.disabled ? "disabled" : ""} data-tip="${esc(label)}" aria-label="${esc(label)}" aria-pressed="${extra.selected ? "true" : "false"}">${inner}</button>`;
}

/** Splits a Sushi Roll face name (``pudding_2``, ``maki_3``, ``tempura``) into symbol and icon count. */
function parseFace(face) {
  const m = /^(.*?)(?:_(\d))?$/.exec(face);
  if (face.startsWith("maki_")) return ["maki", Number(face.slice(5))];
  return [m[1], m[2] ? Number(m[2]) : 1];
}

/** The name and rule of a die face, for tips and screen readers. */
function dieRule(face) { return cardRule(face); }

/** Returns the HTML of one Sushi Roll die: a button to choose it, or (``static``) a focusable picture. */
function dieHTML(face, extra = {}) {
  const [symbol, count] = parseFace(face);
  const info = cardInfo(face);
  const cls = ["die", "d-" + (info && info.colour ? info.colour : "none"), extra.selected ? "selected" : "", extra.small ? "small" : "", extra.cls || ""].join(" ");
  let art;
  if (symbol === "maki") art = iconFor("maki_" + count, count);
  else art = iconFor(symbol, 1);
  const times = symbol !== "maki" && count > 1 ? `<span class="die-count" aria-hidden="true">×${count}</span>` : "";
  const label = dieRule(face) + (extra.selected ? " " + t("Selected.") : "");
  if (extra.static) return `<span class="${cls}" role="img" tabindex="0" data-face="${esc(face)}" data-tip="${esc(label)}" aria-label="${esc(label)}">${art}${times}</span>`;
  return `<button type="button" class="${cls}" data-face="${esc(face)}" ${extra.pos !== undefined ? `data-pos="${extra.pos}"` : ""} ${extra.belt !== undefined ? `data-belt="${extra.belt}"` : ""} ${extra.disabled ? "disabled" : ""} data-tip="${esc(label)}" aria-label="${esc(label)}" aria-pressed="${extra.selected ? "true" : "false"}">${art}${times}</button>`;
}

/** Whether the device has no keyboard-and-mouse pointer (a phone or tablet): hints then leave out keys. */
function touchOnly() { return !!(window.matchMedia && window.matchMedia("(hover: none), (pointer: coarse)").matches); }

/** A table's name for this reader: the server's default name ("Sushi Go! for 2", stored in English) is
 *  worded in the reader's language from the game's title and the player count; a name someone gave is
 *  theirs and shown as given. */
function tableName(tb) {
  if (!tb) return "";
  const g = tb.default_name ? gameSpec(tb.game) : null;
  if (!g) return tb.name;
  return t("{game} for {n}", { game: g.title, n: I18N ? I18N.num(tb.players) : String(tb.players) });
}

window.SushiArt = { tableName, touchOnly, cardHTML, dieHTML, iconFor, esc, cardInfo, tileInfo, cardLabel, tileTitle, cardRule, dieRule, tileOf, typeOrder, categoryLabel, useGame, gameSpec, ready, onCatalogue, games: () => gamesDoc };
})();
