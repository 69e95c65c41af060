// The player's account on every page: the header's widget (sign in / create an account; when signed in
// the name linking to the profile, the account page and sign out), and the CSRF header.
//
// A signed-in page's state-changing requests must carry X-CSRF-Token (the session's `csrf`, from
// GET /api/me; docs/accounts.md). Rather than trust every script (the lobby, the table, the replay's
// analysis, the hint) to remember it, this classic script, loaded right after i18n.js, wraps
// window.fetch: a POST, PUT, PATCH or DELETE to this site's /api/ waits for /api/me's answer and gets
// the header; a `csrf/failed` refusal (the session changed in another tab) asks /api/me again and is
// sent once more. Guests send nothing extra. window.SushiAccount is the page's way to the account.
(function () {
"use strict";

const I = window.I18N;
const t = (msgid, params) => (I ? I.t(msgid, params) : msgid);
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const plainFetch = window.fetch.bind(window);
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

let me = null;        // the account's `Me` document, or null for a guest
let known = false;    // whether /api/me has answered once
let asking = null;    // the pending GET /api/me

/** Asks the server who this browser is (again when `fresh`); resolves to `Me` or null. */
function ask(fresh = false) {
  if (asking && !fresh) return asking;
  asking = plainFetch("/api/me", { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : null), () => null)
    .then((doc) => { set(doc && typeof doc.name === "string" ? doc : null); return me; });
  return asking;
}

function set(doc) {
  const was = me ? me.name : null;
  me = doc;
  known = true;
  draw();
  if ((me ? me.name : null) !== was || !changedOnce) {
    changedOnce = true;
    window.dispatchEvent(new CustomEvent("sushigo:account", { detail: { me } }));
  }
}
let changedOnce = false;

/** Whether `input` (a URL or a Request) names a state-changing request to this site's API. */
function guarded(input, init) {
  const method = String((init && init.method) || (input instanceof Request ? input.method : "GET")).toUpperCase();
  if (SAFE.has(method)) return false;
  try {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    return url.origin === location.origin && url.pathname.startsWith("/api/");
  } catch (e) { return false; }
}

function withToken(input, init) {
  const headers = new Headers((init && init.headers) || (input instanceof Request ? input.headers : undefined));
  if (me && me.csrf) headers.set("X-CSRF-Token", me.csrf);
  return { ...(init || {}), headers };
}

window.fetch = async function (input, init) {
  if (!guarded(input, init)) return plainFetch(input, init);
  await ask();
  const r = await plainFetch(input, withToken(input, init));
  if (r.status !== 403 || (input instanceof Request)) return r;
  const body = await r.clone().json().catch(() => null);
  if (!body || body.code !== "csrf/failed") return r;
  await ask(true);  // the session changed elsewhere (signed in or out in another tab): once more
  return plainFetch(input, withToken(input, init));
};

/** A refusal's code: the body's `code`, or the `code: words` its `detail` starts with. */
function codeOf(body) {
  if (body && typeof body.code === "string") return body.code;
  const m = /^([a-z_]+\/[a-z_]+):/.exec(String((body && body.detail) || ""));
  return m ? m[1] : null;
}

/** The server's refusal in the reader's words (the account's codes; `fallback` for others). */
function errorText(body, fallback) {
  const code = codeOf(body);
  const params = (body && body.params) || {};
  const words = {
    "auth/failed": () => t("Wrong name or password."),
    "auth/limited": () => t("Too many attempts; wait a few minutes and try again."),
    "auth/required": () => t("Sign in first."),
    "account/disabled": () => t("This account is disabled."),
    "account/limit": () => t("Too many accounts were created from this address; try again later."),
    "name/taken": () => t("This name is taken (or looks too much like one that is)."),
    "name/invalid": () => t("A name has 3 to 24 letters or digits; _ - . may stand between them."),
    "password/weak": () => t("A password has at least 10 characters and is not the name."),
    "password/wrong": () => t("The password is not right."),
    "csrf/failed": () => t("This page is out of date; reload it and try again."),
    "token/limit": () => t("An account has at most 5 API tokens; revoke one first."),
    "rate/limited": () => t("Too many requests; wait a minute and try again."),
  };
  if (code && words[code]) return words[code](params);
  return fallback || t("The server refused that.");
}

/** Sends a JSON request (through the wrapped fetch: the CSRF header is added); resolves to
 *  `{ok, status, body}`; a network failure is `{ok: false, status: 0}`. */
async function api(method, url, body) {
  try {
    const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
    if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    const r = await window.fetch(url, init);
    const data = r.status === 204 ? null : await r.json().catch(() => null);
    return { ok: r.ok, status: r.status, body: data };
  } catch (e) { return { ok: false, status: 0, body: null }; }
}

const profileHref = (name) => "/players/" + encodeURIComponent(name);

// ------------------------------------------------------------------------------------ the widget

let slot = null;

function mount() {
  slot = document.getElementById("account");
  if (!slot) {
    const header = document.querySelector("header.top");
    if (!header) return;
    slot = document.createElement("span");
    slot.id = "account";
    header.append(slot);
  }
  slot.classList.add("account");
  draw();
}

function draw() {
  if (!slot) return;
  if (!known) { slot.innerHTML = ""; return; }
  if (me) {
    slot.innerHTML = `<a class="account-name" id="accountName" href="${esc(profileHref(me.name))}" title="${esc(t("Your profile"))}">${esc(me.name)}</a>` +
      `<a href="/account" id="accountLink">${esc(t("Account"))}</a>` +
      `<button type="button" class="linkish" id="signOut">${esc(t("Sign out"))}</button>`;
    slot.querySelector("#signOut").onclick = signOut;
  } else {
    slot.innerHTML = `<button type="button" class="linkish" id="signIn">${esc(t("Sign in"))}</button>`;
    slot.querySelector("#signIn").onclick = () => openDialog("in");
  }
}

async function signOut() {
  await api("DELETE", "/api/session");
  set(null);
  location.reload();
}

// ------------------------------------------------------------------------------------ the dialog

let dialog = null, mode = "in";

function build() {
  dialog = document.createElement("dialog");
  dialog.id = "accountDialog";
  dialog.className = "panel account-dialog";
  dialog.setAttribute("aria-labelledby", "accountTitle");
  document.body.append(dialog);
  dialog.addEventListener("close", () => { dialog.querySelector("#accountPassword").value = ""; });
}

function drawDialog() {
  const create = mode === "create";
  const title = create ? t("Create an account") : t("Sign in");
  dialog.innerHTML = `<form method="dialog" id="accountForm" novalidate>
    <div class="bar"><h2 id="accountTitle">${esc(title)}</h2><button type="button" class="btn secondary" id="accountClose" aria-label="${esc(t("Close"))}">×</button></div>
    <p class="muted">${esc(create ? t("An account keeps your seats on every device, your rating and your game history. Guests can play without one.") : t("Your seats, rating and history follow you to every device where you sign in."))}</p>
    <label class="field"><span>${esc(t("Name"))}</span><input type="text" id="accountUser" name="username" maxlength="24" autocomplete="username" required></label>
    ${create ? `<p class="muted small">${esc(t("3 to 24 letters or digits; _ - . may stand between them."))}</p>` : ""}
    <label class="field"><span>${esc(t("Password"))}</span><input type="password" id="accountPassword" name="password" maxlength="200" autocomplete="${create ? "new-password" : "current-password"}" required></label>
    ${create ? `<p class="muted small">${esc(t("At least 10 characters, not your name."))}</p>` : ""}
    <div class="msg" id="accountMsg" role="alert"></div>
    <div class="row"><button class="btn" type="submit" id="accountSubmit">${esc(create ? t("Create account") : t("Sign in"))}</button>
      <button type="button" class="linkish dark" id="accountMode">${esc(create ? t("I have an account: sign in") : t("No account yet? Create one"))}</button></div>
  </form>`;
  dialog.querySelector("#accountClose").onclick = () => dialog.close();
  dialog.querySelector("#accountMode").onclick = () => {
    const name = dialog.querySelector("#accountUser").value;
    mode = create ? "in" : "create";
    drawDialog();
    dialog.querySelector("#accountUser").value = name;
    dialog.querySelector("#accountUser").focus();
  };
  dialog.querySelector("#accountForm").addEventListener("submit", (e) => { e.preventDefault(); submit(); });
}

/** Opens the sign-in ("in") or create-account ("create") dialog. */
function openDialog(which = "in") {
  if (!dialog) build();
  mode = which;
  drawDialog();
  if (!dialog.open) dialog.showModal();
  dialog.querySelector("#accountUser").focus();
}

async function submit() {
  const name = dialog.querySelector("#accountUser").value.trim();
  const password = dialog.querySelector("#accountPassword").value;
  const msg = dialog.querySelector("#accountMsg");
  if (!name || !password) { msg.textContent = t("Enter a name and a password."); return; }
  const button = dialog.querySelector("#accountSubmit");
  button.disabled = true;
  const r = await api("POST", mode === "create" ? "/api/account" : "/api/session", { name, password });
  button.disabled = false;
  if (!r.ok) {
    msg.textContent = r.status === 0 ? t("The server cannot be reached; try again.") : errorText(r.body, t("That did not work; try again."));
    return;
  }
  dialog.querySelector("#accountPassword").value = "";
  dialog.close();
  set(r.body && r.body.name ? r.body : null);
  // Every page draws its seats and choices for who the player is: start it again as the account.
  location.reload();
}

window.addEventListener("sushigo:lang", () => { draw(); if (dialog && dialog.open) { const name = dialog.querySelector("#accountUser").value; drawDialog(); dialog.querySelector("#accountUser").value = name; } });
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount, { once: true }); else mount();
if (I && I.ready) I.ready.then(draw, draw);  // the first words in the page's language
ask();

window.SushiAccount = {
  /** Resolves to the signed-in account's `Me` document, or null for a guest. */
  me: () => ask(),
  /** The account now (null for a guest or before /api/me has answered). */
  current: () => me,
  known: () => known,
  refresh: () => ask(true),
  openDialog, api, errorText, codeOf, profileHref, esc,
};
})();
