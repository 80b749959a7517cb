// engine.js — the engine on the server: the page sends UCI lines to POST /command and hears the
// engine's lines on /events. Only the newest search's lines are passed on: the lines of a search
// the page has since stopped or replaced belong to another position.
import { INITIAL_FEN } from "chessops/fen"
import { status } from "./dom.js"
import { MATE_CP } from "./score.js"

let goSent = 0               // searches started ...
let bestmovesSeen = 0        // ... and finished: the newest is ours when they differ by one
let searchStopped = 0        // the newest search told to stop: its last lines are not for this position

export async function send(line) {
  const r = await fetch("/command", { method: "POST", body: line })
  if (!r.ok) status("engine refused: " + (await r.text()))
}

function positionCommand(game) {
  const start = game.startFen === INITIAL_FEN && !game.chess960 ? "startpos" : "fen " + game.startFen
  const moves = game.moves.map((m) => m.uci)
  return "position " + start + (moves.length ? " moves " + moves.join(" ") : "")
}

// A search on the game's position, `args` those of UCI's go.
export async function go(game, args) {
  goSent++
  await send(positionCommand(game))
  await send("go " + args)
}

// Every stop abandons the search: the position or the mode is about to change.
export async function stopSearch() {
  if (bestmovesSeen < goSent) {
    searchStopped = goSent
    await send("stop")
  }
}

// A search told to stop is abandoned: its last lines belong to the position before.
function newestSearchAbandoned() {
  return searchStopped === goSent
}

// Hears the engine: `onInfo(info)` for each line of the newest search with a principal variation
// (parseInfo), `onBestmove(uci)` when that search ends.
export function listen(onInfo, onBestmove) {
  const events = new EventSource("/events")
  events.onopen = () => status("connected")
  events.onerror = () => status("connection lost; retrying…")
  events.onmessage = (e) => engineLine(e.data, onInfo, onBestmove)
}

function engineLine(line, onInfo, onBestmove) {
  if (line.startsWith("bestmove")) {
    bestmovesSeen++
    if (bestmovesSeen === goSent && !newestSearchAbandoned()) onBestmove(line.split(" ")[1])
  } else if (line.startsWith("info ") && line.includes(" pv ") && bestmovesSeen === goSent - 1
             && !newestSearchAbandoned()) {
    onInfo(parseInfo(line))
  }
}

// An info line's numbers, its score in centipawns from the side to move's view (MATE_CP for
// mates) and its principal variation as UCI moves.
function parseInfo(line) {
  const t = line.split(" ")
  const info = { multipv: 1 }
  for (let i = 1; i < t.length; i++) {
    if (t[i] === "score") { info.score = t[i + 1] === "mate" ? Math.sign(+t[i + 2]) * (MATE_CP - Math.abs(+t[i + 2])) : +t[i + 2]; i += 2 }
    else if (t[i] === "pv") { info.pv = t.slice(i + 1); break }
    else if (["depth", "multipv", "nps", "nodes", "seldepth"].includes(t[i])) info[t[i]] = +t[++i]
  }
  return info
}
