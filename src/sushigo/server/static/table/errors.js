// A refusal from the server in the reader's words. The server's `error` message carries a stable
// `code` (and, for a few, `params`: numbers only); its English `message` is for logs and other clients
// and is never shown here. The same codes come back from the HTTP API as "code: message" details.
import { num, t } from "./state.js";

const n = (p, k) => num(Number(p && p[k]) || 0);

/** Each code's text; a function when it has params or variants. */
const TEXTS = {
  "message/too_large": () => t("That message is too long for the server."),
  "message/malformed": () => t("The server did not understand that message."),
  "message/unknown_type": () => t("The server did not understand that message."),
  "auth/invalid": () => t("This seat link is not valid for this table."),
  "auth/ended": () => t("You were signed out, so this device no longer plays your seat. Sign in again to play it."),
  "auth/required": () => t("Take a seat to play."),
  "action/invalid": () => t("That move is not possible."),
  "action/illegal": () => t("That move is not allowed now."),
  "action/not_your_turn": () => t("It is not your turn."),
  "action/stale": () => t("The table has moved on; choose again."),
  "table/not_started": () => t("The game starts when every seat is taken."),
  "table/finished": () => t("The game is over."),
  "table/closed": () => t("This table is closed."),
  "table/moving": () => t("This table is moving to another server; try again in a moment."),
  "quickplay/waiting": () => t("You are already waiting at a quick play table."),
  "rated/limit": () => t("You have played as many rated games against bots as an hour allows; try again later or play unrated."),
  "table/full": () => t("Every seat at this table is taken."),
  "table/not_found": () => t("There is no table at this address. The link may be mistyped or out of date."),
  "seat/invalid": () => t("This seat cannot be taken."),
  "seat/taken": () => t("This seat is already taken."),
  "chat/closed": () => t("The chat closes when the game is over."),
  "chat/invalid": () => t("A chat line needs some visible text."),
  "chat/full": (p) => (p && p.spectators
    ? t("Spectators have said all this table keeps of them ({lines} lines); the rest is kept for the players.", { lines: n(p, "lines") })
    : t("This table's chat is full ({lines} lines).", { lines: n(p, "lines") })),
  "rate/limited": (p) => {
    if (p && p.burst != null && p.seconds != null) return t("At most {burst} chat lines at once, then one every {seconds} seconds.", { burst: n(p, "burst"), seconds: n(p, "seconds") });
    if (p && p.burst != null) return t("At most {burst} chat lines.", { burst: n(p, "burst") });
    return t("Too many messages; slow down.");
  },
  "name/invalid": () => t("A name needs at least one visible character."),
  "name/reserved": (p) => t("“{name}” is a name the table uses for others; choose another name.", { name: (p && p.name) || "" }),
  "name/taken": (p) => t("Someone at this table is already called “{name}” (or nearly so); choose another name.", { name: (p && p.name) || "" }),
  "seat/moved": () => t("Your seat was opened on another device; this page only watches now."),
  "seat/account_required": () => t("Only signed-in players may sit at a rated table."),
  "seat/not_seated": () => t("You have no seat at this table."),
  "seat/conceded": () => t("You conceded this game."),
  "table/account_required": () => t("Sign in to create a rated table."),
  "table/started": () => t("The game has already started."),
  "table/not_open": () => t("This table is no longer open."),
  "table/not_running": () => t("The game is not running."),
  "table/not_finished": () => t("The game is not over yet."),
  "table/not_creator": () => t("Only the table's creator can cancel it."),
  "table/cancelled": () => t("This table was cancelled."),
  "rematch/not_invited": () => t("No seat at the new table waits for you."),
  "auth/failed": () => t("Sign in again: your session has ended."),
  "csrf/failed": () => t("This page is out of date; reload it and try again."),
  "server/busy": () => t("The server is busy; try again later."),
  "server/error": () => t("The server could not do that; try again."),
};

/** The text of an `error` message (or an API refusal's code); `fallback` for a code this page does not know. */
export function errorText(msg, fallback) {
  const f = msg && TEXTS[msg.code];
  return f ? f(msg.params) : fallback || t("The server refused that.");
}
