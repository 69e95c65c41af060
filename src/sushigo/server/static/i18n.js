// The browser's half of the translations: every page loads this classic script first and draws its words
// through window.I18N. The messages come from GET /api/i18n/{lang} (the .po catalogues, every domain
// merged, keyed by msgid or ``ctx + "\u0004" + msgid``); plurals are picked with Intl.PluralRules, so
// Russian's one/few/many forms follow CLDR rather than an "n == 1" guess.
(function () {
"use strict";

/** The languages a player may choose, each named in its own language (the switch shows these). The
 *  pseudo-locale ``qps`` (every message wrapped in ⟦ ⟧, for the "no untranslated text" test) is
 *  accepted from ``?lang=`` or a stored choice but never offered. */
const LANGUAGES = [["en", "English"], ["ru", "Русский"], ["fr", "Français"], ["es", "Español"], ["zh-Hans", "简体中文"]];
const PSEUDO = "qps";
const CODES = LANGUAGES.map(([c]) => c);
const STORE = "sushigo:lang", COOKIE = "sushigo_lang";

/** A tag as a page, a cookie or a browser writes it (``ru-RU``, ``zh-hans``, ``zh-CN``) → one of ours, or null. */
function normalize(tag) {
  if (!tag) return null;
  const low = String(tag).trim().toLowerCase();
  if (low === PSEUDO) return PSEUDO;
  const exact = CODES.find((c) => c.toLowerCase() === low);
  if (exact) return exact;
  const base = low.split(/[-_]/)[0];
  if (base === "zh") return /hant|tw|hk|mo/.test(low) ? null : "zh-Hans";
  return CODES.find((c) => c === base) || null;
}

function stored() { try { return localStorage.getItem(STORE); } catch (e) { return null; } }

/** The first language: ``?lang=`` (a link that names one), else the player's stored choice, else the
 *  page's ``<html lang>`` (the server's pick from the cookie or Accept-Language), else English. Known at
 *  once, so scripts may fetch language-dependent data before the messages have come. */
function firstLanguage() {
  let query = null;
  try { query = new URLSearchParams(location.search).get("lang"); } catch (e) { /* no query */ }
  return normalize(query) || normalize(stored()) || normalize(document.documentElement.getAttribute("lang")) || "en";
}

let lang = firstLanguage();
let messages = {};
let plurals = null;
let loading = 0;  // the number of the latest switch: an older answer arriving late is dropped

/** The language Intl formats with (the pseudo-locale formats as English). */
function intlTag(code = lang) { return code === PSEUDO ? "en" : code; }
function pluralRules() {
  if (!plurals || plurals.tag !== lang) {
    let rules;
    try { rules = new Intl.PluralRules(intlTag()); } catch (e) { rules = new Intl.PluralRules("en"); }
    plurals = { tag: lang, rules };
  }
  return plurals.rules;
}

/** Puts ``params`` into ``{name}`` placeholders (unknown names stay as written, so a missing one shows). */
function fill(text, params) {
  if (!params) return text;
  return String(text).replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (all, name) => (Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : all));
}

function lookup(key) {
  const m = messages[key];
  return typeof m === "string" && m ? m : null;
}

/** A message in the current language (the English msgid while none is known), placeholders filled. */
function t(msgid, params) { return fill(lookup(msgid) ?? msgid, params); }
/** A message with a context (the same English words meaning different things). */
function tp(ctx, msgid, params) { return fill(lookup(ctx + "\u0004" + msgid) ?? msgid, params); }
/** A message whose form depends on a count ``n`` (``{n}`` is filled with the number as this language
 *  writes it unless ``params`` gives one). */
function nt(singular, plural, n, params) {
  const all = { n: num(n), ...(params || {}) };
  const forms = messages[singular];
  if (forms && typeof forms === "object") {
    const form = forms[pluralRules().select(n)] || forms.other;
    if (form) return fill(form, all);
  }
  return fill(n === 1 ? singular : plural, all);
}
/** A number as the language writes it (grouping, decimal sign). */
function num(n) {
  try { return new Intl.NumberFormat(intlTag()).format(n); } catch (e) { return String(n); }
}
/** A date and time as the language writes it (``ts``: a Date or epoch milliseconds). The pseudo-locale
 *  writes digits only (English month names or "AM" would read as untranslated words). */
function date(ts, options) {
  const d = ts instanceof Date ? ts : new Date(ts);
  const opts = lang === PSEUDO ? { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }
    : options || { dateStyle: "medium", timeStyle: "short" };
  try { return new Intl.DateTimeFormat(intlTag(), opts).format(d); } catch (e) { return d.toLocaleString(); }
}
/** "A, B and C" as the language joins a list (Intl.ListFormat; the pseudo-locale marks its own "and"). */
function list(items) {
  const all = [...items].map(String);
  if (lang === PSEUDO) return all.length > 1 ? `${all.slice(0, -1).join(", ")} ⟦&⟧ ${all[all.length - 1]}` : all.join("");
  try { return new Intl.ListFormat(intlTag(), { type: "conjunction" }).format(all); } catch (e) { return all.join(", "); }
}

/** Translates the marked elements under ``root``: ``data-i18n="msgid"`` sets the text, and
 *  ``data-i18n-<attr>="msgid"`` sets that attribute (``data-i18n-aria-label``, ``-title``, ``-placeholder``,
 *  ``-alt``). An empty ``data-i18n`` takes the element's English text as its msgid, an empty
 *  ``data-i18n-<attr>`` the attribute's English value (both remembered in the marker at the first pass,
 *  as the HTML extractor reads them). ``data-i18n-ctx`` gives the context of the element's messages. */
function apply(root) {
  const top = root || document;
  const els = [...top.querySelectorAll("*")];
  if (top.nodeType === 1) els.unshift(top);
  for (const el of els) {
    if (!el.attributes.length) continue;
    const ctx = el.getAttribute("data-i18n-ctx");
    const tr = (id) => (ctx ? tp(ctx, id) : t(id));
    for (const a of [...el.attributes]) {
      if (a.name === "data-i18n-ctx" || !a.name.startsWith("data-i18n")) continue;
      const attr = a.name === "data-i18n" ? null : a.name.slice(10);
      if (!a.value.trim()) {
        const english = attr ? el.getAttribute(attr) : el.textContent;
        if (!english || !english.trim()) continue;
        a.value = english.replace(/\s+/g, " ").trim();
      }
      if (attr) el.setAttribute(attr, tr(a.value)); else el.textContent = tr(a.value);
    }
  }
}

function remember(code) {
  try { localStorage.setItem(STORE, code); } catch (e) { /* private mode: the cookie still tells */ }
  document.cookie = `${COOKIE}=${encodeURIComponent(code)}; path=/; max-age=31536000; SameSite=Lax`;
}

/** Fetches ``code``'s messages (English needs none: the msgids are English). */
async function load(code) {
  if (code === "en") return {};
  const r = await fetch(`/api/i18n/${encodeURIComponent(code)}`);
  if (!r.ok) throw new Error(`GET /api/i18n/${code}: ${r.status}`);
  const doc = await r.json();
  return doc.messages || {};
}

function use(code, msgs) {
  lang = code;
  messages = msgs;
  plurals = null;
  document.documentElement.setAttribute("lang", code);
}
function show() {
  apply(document);
  document.documentElement.classList.remove("i18n-wait");
}

/** Switches the page to ``code`` without a reload: fetches its messages, sets ``<html lang>``, remembers
 *  the choice (localStorage and the ``sushigo_lang`` cookie the server reads), translates the marked
 *  elements and fires ``sushigo:lang`` (``detail.lang``) for the page to draw its own words again. */
async function setLang(code) {
  const want = normalize(code);
  if (!want) throw new Error(`unknown language ${code}; known: ${CODES.join(", ")}`);
  const mine = ++loading;
  const msgs = await load(want);
  if (mine !== loading) return lang;
  use(want, msgs);
  show();
  remember(want);
  window.dispatchEvent(new CustomEvent("sushigo:lang", { detail: { lang: want } }));
  return want;
}

// The page waits (hidden, at most a moment) for its first messages, so it never flashes English first.
// ``ready`` settles once they are in and the marked elements are translated (after the document is
// parsed), so a page that draws its own words after it is never overwritten by the first pass.
document.documentElement.classList.add("i18n-wait");
const first = lang;
const mine = ++loading;
const ready = load(first).then((msgs) => msgs, () => ({})).then((msgs) => new Promise((resolve) => {
  if (mine === loading) use(first, msgs);
  const done = () => {
    if (mine === loading) {
      show();
      // The server's cookie follows a choice made on another page (or in another tab) of this browser.
      if (stored() === first) remember(first);
    }
    resolve(lang);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", done, { once: true }); else done();
}));
setTimeout(() => document.documentElement.classList.remove("i18n-wait"), 1500);

/** Puts the language switch into ``container``: a labelled ``<select>`` with each language in its own
 *  name; choosing one switches at once. */
function mountSwitch(container) {
  if (!container) return null;
  const box = document.createElement("label");
  box.className = "lang-switch";
  const sel = document.createElement("select");
  sel.setAttribute("data-i18n-aria-label", "Language");
  sel.setAttribute("data-i18n-title", "Language");
  sel.setAttribute("aria-label", t("Language"));
  for (const [code, name] of LANGUAGES) {
    const o = document.createElement("option");
    o.value = code;
    o.textContent = name;
    o.lang = code;
    sel.append(o);
  }
  const sync = () => { sel.value = CODES.includes(lang) ? lang : ""; };
  sync();
  sel.addEventListener("change", () => { setLang(sel.value).catch(sync); });
  window.addEventListener("sushigo:lang", sync);
  box.append(sel);
  container.append(box);
  return sel;
}

window.I18N = {
  ready, lang: () => lang, setLang, t, tp, nt, num, date, list, fill, apply, mountSwitch,
  languages: LANGUAGES.map(([code, name]) => ({ code, name })), intlTag: () => intlTag(),
};
})();
