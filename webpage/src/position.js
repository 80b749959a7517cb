// position.js — the position shown and the engine on it. After every change of the position the
// board, the move list and the status are redrawn and the engine set to work: in Analyse mode it
// thinks on the position (its lines, the evaluation and the best move shown as they come), in
// Play mode it chooses its move when it is its turn, on the clocks.
import { ARROW_TYPE } from "cm-chessboard/src/extensions/arrows/Arrows.js"
import { $, status } from "./dom.js"
import { formatScore } from "./score.js"
import { moveNumber } from "./game.js"
import { state } from "./state.js"
import { go, send, stopSearch } from "./engine.js"
import { board, drawBestArrow } from "./board.js"
import { startClock, stopClock } from "./clocks.js"
import { drawEvalBar, drawGraph } from "./graph.js"
import { onReviewedGame, endReview, drawReviewedMoves } from "./reviewed.js"

let lines = []               // analysis lines by multipv index
let playSearchFen = null     // the position the engine was asked to play in

function whiteView(score) { return state.game.turn() === "w" ? score : -score }

// An info line of the engine's search on the position shown (engine.js, listen).
export function searchInfo(info) {
  if (info.score === undefined || !info.pv) return
  const white = whiteView(info.score)
  if (info.multipv === 1) {
    state.evals[state.game.history().length] = white
    drawEvalBar(white)
    drawGraph()
    drawBestArrow(info.pv[0])
    $("search-stats").textContent = `depth ${info.depth}  ${Math.round((info.nps || 0) / 1000)} kN/s`
  }
  if (state.mode === "analyse") {
    lines[info.multipv - 1] = `${formatScore(white)}  ${state.game.sanLine(info.pv)}`
    $("lines").innerHTML = ""
    for (const text of lines) {
      const li = document.createElement("li")
      li.textContent = text || ""
      $("lines").appendChild(li)
    }
  }
}

// The end of the engine's search: in Play mode, its move.
export function searchFinished(best) {
  if (state.mode !== "play" || state.over || playSearchFen !== state.game.fen()) return
  stopClock()
  const move = state.game.fromUci(best)
  if (!move) return status("the engine's move " + best + " is not legal here")
  state.game.play(move)
  afterMove()
}

function startThinking() {
  $("lines").innerHTML = ""
  lines = []
  board.removeArrows(ARROW_TYPE.info)
  if (state.over) return
  if (state.mode === "analyse") go(state.game, "infinite")
  else if (state.game.turn() !== state.human) {
    playSearchFen = state.game.fen()
    const c = state.clocks
    go(state.game, `wtime ${Math.round(c.w)} btime ${Math.round(c.b)} winc ${state.increment} binc ${state.increment}`)
  }
  if (state.mode === "play") startClock()
}

export async function humanMove(move) {
  await stopSearch()
  if (state.mode === "play") stopClock()
  state.game.play(move)
  afterMove()
}

// Returns when the board shows the new position.
export function afterMove() {
  const drawn = board.setPosition(state.game.fen(), true)
  if (state.review && !onReviewedGame()) endReview()
  board.removeArrows(ARROW_TYPE.success)   // a better line shown belongs to the position left
  $("review-line").textContent = ""
  drawMoves()
  const end = state.game.endText()
  if (end) {
    state.over = true
    state.clockSide = null
    status(end)
  } else status(state.mode === "play" ? (state.game.turn() === state.human ? "your move" : "bachess is thinking") : "analysing")
  startThinking()
  return drawn
}

function drawMoves() {
  $("fen").value = state.game.fen()
  if (state.review) return drawReviewedMoves()
  const parts = []
  state.game.history().forEach((san, i) => parts.push(moveNumber(state.game.startFen, i, i === 0) + san))
  $("moves").textContent = parts.join(" ")
}

export async function setMode(mode) {
  await stopSearch()
  stopClock()
  state.mode = mode
  await send(`setoption name MultiPV value ${mode === "analyse" ? $("multipv").value : 1}`)
  await send(`setoption name UCI_AnalyseMode value ${mode === "analyse"}`)
  afterMove()
}
