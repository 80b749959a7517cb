// pgn.js — games in and out as PGN: an import (pasted or from a file) read by chessops in the
// page, an export written by the engine's own PGN writer on the server (POST /pgn).
import { makeFen, INITIAL_FEN } from "chessops/fen"
import { parseSan } from "chessops/san"
import { parsePgn, startingPosition } from "chessops/pgn"
import { $, status } from "./dom.js"
import { Game } from "./game.js"
import { state } from "./state.js"
import { send, stopSearch } from "./engine.js"
import { setMode } from "./position.js"
import { endReview } from "./reviewed.js"

export async function importPgn(text) {
  const games = parsePgn(text)
  if (!games.length) return status("no game in that PGN")
  const headers = games[0].headers
  const start = startingPosition(headers)
  if (start.isErr) return status("cannot read that PGN's start position")
  const chess960 = /960|fischer/i.test(headers.get("Variant") || "")
  const game = new Game(makeFen(start.value.toSetup()), chess960)
  for (const node of games[0].moves.mainline()) {
    const move = parseSan(game.pos, node.san)
    if (!move) return status(`cannot read the move ${node.san} of that PGN`)
    game.play(move)
  }
  await stopSearch()
  await send(`setoption name UCI_Chess960 value ${chess960}`)
  state.game = game
  $("chess960").checked = chess960
  endReview()
  state.evals = []
  state.over = false
  document.querySelector("input[value=analyse]").checked = true
  await setMode("analyse")
  status(`PGN imported: ${game.moves.length} plies`)
}

// A game as the server's PGN routes (/pgn, /review) take it: lines "fen", "chess960", "white",
// "black", "moves" (src/web/web_session.h).
export function pgnRequest(game) {
  const human = "You", engine = "bachess"
  const lines = []
  if (game.startFen !== INITIAL_FEN || game.chess960) lines.push("fen " + game.startFen)
  if (game.chess960) lines.push("chess960")
  lines.push("white " + (state.mode === "play" && state.human === "b" ? engine : human))
  lines.push("black " + (state.mode === "play" && state.human === "b" ? human : engine))
  lines.push("moves " + game.moves.map((m) => m.uci).join(" "))
  return lines.join("\n")
}

export async function exportPgn() {
  const r = await fetch("/pgn", { method: "POST", body: pgnRequest(state.game) })
  const text = await r.text()
  if (!r.ok) return status("PGN export failed: " + text)
  $("pgn").value = text
  const link = $("download-pgn")
  link.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }))
  link.hidden = false
  link.click()
  status("PGN exported")
}
