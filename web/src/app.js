// app.js — the page of `bachess web`: a board (cm-chessboard) and the game's
// rules (chess.js) in the browser, the engine on the server. The page sends
// UCI lines to POST /command and hears the engine's lines on /events.
import { Chess } from "chess.js"
import { Chessboard, COLOR, INPUT_EVENT_TYPE, BORDER_TYPE } from "cm-chessboard/src/Chessboard.js"
import { Markers } from "cm-chessboard/src/extensions/markers/Markers.js"
import { Arrows, ARROW_TYPE } from "cm-chessboard/src/extensions/arrows/Arrows.js"
import { PromotionDialog, PROMOTION_DIALOG_RESULT_TYPE } from "cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js"

const $ = (id) => document.getElementById(id)
const MATE_CP = 100000

// ---- state ------------------------------------------------------------------
const state = {
  game: new Chess(),
  startFen: null,            // null: the standard start position
  mode: "play",              // "play" or "analyse"
  human: "w",
  evals: [],                 // White's view, in centipawns, by ply
  lines: [],                 // analysis lines by multipv index
  goSent: 0,                 // searches started ...
  bestmovesSeen: 0,          // ... and finished: the newest is ours when they differ by one
  playSearchFen: null,       // the position the engine was asked to play in
  clocks: { w: 0, b: 0 },    // milliseconds left
  increment: 0,
  clockSide: null,           // whose clock runs, or null
  clockStarted: 0,
  over: false,
}

// ---- the engine ---------------------------------------------------------------
async function send(line) {
  const r = await fetch("/command", { method: "POST", body: line })
  if (!r.ok) status("engine refused: " + (await r.text()))
}

function positionCommand() {
  const start = state.startFen ? "fen " + state.startFen : "startpos"
  const moves = state.game.history({ verbose: true }).map(uciOf)
  return "position " + start + (moves.length ? " moves " + moves.join(" ") : "")
}

const uciOf = (m) => m.from + m.to + (m.promotion || "")

async function go(args) {
  state.goSent++
  await send(positionCommand())
  await send("go " + args)
}

async function stopSearch() {
  if (state.bestmovesSeen < state.goSent) await send("stop")
}

function listen() {
  const events = new EventSource("/events")
  events.onopen = () => status("connected")
  events.onerror = () => status("connection lost; retrying…")
  events.onmessage = (e) => engineLine(e.data)
}

function engineLine(line) {
  if (line.startsWith("bestmove")) {
    state.bestmovesSeen++
    if (state.bestmovesSeen === state.goSent) searchFinished(line.split(" ")[1])
  } else if (line.startsWith("info ") && line.includes(" pv ") && state.bestmovesSeen === state.goSent - 1) {
    searchInfo(parseInfo(line))
  }
}

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

// ---- analysis and play ------------------------------------------------------------
function whiteView(score) { return state.game.turn() === "w" ? score : -score }

function searchInfo(info) {
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
    state.lines[info.multipv - 1] = `${formatScore(white)}  ${sanLine(info.pv)}`
    $("lines").innerHTML = ""
    for (const text of state.lines) {
      const li = document.createElement("li")
      li.textContent = text || ""
      $("lines").appendChild(li)
    }
  }
}

function searchFinished(best) {
  if (state.mode !== "play" || state.over || state.playSearchFen !== state.game.fen()) return
  stopClock()
  try {
    state.game.move({ from: best.slice(0, 2), to: best.slice(2, 4), promotion: best[4] })
  } catch {
    return status("the engine's move " + best + " is not legal here")
  }
  afterMove()
}

function formatScore(white) {
  if (Math.abs(white) > MATE_CP / 2) return (white > 0 ? "#" : "#-") + (MATE_CP - Math.abs(white))
  return (white >= 0 ? "+" : "") + (white / 100).toFixed(2)
}

function sanLine(pv) {
  const copy = new Chess(state.game.fen())
  const san = []
  for (const m of pv) {
    try { san.push(copy.move({ from: m.slice(0, 2), to: m.slice(2, 4), promotion: m[4] }).san) } catch { break }
  }
  return san.join(" ")
}

function startThinking() {
  $("lines").innerHTML = ""
  state.lines = []
  board.removeArrows()
  if (state.over) return
  if (state.mode === "analyse") go("infinite")
  else if (state.game.turn() !== state.human) {
    state.playSearchFen = state.game.fen()
    const c = state.clocks
    go(`wtime ${Math.round(c.w)} btime ${Math.round(c.b)} winc ${state.increment} binc ${state.increment}`)
  }
  if (state.mode === "play") startClock()
}

// ---- the clocks ---------------------------------------------------------------
function startClock() {
  state.clockSide = state.game.turn()
  state.clockStarted = performance.now()
}

function stopClock() {
  if (!state.clockSide) return
  const side = state.clockSide
  state.clocks[side] -= performance.now() - state.clockStarted
  state.clocks[side] += state.increment
  state.clockSide = null
}

function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`
}

function tickClocks() {
  const left = { ...state.clocks }
  if (state.clockSide) left[state.clockSide] -= performance.now() - state.clockStarted
  const bottom = board.getOrientation() === COLOR.white ? "w" : "b", top = bottom === "w" ? "b" : "w"
  for (const [id, side] of [["clock-bottom", bottom], ["clock-top", top]]) {
    $(id).textContent = (side === "w" ? "White " : "Black ") + clockText(left[side])
    $(id).classList.toggle("running", state.clockSide === side)
  }
  if (state.mode === "play" && state.clockSide && left[state.clockSide] <= 0 && !state.over) {
    state.over = true
    status((state.clockSide === "w" ? "White" : "Black") + " lost on time")
    stopSearch()
    state.clockSide = null
  }
}

// ---- the board ------------------------------------------------------------------
const board = new Chessboard($("board"), {
  position: state.game.fen(),
  assetsUrl: "/assets/",
  style: { borderType: BORDER_TYPE.frame, animationDuration: 150 },
  extensions: [{ class: Markers }, { class: Arrows }, { class: PromotionDialog }],
})

function humanMayMove() {
  return !state.over && (state.mode === "analyse" || state.game.turn() === state.human)
}

function onMoveInput(event) {
  switch (event.type) {
  case INPUT_EVENT_TYPE.moveInputStarted: {
    if (!humanMayMove()) return false
    const moves = state.game.moves({ square: event.squareFrom, verbose: true })
    board.addLegalMovesMarkers(moves)
    return moves.length > 0
  }
  case INPUT_EVENT_TYPE.validateMoveInput:
    return validateMove(event)
  case INPUT_EVENT_TYPE.moveInputCanceled:
  case INPUT_EVENT_TYPE.moveInputFinished:
    board.removeLegalMovesMarkers()
    return true
  }
  return true
}

function validateMove(event) {
  board.removeLegalMovesMarkers()
  const legal = state.game.moves({ square: event.squareFrom, verbose: true }).filter((m) => m.to === event.squareTo)
  if (!legal.length) {
    status(`illegal move ${event.squareFrom}-${event.squareTo} refused`)
    return false
  }
  if (legal[0].promotion) {
    board.showPromotionDialog(event.squareTo, state.game.turn() === "w" ? COLOR.white : COLOR.black, (result) => {
      if (result.type === PROMOTION_DIALOG_RESULT_TYPE.pieceSelected)
        humanMove({ from: event.squareFrom, to: event.squareTo, promotion: result.piece.charAt(1) })
      else board.setPosition(state.game.fen(), true)
    })
    return true
  }
  humanMove({ from: event.squareFrom, to: event.squareTo })
  return true
}

async function humanMove(move) {
  await stopSearch()
  if (state.mode === "play") stopClock()
  state.game.move(move)
  afterMove()
}

function afterMove() {
  board.setPosition(state.game.fen(), true)
  drawMoves()
  if (state.game.isGameOver()) {
    state.over = true
    state.clockSide = null
    status(gameOverText())
  } else status(state.mode === "play" ? (state.game.turn() === state.human ? "your move" : "bachess is thinking") : "analysing")
  startThinking()
}

function gameOverText() {
  const g = state.game
  if (g.isCheckmate()) return (g.turn() === "w" ? "Black" : "White") + " mates"
  if (g.isStalemate()) return "stalemate"
  if (g.isThreefoldRepetition()) return "draw by repetition"
  if (g.isInsufficientMaterial()) return "draw: insufficient material"
  return "draw by the fifty-move rule"
}

function drawMoves() {
  const parts = []
  state.game.history().forEach((san, i) => parts.push((i % 2 === 0 ? `${i / 2 + 1}. ` : "") + san))
  $("moves").textContent = parts.join(" ")
  $("fen").value = state.game.fen()
}

function drawBestArrow(uci) {
  board.removeArrows()
  if (uci && uci.length >= 4) board.addArrow(ARROW_TYPE.info, uci.slice(0, 2), uci.slice(2, 4))
}

function drawEvalBar(white) {
  const share = Math.abs(white) > MATE_CP / 2 ? (white > 0 ? 1 : 0) : 0.5 + 0.5 * Math.tanh(white / 500)
  $("evalbar-white").style.height = (100 * share).toFixed(1) + "%"
  $("evalbar-text").textContent = formatScore(white)
  $("evalbar").dataset.score = String(white)
}

function drawGraph() {
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
}

function status(text) { $("status").textContent = text }

// ---- the buttons ----------------------------------------------------------------
async function newGame(fen) {
  await stopSearch()
  state.game = new Chess(fen || undefined)
  state.startFen = fen || null
  state.evals = []
  state.over = false
  state.human = $("colour").value
  const minutes = Math.min(180, Math.max(0.5, +$("minutes").value || 5))
  state.clocks = { w: minutes * 60000, b: minutes * 60000 }
  state.increment = Math.min(60, Math.max(0, +$("increment").value || 0)) * 1000
  state.clockSide = null
  board.setOrientation(state.human === "w" ? COLOR.white : COLOR.black)
  await send("ucinewgame")
  await send(`setoption name UCI_LimitStrength value ${$("limit").checked}`)
  await send(`setoption name UCI_Elo value ${Math.min(2800, Math.max(800, +$("elo").value || 1500))}`)
  drawGraph()
  afterMove()
}

async function takeBack() {
  await stopSearch()
  if (state.mode === "play") {
    stopClock()
    state.game.undo()
    if (state.game.turn() !== state.human) state.game.undo()
  } else state.game.undo()
  state.over = false
  state.evals.length = state.game.history().length + 1
  afterMove()
}

async function setMode(mode) {
  await stopSearch()
  stopClock()
  state.mode = mode
  await send(`setoption name MultiPV value ${mode === "analyse" ? $("multipv").value : 1}`)
  await send(`setoption name UCI_AnalyseMode value ${mode === "analyse"}`)
  afterMove()
}

function importPgn(text) {
  const g = new Chess()
  try { g.loadPgn(text) } catch (e) { return status("cannot read that PGN: " + e.message) }
  const fen = g.getHeaders ? g.getHeaders().FEN : g.header().FEN
  const moves = g.history({ verbose: true })
  newGameFrom(fen, moves)
}

async function newGameFrom(fen, moves) {
  await stopSearch()
  state.game = new Chess(fen || undefined)
  state.startFen = fen || null
  for (const m of moves) state.game.move(m)
  state.evals = []
  state.over = false
  if (state.mode === "play") await setMode("analyse"), document.querySelector("input[value=analyse]").checked = true
  else afterMove()
}

async function exportPgn() {
  const human = "You", engine = "bachess"
  const lines = []
  if (state.startFen) lines.push("fen " + state.startFen)
  lines.push("white " + (state.mode === "play" && state.human === "b" ? engine : human))
  lines.push("black " + (state.mode === "play" && state.human === "b" ? human : engine))
  lines.push("moves " + state.game.history({ verbose: true }).map(uciOf).join(" "))
  const r = await fetch("/pgn", { method: "POST", body: lines.join("\n") })
  const text = await r.text()
  if (!r.ok) return status("PGN export failed: " + text)
  $("pgn").value = text
  const link = $("download-pgn")
  link.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }))
  link.hidden = false
  link.click()
  status("PGN exported")
}

function wire() {
  $("new-game").onclick = () => newGame(null)
  $("takeback").onclick = takeBack
  $("flip").onclick = () => { board.setOrientation(board.getOrientation() === COLOR.white ? COLOR.black : COLOR.white); tickClocks() }
  $("set-fen").onclick = () => {
    try { new Chess($("fen").value.trim()) } catch (e) { return status("bad FEN: " + e.message) }
    newGame($("fen").value.trim())
  }
  $("import-pgn").onclick = () => importPgn($("pgn").value)
  $("pgn-file").onchange = async (e) => { if (e.target.files[0]) importPgn(await e.target.files[0].text()) }
  $("export-pgn").onclick = exportPgn
  $("multipv").onchange = () => state.mode === "analyse" && setMode("analyse")
  for (const radio of document.querySelectorAll("input[name=mode]")) radio.onchange = () => setMode(radio.value)
  board.enableMoveInput(onMoveInput)
  setInterval(tickClocks, 200)
}

// For the browser test: the game as the page holds it.
window.bachess = { fen: () => state.game.fen(), moves: () => state.game.history(), evals: () => state.evals }

listen()
wire()
newGame(null)
