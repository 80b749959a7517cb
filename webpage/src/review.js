// review.js — "Review game": the server has `bachess annotate` search every position
// (POST /review) and answers with the game as PGN: [%eval] after every move, a NAG on each
// inaccuracy, mistake and blunder, the engine's move in the comment and its line as a variation,
// the players' accuracy in tags (docs/annotate.md). The page shows the evaluations on the graph,
// the marks there and in the move list (reviewed.js), and on a mark's click the position before
// the move with the better line.
import { parsePgn, parseComment } from "chessops/pgn"
import { $, status } from "./dom.js"
import { MATE_CP } from "./score.js"
import { Game } from "./game.js"
import { state } from "./state.js"
import { stopSearch } from "./engine.js"
import { stopClock } from "./clocks.js"
import { drawGraph } from "./graph.js"
import { MARKS } from "./marks.js"
import { afterMove, setMode } from "./position.js"
import { showBetterLine } from "./reviewed.js"
import { pgnRequest } from "./pgn.js"

// The game to review: the reviewed one while the board shows one of its positions, else the board's.
function gameToReview() {
  if (!state.review) return state.game
  const game = new Game(state.review.startFen, state.review.chess960)
  for (const m of state.review.moves) game.play(m.move)
  return game
}

export async function reviewGame() {
  const game = gameToReview()
  if (!game.moves.length) return status("no moves to review")
  await stopSearch()
  stopClock()
  state.reviewing = true
  status(`reviewing ${game.moves.length} plies…`)
  let r, text
  try {
    r = await fetch("/review", { method: "POST", body: pgnRequest(game) })
    text = await r.text()
  } finally {
    state.reviewing = false
  }
  const review = r.ok ? readReview(text, game) : null
  if (!review) {
    status(r.ok ? "the review could not be read" : "review failed: " + text.replace(/^error: /, ""))
    return afterMove()     // back to thinking on the position shown, as before
  }
  state.game = game
  state.review = review
  state.evals = review.evals.slice()
  drawGraph()
  state.over = false
  const { w, b } = review.accuracy
  $("accuracy").textContent = `Accuracy: White ${w}, Black ${b}`
  document.querySelector("input[value=analyse]").checked = true
  await setMode("analyse")
  const marks = review.plies.filter((p) => p.nag).length
  status(`review: ${marks} move${marks === 1 ? "" : "s"} marked; click a mark for the better line`)
}

// White's view in centipawns of a [%eval]; the app's MATE_CP convention for mates.
function evalCp(ev) {
  if (ev.mate !== undefined) return Math.sign(ev.mate) * (MATE_CP - Math.abs(ev.mate))
  return Math.round(ev.pawns * 100)
}

// The annotated PGN, read against the game sent: for each move its mark, comment, evaluation and
// better line (SAN), the evaluations by ply, and each side's accuracy. Null if it does not fit.
function readReview(text, game) {
  const parsed = parsePgn(text)[0]
  if (!parsed) return null
  const plies = [], evals = []
  let node = parsed.moves, white = Game.start(game.startFen).unwrap().turn === "white"
  for (; node.children.length; node = node.children[0], white = !white) {
    const played = node.children[0], alternative = node.children[1]
    const comments = (played.data.comments || []).map(parseComment)
    const evaluation = comments.map((c) => c.evaluation).find((e) => e)
    const comment = comments.map((c) => c.text).join(" ").replace(/\s+/g, " ").trim()
    const nag = (played.data.nags || []).find((n) => MARKS[n])
    const named = /(\S+) was best\./.exec(comment)
    const better = alternative ? [alternative.data.san, ...Array.from(alternative.mainline(), (d) => d.san)]
      : named ? [named[1]] : []
    plies.push({ san: played.data.san, nag, comment, better })
    // A move that mates has no evaluation: the mover has won.
    evals[plies.length] = evaluation ? evalCp(evaluation) : (white ? MATE_CP : -MATE_CP)
  }
  if (plies.length !== game.moves.length) return null
  const accuracy = { w: parsed.headers.get("WhiteAccuracy"), b: parsed.headers.get("BlackAccuracy") }
  if (!accuracy.w || !accuracy.b) return null
  return { startFen: game.startFen, chess960: game.chess960, moves: game.moves.slice(), plies, evals, accuracy }
}

// Shows the reviewed game after `ply` moves (analysis follows); with `mark`, the marked move's
// index, the position before it and the better line there.
export async function goToPly(ply, mark = null) {
  const review = state.review
  if (!review) return
  await stopSearch()
  const game = new Game(review.startFen, review.chess960)
  for (const m of review.moves.slice(0, ply)) game.play(m.move)
  state.game = game
  state.over = false
  if (state.mode !== "analyse") {
    document.querySelector("input[value=analyse]").checked = true
    await setMode("analyse")
  } else await afterMove()
  if (mark !== null) showBetterLine(mark)
}
