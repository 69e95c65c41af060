// Shared drawing for the table page and the replay viewer: tableaux grouped as on a real table, trays,
// log lines, score tables, and keyed DOM patching (unchanged nodes are never rebuilt, so a click in
// progress is never lost to a re-render).
(function () {
"use strict";
const { cardHTML, dieHTML, esc, tileOf, typeOrder, cardInfo, cardLabel, tileTitle, categoryLabel } = window.SushiArt;
// Every word below goes through the message catalogue (i18n.js, loaded first by every page); numbers
// through I18N.num. A page without it (an older page) gets the English words.
const fill = (s, p) => String(s).replace(/\{(\w+)\}/g, (all, k) => (p && k in p ? String(p[k]) : all));
const I18N = window.I18N || { t: fill, tp: (c, m, p) => fill(m, p), nt: (one, many, n, p) => fill(n === 1 ? one : many, { n, ...(p || {}) }), num: String };
const t = (msgid, params) => I18N.t(msgid, params);
const tp = (ctx, msgid, params) => I18N.tp(ctx, msgid, params);
const nt = (singular, plural, n, params) => I18N.nt(singular, plural, n, params);
const num = (n) => I18N.num(n);

// ------------------------------------------------------------------------------------------ names
// Every name comes from the game's card catalogue (art.js, from GET /api/games).

/** A card as a log line names it (``Maki ×2``, ``Spoon #5``). */
function cardName(c) { return c == null ? t("nothing") : cardLabel(c); }
/** A card or type name as a spoon may name it (``maki`` is any maki, ``maki_2`` that card). */
function askName(x) { return cardInfo(x) ? cardName(x) : t("any {card}", { card: tileTitle(x) }); }
/** A die face's name (``Maki ×2``, ``Pudding ×3``). */
function faceName(f) { return cardLabel(f); }
/** Seat names, and a name for every further column of the view (Sushi Go!'s dummy is the third tableau
 *  of a two-player game). */
function seatNames(table, view) {
  const nm = table.seats.map((s, i) => s.name || t("Seat {n}", { n: i + 1 }));
  const columns = view && view.tableaux ? view.tableaux.length : nm.length;
  for (let i = nm.length; i < columns; i++) nm.push(t("Dummy"));
  return nm;
}

// -------------------------------------------------------------------------------------- patching

const shown = new WeakMap();
/** Sets an element's HTML only when it differs from what it shows. */
function setHTML(el, html) {
  if (!el || shown.get(el) === html) return;
  el.innerHTML = html;
  shown.set(el, html);
}
/** Makes ``el``'s children the given keyed items, keeping every node whose key and HTML are unchanged. */
function patchList(el, items) {
  const old = new Map();
  for (const n of [...el.children]) old.set(n.dataset.key, n);
  let i = 0;
  for (const it of items) {
    let node = old.get(it.key);
    if (!node || shown.get(node) !== it.html) {
      const t = document.createElement("template");
      t.innerHTML = it.html.trim();
      const fresh = t.content.firstElementChild;
      fresh.dataset.key = it.key;
      shown.set(fresh, it.html);
      if (node) node.replaceWith(fresh); 
      node = fresh;
    }
    old.delete(it.key);
    const at = el.children[i];
    if (at !== node) el.insertBefore(node, at || null);
    i++;
  }
  for (const n of old.values()) n.remove();
}
/** Keys items by their HTML plus an occurrence count (two identical cards get two keys). */
function keyed(htmls, prefix = "") {
  const seen = {};
  return htmls.map((html) => { const k = prefix + html; seen[k] = (seen[k] || 0) + 1; return { key: k + "#" + seen[k], html }; });
}

// -------------------------------------------------------------------------------------- tableaux

const ORDER = ["wasabi_pair", "wasabi", "egg_nigiri", "salmon_nigiri", "squid_nigiri", "maki", "tempura", "sashimi", "dumpling", "pudding", "chopsticks", "soy_sauce"];

/** Groups a Sushi Go! tableau as on a table: each nigiri on its wasabi, maki with its icon total. */
function groupTableau(cards, marks, fresh = new Set()) {
  const free = [], pairs = new Map(), groups = {};
  cards.forEach((c, i) => {
    if (c === "wasabi") free.push(i);
    else if (c.endsWith("nigiri") && marks[i] && free.length) pairs.set(free.shift(), i);
  });
  const onWasabi = new Set(pairs.values());
  const add = (kind, html, isFresh) => { (groups[kind] = groups[kind] || { cards: [], fresh: false }).cards.push(html); if (isFresh) groups[kind].fresh = true; };
  let makiIcons = 0;
  cards.forEach((c, i) => {
    if (onWasabi.has(i)) return;
    const f = fresh.has(i);
    if (c === "wasabi" && pairs.has(i)) {
      const n = pairs.get(i), nf = fresh.has(n);
      const pts = (cardInfo(cards[n]) || {}).on_wasabi || 0;
      // (messages stay outside template literals: Babel's extractor misses a t() nested in one)
      const title = nt("{card} on wasabi: {n} point", "{card} on wasabi: {n} points", pts, { card: cardName(cards[n]) });
      add("wasabi_pair", `<span class="stack pair" title="${esc(title)}">${cardHTML("wasabi", { small: true, static: true, cls: f ? "fresh" : "" })}${cardHTML(cards[n], { small: true, static: true, onWasabi: true, cls: nf ? "fresh" : "" })}<span class="cap">${pts}</span></span>`, f || nf);
      return;
    }
    if (c.startsWith("maki_")) makiIcons += Number(c.slice(5));
    const kind = c.startsWith("maki_") ? "maki" : c;
    add(kind, cardHTML(c, { small: true, static: true, cls: f ? "fresh" : "" }), f);
  });
  const caption = (kind, n) => {
    if (kind === "maki") return nt("{n} maki", "{n} maki", makiIcons);
    const counts = (cardInfo(kind) || {}).counts || [];  // tempura, sashimi, dumpling: from the catalogue
    if (counts.length) return "×" + num(n) + " · " + nt("{n} pt", "{n} pts", counts[Math.min(n, counts.length - 1)]);
    if (kind === "wasabi") return tp("wasabi", "free");
    return n > 1 ? `×${n}` : "";
  };
  return ORDER.filter((k) => groups[k]).map((k) => {
    const g = groups[k];
    const cap = k === "wasabi_pair" ? "" : caption(k, g.cards.length);
    return `<span class="grp ${g.fresh ? "has-fresh" : ""}" data-kind="${k}">${k === "wasabi_pair" ? g.cards.join("") : `<span class="stack">${g.cards.join("")}</span>`}${cap ? `<span class="cap">${esc(cap)}</span>` : ""}</span>`;
  }).join("");
}

// ---------------------------------------------------------------------------- Party tableaux

/** The name a Party tableau card counts as: a copy's copied card, ``face_down`` when turned over. */
function partyIdentity(c) { return c.face_down ? "face_down" : c.copies || c.card; }

/** Groups a Party tableau (view cards: ``card``, ``copies``, ``face_down``, ``on_wasabi``) by the
 *  type each card counts as; copies and face-down cards say what they are; maki and uramaki show icons. */
function partyTableau(cards, fresh = new Set(), refs = null, flip = null) {
  const groups = {};
  cards.forEach((c, i) => {
    const id = partyIdentity(c);
    const tile = tileOf(id);
    const g = (groups[tile] = groups[tile] || { cards: [], icons: 0, fresh: false, ids: new Set() });
    g.ids.add(id);
    if (/^(maki|uramaki)_\d$/.test(id)) g.icons += Number(id.slice(-1));
    let note = "";
    if (c.face_down) note = t("was {card}", { card: cardName(c.copies || c.card) });
    else if (c.copies) note = "= " + cardName(c.copies);
    const shown = c.face_down ? "face_down" : c.card;
    const opts = { small: true, static: true, note, onWasabi: !!c.on_wasabi, cls: fresh.has(i) ? "fresh" : "" };
    if (flip && refs && flip.can.has(refs[i])) {
      g.cards.push(cardHTML(shown, { ...opts, static: false, index: refs[i], selected: flip.chosen.has(refs[i]), cls: "flippable" }));
    } else g.cards.push(cardHTML(shown, opts));
    if (fresh.has(i)) g.fresh = true;
  });
  const caption = (tile, g) => {
    const n = g.cards.length;
    if (tile === "maki" || tile === "uramaki") return nt("{n} icon", "{n} icons", g.icons);
    if (tile === "wasabi") {
      const used = cards.filter((c) => c.on_wasabi && !c.face_down).length;
      return nt("{n} free", "{n} free", Math.max(0, n - used));
    }
    // "×4" only for four copies of one card; mixed cards of a type (egg, salmon, squid nigiri) are
    // counted by the type's name instead, so the stack never reads as copies of its top card.
    if (n > 1 && g.ids.size > 1) return t("{n} × {card}", { n: num(n), card: tileTitle(tile) });
    return n > 1 ? `×${n}` : "";
  };
  // Types in the catalogue's order (the menu's), then any other (before the catalogue came).
  const known = typeOrder();
  const order = [...known, ...Object.keys(groups).filter((k) => !known.includes(k))];
  return order.filter((k) => groups[k]).map((k) => {
    const g = groups[k], cap = caption(k, g);
    return `<span class="grp ${g.fresh ? "has-fresh" : ""}" data-kind="${k}"><span class="stack">${g.cards.join("")}</span>${cap ? `<span class="cap">${esc(cap)}</span>` : ""}</span>`;
  }).join("");
}

/** A Party seat's play of one turn in words: the card from the hand, then what chopsticks, a spoon,
 *  a menu or a takeout box added. */
function partyPlay(p, nm) {
  const bits = p.items.map((it, k) => {
    const card = it.card == null ? null : it.copies ? t("{card} copying {copied}", { card: cardName(it.card), copied: cardName(it.copies) }) : cardName(it.card);
    let text;
    if (!it.via) text = k === 0 ? t("played {card}", { card }) : t("added {card}", { card });
    else if (it.via.startsWith("spoon")) {
      const asked = { spoon: cardName(it.via), ask: askName(it.ask) };
      text = it.card == null ? t("{spoon} asked for {ask}: nobody had it", asked) : t("{spoon} asked for {ask}: got {card} from {player}", { ...asked, card, player: nm[it.from] ?? "?" });
    } else if (it.via.startsWith("menu")) text = t("{via} → {card} (drew 4, kept 1)", { via: cardName(it.via), card });
    else text = `${cardName(it.via)} → ${card}`;
    if (it.flip) text += t(", ") + (it.flip.length ? nt("turned {n} card face down", "turned {n} cards face down", it.flip.length) : t("turned nothing over"));
    return text;
  });
  return `<b>${esc(nm[p.seat])}</b> ${esc(bits.join(t("; ")))}`;
}

/** A Sushi Roll tray: faces in the order taken, each nigiri drawn on the wasabi it sits on. ``marks[i]``
 *  is the tray position of the wasabi under face ``i`` (the view's ``on_wasabi``, from the core). */
function trayHTML(faces, marks, fresh = new Set()) {
  const pairs = new Map();
  faces.forEach((_, i) => { if (marks && marks[i] != null) pairs.set(marks[i], i); });
  const on = new Set(pairs.values());
  let html = "";
  faces.forEach((f, i) => {
    if (on.has(i)) return;
    const cls = fresh.has(i) ? "fresh" : "";
    if (pairs.has(i)) {
      const n = pairs.get(i);
      const title = t("{face} on wasabi (×3)", { face: faceName(faces[n]) });
      html += `<span class="stack pair die-pair" title="${esc(title)}">${dieHTML(f, { small: true, static: true, cls })}${dieHTML(faces[n], { small: true, static: true, cls: fresh.has(n) ? "fresh" : "" })}</span>`;
    } else html += dieHTML(f, { small: true, static: true, cls });
  });
  return html;
}

// ------------------------------------------------------------------------ Party menu and house rules

/** The menu as a strip of tiles, each with its rule as a tip (the table's bar and the replay). */
function menuStrip(menu) {
  const rule = (t) => { const info = window.SushiArt.tileInfo(t); return info ? info.rule : tileTitle(t); };
  return `<span class="menu-strip" id="menuStrip">${(menu || []).map((x) => `<span class="tile" data-tile="${esc(x)}" data-tip="${esc(rule(x))}" tabindex="0">${esc(tileTitle(x))}</span>`).join("")}</span>`;
}

// ------------------------------------------------------------------------------------------- log

/** A round's end in the log (every game). */
function endLine(e, nm) {
  return `<li class="log-end"><b>${esc(t("Round {n} ends:", { n: num(e.round + 1) }))}</b> ${e.totals.map((p, s) => `${esc(nm[s] || t("Dummy"))} ${num(p)}`).join(t(", "))}</li>`;
}

// ---------------------------------------------------------------------------------------- scores

function head(labels) { return `<tr><th scope="col"></th>${labels.map((l) => `<th scope="col">${esc(l)}</th>`).join("")}</tr>`; }

/** A category in words ("Soy sauce", "Green tea ice cream"), as the game's spec labels it. */
function catLabel(c) { return categoryLabel(c); }

/** A round's points per category (``cats``: the game's, in its order), a row per category that scored,
 *  and the round total. */
function categoryTable(points, labels, cats) {
  let html = `<div class="scroll-x"><table class="scores">${head(labels)}`;
  for (const c of cats) {
    if (!points.some((p) => p[c])) continue;
    html += `<tr><td>${esc(catLabel(c))}</td>${points.map((p) => `<td>${num(p[c] || 0)}</td>`).join("")}</tr>`;
  }
  return html + `<tr class="total"><th scope="row">${esc(t("Round total"))}</th>${points.map((p) => `<th>${num(p.total)}</th>`).join("")}</tr></table></div>`;
}

/** The final table: a row per round, pudding points, token points (Sushi Roll), the total. */
function finalTable(final, labels) {
  let html = `<div class="scroll-x"><table class="scores final-table">${head(labels)}`;
  final.rounds.forEach((r, i) => { html += `<tr data-row="round"><td>${esc(t("Round {n}", { n: num(i + 1) }))}</td>${r.map((p) => `<td>${num(p)}</td>`).join("")}</tr>`; });
  const kept = t("(kept)"), puddings = t("Puddings");
  html += `<tr data-row="pudding"><td>${final.dessert ? `${esc(tileTitle(final.dessert))} <span class="muted">${esc(kept)}</span>` : esc(puddings)}</td>${final.pudding_points.map((p, s) => `<td>${num(p)} <span class="muted">(${num(final.pudding_counts[s])})</span></td>`).join("")}</tr>`;
  if (final.token_points) html += `<tr data-row="tokens"><td>${esc(t("Leftover tokens"))}</td>${final.token_points.map((p) => `<td>${num(p)}</td>`).join("")}</tr>`;
  return html + `<tr class="total" data-row="total"><th scope="row">${esc(t("Total"))}</th>${final.totals.map((p) => `<th>${num(p)}</th>`).join("")}</tr></table></div>`;
}

/** The categories a round's sheets name, in order of first appearance (Party: the menu's). */
function sheetCats(points) {
  const seen = [];
  for (const p of points) for (const k of Object.keys(p)) if (k !== "total" && !seen.includes(k)) seen.push(k);
  return seen;
}

/** One seat of a round-end view: its name, points, final tableau (``body``) and points per category. */
function endSeat(s, label, p, count, body, parts) {
  return `<div class="seat end-seat" data-seat="${s}" data-count="${count}"><h3><span>${esc(label)}</span><span class="pill">${esc(nt("{n} pt", "{n} pts", p.total))}</span></h3>
    <div class="tableau">${body || `<span class="muted">${esc(t("nothing"))}</span>`}</div><div class="muted">${esc(parts.join(" · ") || t("no points"))}</div></div>`;
}

window.SushiRender = { tileTitle, menuStrip, askName, partyTableau, partyPlay, partyIdentity, cardName, faceName, seatNames, setHTML, patchList, keyed, groupTableau, trayHTML, endLine, catLabel, categoryTable, finalTable, sheetCats, endSeat, head };
})();
