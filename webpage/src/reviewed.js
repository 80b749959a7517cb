// reviewed.js — a reviewed game (review.js) on the page while the board shows one of its
// positions: its moves with their marks, a mark's better line, and the end of the review when the
// board leaves the game.
import { parseSan } from "chessops/san"
import { makeSquare } from "chessops/util"
import { ARROW_TYPE } from "cm-chessboard/src/extensions/arrows/Arrows.js"
import { $ } from "./dom.js"
import { moveNumber } from "./game.js"
import { state } from "./state.js"
import { board } from "./board.js"
import { drawGraph } from "./graph.js"
import { MARKS } from "./marks.js"

// Whether the board's game is the reviewed one, or the part of it up to some move.
export function onReviewedGame() {
  const r = state.review, g = state.game
  return r && g.startFen === r.startFen && g.chess960 === r.chess960 && g.moves.length <= r.moves.length &&
    g.moves.every((m, i) => m.uci === r.moves[i].uci)
}

export function endReview() {
  if (!state.review) return
  state.review = null
  state.evals.length = Math.min(state.evals.length, state.game.moves.length + 1)
  $("accuracy").textContent = ""
  drawGraph()
}

// The reviewed game's moves, each marked move a clickable "mark"; the move that led to the
// position shown is the current one.
export function drawReviewedMoves() {
  const box = $("moves")
  box.textContent = ""
  state.review.plies.forEach((p, i) => {
    box.append(moveNumber(state.review.startFen, i, i === 0))
    const span = document.createElement("span")
    span.textContent = p.san + (p.nag ? MARKS[p.nag].symbol : "")
    span.className = p.nag ? "mark " + MARKS[p.nag].name : "move"
    span.dataset.ply = String(i)
    if (p.nag) span.title = p.comment
    if (i === state.game.moves.length - 1) span.classList.add("current")
    box.append(span, " ")
  })
}

// The better line of a marked move: its first move as an arrow, the line in SAN with the comment.
export function showBetterLine(index) {
  const p = state.review.plies[index], pos = state.game.pos.clone()
  const first = p.better.length ? parseSan(pos, p.better[0]) : undefined
  if (first && "from" in first) board.addArrow(ARROW_TYPE.success, makeSquare(first.from), makeSquare(first.to))
  const startFen = state.review.startFen
  const line = p.better.map((san, k) => moveNumber(startFen, index + k, k === 0) + san)
  $("review-line").textContent = `${moveNumber(startFen, index, true)}${p.san}${MARKS[p.nag].symbol} ${p.comment}` +
    (line.length ? `  Better: ${line.join(" ")}` : "")
}
