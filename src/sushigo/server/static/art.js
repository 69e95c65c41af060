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

const CARD_INFO = {
  tempura: ["Tempura", "c-purple", "5 per pair"],
  sashimi: ["Sashimi", "c-green", "10 per 3"],
  dumpling: ["Dumpling", "c-blue", "1 3 6 10 15"],
  maki_1: ["Maki", "c-red", "1 roll"],
  maki_2: ["Maki", "c-red", "2 rolls"],
  maki_3: ["Maki", "c-red", "3 rolls"],
  egg_nigiri: ["Egg nigiri", "c-yellow", "1"],
  salmon_nigiri: ["Salmon nigiri", "c-yellow", "2"],
  squid_nigiri: ["Squid nigiri", "c-yellow", "3"],
  wasabi: ["Wasabi", "c-yellow", "×3 next nigiri"],
  chopsticks: ["Chopsticks", "c-lightblue", "take 2 later"],
  pudding: ["Pudding", "c-pink", "end of game"],
  soy_sauce: ["Soy sauce", "c-brown", "4 for most colours"],
};

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
  return svg(ICONS[symbol] || `<text x="30" y="36" text-anchor="middle" font-size="14">${symbol}</text>`);
}

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

const CARD_RULES = {
  tempura: "Tempura: 5 points for each pair.",
  sashimi: "Sashimi: 10 points for each set of three.",
  dumpling: "Dumplings: 1, 3, 6, 10, 15 points for 1 to 5 or more.",
  maki_1: "Maki (1 roll): most rolls score 6, second most 3.",
  maki_2: "Maki (2 rolls): most rolls score 6, second most 3.",
  maki_3: "Maki (3 rolls): most rolls score 6, second most 3.",
  egg_nigiri: "Egg nigiri: 1 point (3 on a wasabi).",
  salmon_nigiri: "Salmon nigiri: 2 points (6 on a wasabi).",
  squid_nigiri: "Squid nigiri: 3 points (9 on a wasabi).",
  wasabi: "Wasabi: triples the next nigiri you take.",
  chopsticks: "Chopsticks: later, take two cards in one turn; the chopsticks go back into the hand.",
  pudding: "Pudding: at the end of the game most puddings score 6, fewest lose 6.",
  soy_sauce: "Soy sauce: 4 points if you have the most colours this round.",
};

/** A card title whose second word ("nigiri", "sauce") small cards leave out. */
function nameHTML(title) {
  const [first, ...rest] = title.split(" ");
  // A soft hyphen lets the longest name break on the narrowest cards.
  return esc(first).replace("Chopsticks", "Chop&shy;sticks") + (rest.length ? `<span class="long"> ${esc(rest.join(" "))}</span>` : "");
}

/** The name and rule of a card, for tips and screen readers. */
function cardRule(name) { return CARD_RULES[name] || (CARD_INFO[name] || [name])[0]; }

/** Returns the HTML of one Sushi Go! card: a button to choose it, or (``static``) a focusable picture. */
function cardHTML(name, extra = {}) {
  const [title, colour, rule] = CARD_INFO[name] || [name, "c-grey", ""];
  const count = name.startsWith("maki_") ? Number(name.slice(5)) : 0;
  const cls = ["card", colour, extra.small ? "small" : "", extra.selected ? "selected" : "", extra.picked ? "picked" : "", extra.onWasabi ? "on-wasabi" : "", extra.cls || ""].join(" ");
  const badge = extra.badge ? `<span class="badge" aria-hidden="true">${esc(extra.badge)}</span>` : "";
  const label = cardRule(name) + (extra.onWasabi ? " On a wasabi." : "") + (extra.selected ? " Selected." : "") + (extra.picked ? " Your pick." : "");
  const inner = `${badge}<span class="card-art">${iconFor(name, count)}</span><span class="card-name">${nameHTML(title)}${count ? ` <span class="n">×${count}</span>` : ""}</span>${extra.small ? "" : `<span class="card-rule">${esc(rule)}</span>`}`;
  if (extra.static) return `<span class="${cls}" role="img" tabindex="0" data-card="${esc(name)}" data-tip="${esc(label)}" aria-label="${esc(label)}">${inner}</span>`;
  return `<button type="button" class="${cls}" data-card="${esc(name)}" ${extra.index !== undefined ? `data-index="${extra.index}"` : ""} ${extra.disabled ? "disabled" : ""} data-tip="${esc(label)}" aria-label="${esc(label)}" aria-pressed="${extra.selected ? "true" : "false"}">${inner}</button>`;
}

const DIE_CLASS = { dumpling: "d-blue", tempura: "d-blue", sashimi: "d-blue", maki: "d-red", egg_nigiri: "d-white", salmon_nigiri: "d-white", squid_nigiri: "d-white", wasabi: "d-green", chopsticks: "d-green", menu: "d-green", pudding: "d-pink" };

/** Splits a Sushi Roll face name (``pudding_2``, ``maki_3``, ``tempura``) into symbol and icon count. */
function parseFace(face) {
  const m = /^(.*?)(?:_(\d))?$/.exec(face);
  if (face.startsWith("maki_")) return ["maki", Number(face.slice(5))];
  return [m[1], m[2] ? Number(m[2]) : 1];
}

const DIE_RULES = {
  maki: "most maki icons score 6, second most 3",
  tempura: "tempura icons: 1, 5, 10 points for 1, 2, 3 (sets of three repeat)",
  sashimi: "sashimi icons: 0, 6, 13 points for 1, 2, 3 (sets of three repeat)",
  dumpling: "dumpling icons: 2, 4, 8 points for 1, 2, 3 (sets of three repeat)",
  egg_nigiri: "1 point, 3 on a wasabi", salmon_nigiri: "2 points, 6 on a wasabi", squid_nigiri: "3 points, 9 on a wasabi",
  wasabi: "triples the next nigiri you take this round",
  menu: "gives a menu token: spend it to re-roll dice on your belt",
  chopsticks: "gives a chopsticks token: spend it to swap a die with another belt",
  pudding: "gives pudding tokens: most at the end score 6, fewest lose 6",
};

/** The name and rule of a die face, for tips and screen readers. */
function dieRule(face) {
  const [symbol, count] = parseFace(face);
  const name = symbol.replace(/_/g, " ");
  return `${name.charAt(0).toUpperCase() + name.slice(1)}${count > 1 || symbol === "maki" ? " ×" + count : ""}: ${DIE_RULES[symbol] || ""}.`;
}

/** Returns the HTML of one Sushi Roll die: a button to choose it, or (``static``) a focusable picture. */
function dieHTML(face, extra = {}) {
  const [symbol, count] = parseFace(face);
  const cls = ["die", DIE_CLASS[symbol] || "d-white", extra.selected ? "selected" : "", extra.small ? "small" : "", extra.cls || ""].join(" ");
  let art;
  if (symbol === "maki") art = iconFor("maki_" + count, count);
  else art = iconFor(symbol, 1);
  const times = symbol !== "maki" && count > 1 ? `<span class="die-count" aria-hidden="true">×${count}</span>` : "";
  const label = dieRule(face) + (extra.selected ? " Selected." : "");
  if (extra.static) return `<span class="${cls}" role="img" tabindex="0" data-face="${esc(face)}" data-tip="${esc(label)}" aria-label="${esc(label)}">${art}${times}</span>`;
  return `<button type="button" class="${cls}" data-face="${esc(face)}" ${extra.pos !== undefined ? `data-pos="${extra.pos}"` : ""} ${extra.belt !== undefined ? `data-belt="${extra.belt}"` : ""} ${extra.disabled ? "disabled" : ""} data-tip="${esc(label)}" aria-label="${esc(label)}" aria-pressed="${extra.selected ? "true" : "false"}">${art}${times}</button>`;
}

window.SushiArt = { cardHTML, dieHTML, iconFor, esc, CARD_INFO, cardRule, dieRule };
})();
