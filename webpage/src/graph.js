// graph.js — the evaluation bar beside the board and the graph of the evaluation over the game
// (state.evals), with the review's marks on it as dots a click can find.
import { $ } from "./dom.js"
import { MATE_CP, formatScore } from "./score.js"
import { state } from "./state.js"
import { MARKS } from "./marks.js"

export function drawEvalBar(white) {
  const share = Math.abs(white) > MATE_CP / 2 ? (white > 0 ? 1 : 0) : 0.5 + 0.5 * Math.tanh(white / 500)
  $("evalbar-white").style.height = (100 * share).toFixed(1) + "%"
  $("evalbar-text").textContent = formatScore(white)
  $("evalbar").dataset.score = String(white)
}

export function drawGraph() {
  const canvas = $("graph"), ctx = canvas.getContext("2d")
  const w = canvas.width, h = canvas.height, plies = Math.max(state.evals.length, 2)
  ctx.clearRect(0, 0, w, h)
  ctx.strokeStyle = "#999"
  ctx.beginPath(); ctx.moveTo(0, h / 2); ctx.lineTo(w, h / 2); ctx.stroke()
  ctx.strokeStyle = "#2f6f3f"
  ctx.beginPath()
  let started = false
  state.evals.forEach((cp, ply) => {
    if (cp === undefined) return
    const x = (ply / (plies - 1)) * w, y = h / 2 - (h / 2 - 4) * Math.tanh(cp / 500)
    started ? ctx.lineTo(x, y) : ctx.moveTo(x, y)
    started = true
  })
  ctx.stroke()
  for (const mark of graphMarks()) {
    ctx.fillStyle = MARKS[mark.nag].colour
    ctx.beginPath(); ctx.arc(mark.x, mark.y, 5, 0, 2 * Math.PI); ctx.fill()
  }
}

// The marks on the evaluation graph: at the position after each marked move, where its cost shows.
export function graphMarks() {
  if (!state.review) return []
  const canvas = $("graph"), w = canvas.width, h = canvas.height, plies = Math.max(state.evals.length, 2)
  return state.review.plies.flatMap((p, i) => {
    if (!p.nag) return []
    const cp = state.evals[i + 1] ?? 0
    return [{ ply: i, nag: p.nag, x: ((i + 1) / (plies - 1)) * w, y: h / 2 - (h / 2 - 4) * Math.tanh(cp / 500) }]
  })
}

// The ply of the mark a click on the graph hit (the nearest within 10 pixels), or null.
export function graphClick(event) {
  const canvas = $("graph"), rect = canvas.getBoundingClientRect()
  const x = (event.clientX - rect.left) * (canvas.width / rect.width)
  const y = (event.clientY - rect.top) * (canvas.height / rect.height)
  const near = graphMarks().filter((m) => Math.hypot(m.x - x, m.y - y) <= 10)
  near.sort((a, b) => Math.hypot(a.x - x, a.y - y) - Math.hypot(b.x - x, b.y - y))
  return near.length ? near[0].ply : null
}
