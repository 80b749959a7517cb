// app.js — the page of `bachess web`: a board (cm-chessboard) and the rules
// of chess and Chess960 (chessops) in the browser, the engine on the server.
// The page sends UCI lines to POST /command and hears the engine's lines on
// /events; a game is its start position and its list of moves.
// This file holds the buttons: their actions, run one after another, and the start of the page.
//   dom.js       the page's elements by id and its status line
//   score.js     scores from White's view, mates included, and their text
//   game.js      a game: start position and moves, the rules, move numbers
//   random960.js a Chess960 start position at random
//   state.js     what several parts of the page hold in common
//   engine.js    the engine on the server: send, go, stop, listen
//   board.js     the board and the moves made on it
//   clocks.js    the clocks of Play mode
//   graph.js     the evaluation bar and graph
//   position.js  after every change of the position: redraw, and the engine set thinking
//   marks.js     a review's marks (?!, ?, ??)
//   review.js    Review game: asking the server, reading its answer, going to its moves
//   reviewed.js  the reviewed game shown: marked moves, better lines, the end of the review
//   pgn.js       PGN import and export
import { INITIAL_FEN, makeFen } from "chessops/fen"
import { COLOR } from "cm-chessboard/src/Chessboard.js"
import { $, status } from "./dom.js"
import { Game } from "./game.js"
import { random960 } from "./random960.js"
import { state } from "./state.js"
import { listen, send, stopSearch } from "./engine.js"
import { board, enableMoveInput } from "./board.js"
import { stopClock, tickClocks } from "./clocks.js"
import { drawEvalBar, drawGraph, graphMarks, graphClick } from "./graph.js"
import { afterMove, humanMove, searchFinished, searchInfo, setMode } from "./position.js"
import { endReview } from "./reviewed.js"
import { goToPly, reviewGame } from "./review.js"
import { exportPgn, importPgn } from "./pgn.js"

async function newGame(fen, chess960) {
  await stopSearch()
  state.game = new Game(fen || INITIAL_FEN, !!chess960)
  $("chess960").checked = !!chess960
  endReview()
  state.evals = []
  drawEvalBar(0)             // neutral until the engine has spoken on this game
  state.over = false
  state.human = $("colour").value
  const minutes = Math.min(180, Math.max(0.5, +$("minutes").value || 5))
  state.clocks = { w: minutes * 60000, b: minutes * 60000 }
  state.increment = Math.min(60, Math.max(0, +$("increment").value || 0)) * 1000
  state.clockSide = null
  // Awaited, with the position drawn below, so that a game's `settled()` includes the
  // redrawn board: a click on the half-redrawn board hit no square at all.
  await board.setOrientation(state.human === "w" ? COLOR.white : COLOR.black)
  tickClocks()
  await send("ucinewgame")
  await send(`setoption name UCI_Chess960 value ${!!chess960}`)
  await send(`setoption name UCI_LimitStrength value ${$("limit").checked}`)
  await send(`setoption name UCI_Elo value ${Math.min(2850, Math.max(800, +$("elo").value || 1500))}`)
  drawGraph()
  await afterMove()
}

async function takeBack() {
  await stopSearch()
  if (state.mode === "play") {
    stopClock()
    state.game.undo()
    if (state.game.turn() !== state.human) state.game.undo()
  } else state.game.undo()
  state.over = false
  if (!state.review) state.evals.length = state.game.history().length + 1
  afterMove()
}

// The buttons' actions await the engine's replies; run them one after another, so that one
// never draws or searches a game that another has half replaced (a FEN set while a mode
// switch was still under way came out as the old position).
let actions = Promise.resolve()
function serially(action) {
  return (...args) => (actions = actions.then(() => action(...args)).catch((e) => status("error: " + e.message)))
}

function wire() {
  const newGameSerially = serially(newGame)
  $("new-game").onclick = () => newGameSerially(null, false)
  $("takeback").onclick = serially(takeBack)
  // The board turns asynchronously (and drops a second turn asked for meanwhile): the clocks follow when it has.
  $("flip").onclick = () => board.setOrientation(board.getOrientation() === COLOR.white ? COLOR.black : COLOR.white).then(tickClocks)
  $("new-960").onclick = () => newGameSerially(random960(), true)
  $("set-fen").onclick = () => {
    const fen = $("fen").value.trim(), start = Game.start(fen)
    if (start.isErr) return status("bad FEN: " + start.error.message)
    newGameSerially(makeFen(start.value.toSetup()), $("chess960").checked)
  }
  const importSerially = serially(importPgn)
  $("import-pgn").onclick = () => importSerially($("pgn").value)
  $("pgn-file").onchange = async (e) => { if (e.target.files[0]) importSerially(await e.target.files[0].text()) }
  $("export-pgn").onclick = serially(exportPgn)
  $("review").onclick = serially(reviewGame)
  // A marked move goes to the position before it, with the better line; another move to the position after it.
  const goSerially = serially(goToPly)
  $("moves").onclick = (e) => {
    const span = e.target.closest("span[data-ply]")
    if (!span || !state.review) return
    const ply = +span.dataset.ply
    span.classList.contains("mark") ? goSerially(ply, ply) : goSerially(ply + 1)
  }
  $("graph").onclick = (e) => {
    const ply = graphClick(e)
    if (ply !== null) goSerially(ply, ply)
  }
  const setModeSerially = serially(setMode)
  $("multipv").onchange = () => state.mode === "analyse" && setModeSerially("analyse")
  for (const radio of document.querySelectorAll("input[name=mode]")) radio.onchange = () => setModeSerially(radio.value)
  enableMoveInput(humanMove)
  setInterval(tickClocks, 200)
}

// For the browser test: the game as the page holds it.
window.bachess = {
  fen: () => state.game.fen(), startFen: () => state.game.startFen, chess960: () => state.game.chess960,
  settled: () => actions,
  moves: () => state.game.history(), uci: () => state.game.moves.map((m) => m.uci), evals: () => state.evals,
  graphMarks: () => graphMarks().map(({ ply, nag, x, y }) => ({ ply, nag, x, y })),
}

listen(searchInfo, searchFinished)
wire()
serially(newGame)(null, false)
