// The one place a game's name chooses its module; every other script asks the module it got here.
// A game module exports: info, seats (and seatsClass), mine, key, reset, redraw, scores, freshRound,
// logLine, roundEnd, replaySeat, columns, replayWhen (and Party's replayInfo).
import * as sushiGo from "./sushi_go.js";
import * as sushiRoll from "./sushi_roll.js";
import * as party from "./party.js";

export const GAMES = { "sushi-go": sushiGo, "sushi-roll": sushiRoll, "sushi-go-party": party };

/** The module of the game a view is from. */
export function gameOf(view) { return GAMES[view.game]; }

/** One log entry as HTML: a round's end reads the same in every game. */
export function logLine(game, e, nm) { return e.end ? window.SushiRender.endLine(e, nm) : game.logLine(e, nm); }
