// app.js — the page of `bachess web`: a board (cm-chessboard) and the rules
// of chess and Chess960 (chessops) in the browser, the engine on the server.
// The page sends UCI lines to POST /command and hears the engine's lines on
// /events; a game is its start position and its list of moves.
import { Chess, castlingSide, normalizeMove } from "chessops/chess"
import { parseFen, makeFen, INITIAL_FEN } from "chessops/fen"
import { makeSan, parseSan } from "chessops/san"
import { parseUci, makeUci, makeSquare, parseSquare, kingCastlesTo, squareRank } from "chessops/util"
import { chessgroundDests } from "chessops/compat"
import { parsePgn, parseComment, startingPosition } from "chessops/pgn"
import { Chessboard, COLOR, INPUT_EVENT_TYPE, BORDER_TYPE } from "cm-chessboard/src/Chessboard.js"
import { Markers } from "cm-chessboard/src/extensions/markers/Markers.js"
import { Arrows, ARROW_TYPE } from "cm-chessboard/src/extensions/arrows/Arrows.js"
import { PromotionDialog, PROMOTION_DIALOG_RESULT_TYPE } from "cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js"

const $ = (id) => document.getElementById(id)
const MATE_CP = 100000

// ---- the game ---------------------------------------------------------------------
// The number written before the move at index `i` of a game from `startFen`: "N. " before a
// White move, "N... " before a Black one when `always` (a list's or a line's first move), else
// "". Counted from the start position's side to move and move number, so that a game set up
// from a FEN is numbered as its PGN is.
function moveNumber(startFen, i, always) {
  const start = Game.start(startFen).unwrap()
  const ply = i + (start.turn === "white" ? 0 : 1)
  const number = start.fullmoves + Math.floor(ply / 2)
  return ply % 2 === 0 ? `${number}. ` : always ? `${number}... ` : ""
}

// The position after the moves, and each move as chessops, SAN and the engine's UCI.
class Game {
  constructor(fen = INITIAL_FEN, chess960 = false) {
    this.startFen = fen
    this.chess960 = chess960
    this.moves = []
    this.replay()
  }

  static start(fen) {
    const setup = parseFen(fen)
    if (setup.isErr) return setup
    return Chess.fromSetup(setup.value)
  }

  replay() {
    this.pos = Game.start(this.startFen).unwrap()
    this.seen = [this.key()]
    for (const m of this.moves) {
      this.pos.play(m.move)
      this.seen.push(this.key())
    }
  }

  key() { return makeFen(this.pos.toSetup(), { epd: true }) }
  fen() { return makeFen(this.pos.toSetup()) }
  turn() { return this.pos.turn === "white" ? "w" : "b" }
  history() { return this.moves.map((m) => m.san) }
  undo() { if (this.moves.length) { this.moves.pop(); this.replay() } }

  // The legal move from one square to another (a king onto its own rook, or
  // two squares in normal chess, castles), or null.
  legal(from, to, promotion) {
    const move = normalizeMove(this.pos, { from: parseSquare(from), to: parseSquare(to), promotion })
    return this.pos.isLegal(move) ? move : null
  }

  fromUci(uci) {
    const m = parseUci(uci)
    return m ? this.legalMove(normalizeMove(this.pos, m)) : null
  }

  legalMove(m) { return this.pos.isLegal(m) ? m : null }

  // The destinations of each square's piece, castling included in both forms.
  dests() { return chessgroundDests(this.pos, { chess960: this.chess960 }) }

  isPromotion(from, to) {
    const piece = this.pos.board.get(parseSquare(from))
    const rank = squareRank(parseSquare(to))
    return piece && piece.role === "pawn" && (rank === 0 || rank === 7)
  }

  // In normal chess UCI castles with the king's two-square step, in Chess960 king takes rook.
  engineUci(pos, m) {
    const side = castlingSide(pos, m)
    if (side && !this.chess960) return makeSquare(m.from) + makeSquare(kingCastlesTo(pos.turn, side))
    return makeUci(m)
  }

  play(m) {
    this.moves.push({ move: m, san: makeSan(this.pos, m), uci: this.engineUci(this.pos, m) })
    this.pos.play(m)
    this.seen.push(this.key())
  }

  sanLine(pv) {
    const pos = this.pos.clone(), san = []
    for (const uci of pv) {
      const m = parseUci(uci) && normalizeMove(pos, parseUci(uci))
      if (!m || !pos.isLegal(m)) break
      san.push(makeSan(pos, m))
      pos.play(m)
    }
    return san.join(" ")
  }

  endText() {
    const p = this.pos
    if (p.isCheckmate()) return (p.turn === "white" ? "Black" : "White") + " mates"
    if (p.isStalemate()) return "stalemate"
    if (p.isInsufficientMaterial()) return "draw: insufficient material"
    if (this.seen.filter((k) => k === this.key()).length >= 3) return "draw by repetition"
    if (p.halfmoves >= 100) return "draw by the fifty-move rule"
    return null
  }
}

// A Chess960 start position at random: bishops on squares of both colours,
// the king between the rooks (Scharnagl's rules); castling as X-FEN KQkq.
function random960() {
  const rank = Array(8).fill(null), free = () => rank.map((p, i) => (p ? -1 : i)).filter((i) => i >= 0)
  const pick = (list) => list[Math.floor(Math.random() * list.length)]
  rank[pick([0, 2, 4, 6])] = "b"
  rank[pick([1, 3, 5, 7])] = "b"
  rank[pick(free())] = "q"
  rank[pick(free())] = "n"
  rank[pick(free())] = "n"
  const [a, k, h] = free()
  rank[a] = "r", rank[k] = "k", rank[h] = "r"
  const black = rank.join("")
  return `${black}/pppppppp/8/8/8/8/PPPPPPPP/${black.toUpperCase()} w KQkq - 0 1`
}

// ---- state ------------------------------------------------------------------
const state = {
  game: new Game(),
  mode: "play",              // "play" or "analyse"
  human: "w",
  evals: [],                 // White's view, in centipawns, by ply
  lines: [],                 // analysis lines by multipv index
  goSent: 0,                 // searches started ...
  bestmovesSeen: 0,          // ... and finished: the newest is ours when they differ by one
  searchStopped: 0,          // the newest search told to stop: its last lines are not for this position
  playSearchFen: null,       // the position the engine was asked to play in
  clocks: { w: 0, b: 0 },    // milliseconds left
  increment: 0,
  clockSide: null,           // whose clock runs, or null
  clockStarted: 0,
  over: false,
  review: null,              // the game reviewed (readReview), while the board shows one of its positions
  reviewing: false,          // a review asked for and not yet answered
}

// ---- the engine ---------------------------------------------------------------

async function send(line) {
  const r = await fetch("/command", { method: "POST", body: line })
  if (!r.ok) status("engine refused: " + (await r.text()))
}

function positionCommand() {
  const g = state.game
  const start = g.startFen === INITIAL_FEN && !g.chess960 ? "startpos" : "fen " + g.startFen
  const moves = g.moves.map((m) => m.uci)
  return "position " + start + (moves.length ? " moves " + moves.join(" ") : "")
}

async function go(args) {
  state.goSent++
  await send(positionCommand())
  await send("go " + args)
}

// Every stop abandons the search: the position or the mode is about to change.
async function stopSearch() {
  if (state.bestmovesSeen < state.goSent) {
    state.searchStopped = state.goSent
    await send("stop")
  }
}

// A search told to stop is abandoned: its last lines belong to the position before.
function newestSearchAbandoned() {
  return state.searchStopped === state.goSent
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
    if (state.bestmovesSeen === state.goSent && !newestSearchAbandoned()) searchFinished(line.split(" ")[1])
  } else if (line.startsWith("info ") && line.includes(" pv ") && state.bestmovesSeen === state.goSent - 1
             && !newestSearchAbandoned()) {
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
    state.lines[info.multipv - 1] = `${formatScore(white)}  ${state.game.sanLine(info.pv)}`
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
  const move = state.game.fromUci(best)
  if (!move) return status("the engine's move " + best + " is not legal here")
  state.game.play(move)
  afterMove()
}

function formatScore(white) {
  if (Math.abs(white) > MATE_CP / 2) return (white > 0 ? "#" : "#-") + (MATE_CP - Math.abs(white))
  return (white >= 0 ? "+" : "") + (white / 100).toFixed(2)
}

function startThinking() {
  $("lines").innerHTML = ""
  state.lines = []
  board.removeArrows(ARROW_TYPE.info)
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
// Each change of the clocks is drawn at once, not at the next tick: a page that has just
// started a game shows its clocks, whenever the 200 ms timer happens to fire.
function startClock() {
  state.clockSide = state.game.turn()
  state.clockStarted = performance.now()
  tickClocks()
}

function stopClock() {
  if (!state.clockSide) return
  const side = state.clockSide
  state.clocks[side] -= performance.now() - state.clockStarted
  state.clocks[side] += state.increment
  state.clockSide = null
  tickClocks()
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
  return !state.over && !state.reviewing && (state.mode === "analyse" || state.game.turn() === state.human)
}

function onMoveInput(event) {
  switch (event.type) {
  case INPUT_EVENT_TYPE.moveInputStarted: {
    if (!humanMayMove()) return false
    const dests = state.game.dests().get(event.squareFrom) || []
    board.addLegalMovesMarkers(dests.map((to) => ({ to })))
    return dests.length > 0
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
  const { squareFrom: from, squareTo: to } = event
  if (state.game.isPromotion(from, to) && state.game.legal(from, to, "queen")) {
    board.showPromotionDialog(to, state.game.turn() === "w" ? COLOR.white : COLOR.black, (result) => {
      if (result.type === PROMOTION_DIALOG_RESULT_TYPE.pieceSelected)
        humanMove(state.game.legal(from, to, ROLE_OF[result.piece.charAt(1)]))
      else board.setPosition(state.game.fen(), true)
    })
    return true
  }
  const move = state.game.legal(from, to)
  if (!move) {
    status(`illegal move ${from}-${to} refused`)
    return false
  }
  humanMove(move)
  return true
}

const ROLE_OF = { q: "queen", r: "rook", b: "bishop", n: "knight" }

async function humanMove(move) {
  await stopSearch()
  if (state.mode === "play") stopClock()
  state.game.play(move)
  afterMove()
}

// Returns when the board shows the new position.
function afterMove() {
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

function drawBestArrow(uci) {
  board.removeArrows(ARROW_TYPE.info)
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
  for (const mark of graphMarks()) {
    ctx.fillStyle = MARKS[mark.nag].colour
    ctx.beginPath(); ctx.arc(mark.x, mark.y, 5, 0, 2 * Math.PI); ctx.fill()
  }
}

function status(text) { $("status").textContent = text }

// ---- the buttons ----------------------------------------------------------------
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

async function setMode(mode) {
  await stopSearch()
  stopClock()
  state.mode = mode
  await send(`setoption name MultiPV value ${mode === "analyse" ? $("multipv").value : 1}`)
  await send(`setoption name UCI_AnalyseMode value ${mode === "analyse"}`)
  afterMove()
}

async function importPgn(text) {
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
function pgnRequest(game) {
  const human = "You", engine = "bachess"
  const lines = []
  if (game.startFen !== INITIAL_FEN || game.chess960) lines.push("fen " + game.startFen)
  if (game.chess960) lines.push("chess960")
  lines.push("white " + (state.mode === "play" && state.human === "b" ? engine : human))
  lines.push("black " + (state.mode === "play" && state.human === "b" ? human : engine))
  lines.push("moves " + game.moves.map((m) => m.uci).join(" "))
  return lines.join("\n")
}

async function exportPgn() {
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

// ---- the review ----------------------------------------------------------------
// "Review game": the server has `bachess annotate` search every position (POST /review) and
// answers with the game as PGN: [%eval] after every move, a NAG on each inaccuracy, mistake and
// blunder, the engine's move in the comment and its line as a variation, the players' accuracy in
// tags (docs/annotate.md). The page shows the evaluations on the graph, the marks there and in
// the move list, and on a mark's click the position before the move with the better line.
const MARKS = {
  6: { symbol: "?!", name: "inaccuracy", colour: "#e0b800" },
  2: { symbol: "?", name: "mistake", colour: "#ee7a1a" },
  4: { symbol: "??", name: "blunder", colour: "#d42020" },
}

// The game to review: the reviewed one while the board shows one of its positions, else the board's.
function gameToReview() {
  if (!state.review) return state.game
  const game = new Game(state.review.startFen, state.review.chess960)
  for (const m of state.review.moves) game.play(m.move)
  return game
}

async function reviewGame() {
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

// Whether the board's game is the reviewed one, or the part of it up to some move.
function onReviewedGame() {
  const r = state.review, g = state.game
  return r && g.startFen === r.startFen && g.chess960 === r.chess960 && g.moves.length <= r.moves.length &&
    g.moves.every((m, i) => m.uci === r.moves[i].uci)
}

function endReview() {
  if (!state.review) return
  state.review = null
  state.evals.length = Math.min(state.evals.length, state.game.moves.length + 1)
  $("accuracy").textContent = ""
  drawGraph()
}

// The reviewed game's moves, each marked move a clickable "mark"; the move that led to the
// position shown is the current one.
function drawReviewedMoves() {
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

// The marks on the evaluation graph: at the position after each marked move, where its cost shows.
function graphMarks() {
  if (!state.review) return []
  const canvas = $("graph"), w = canvas.width, h = canvas.height, plies = Math.max(state.evals.length, 2)
  return state.review.plies.flatMap((p, i) => {
    if (!p.nag) return []
    const cp = state.evals[i + 1] ?? 0
    return [{ ply: i, nag: p.nag, x: ((i + 1) / (plies - 1)) * w, y: h / 2 - (h / 2 - 4) * Math.tanh(cp / 500) }]
  })
}

// Shows the reviewed game after `ply` moves (analysis follows); with `mark`, the marked move's
// index, the position before it and the better line there.
async function goToPly(ply, mark = null) {
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

// The better line of a marked move: its first move as an arrow, the line in SAN with the comment.
function showBetterLine(index) {
  const p = state.review.plies[index], pos = state.game.pos.clone()
  const first = p.better.length ? parseSan(pos, p.better[0]) : undefined
  if (first && "from" in first) board.addArrow(ARROW_TYPE.success, makeSquare(first.from), makeSquare(first.to))
  const startFen = state.review.startFen
  const line = p.better.map((san, k) => moveNumber(startFen, index + k, k === 0) + san)
  $("review-line").textContent = `${moveNumber(startFen, index, true)}${p.san}${MARKS[p.nag].symbol} ${p.comment}` +
    (line.length ? `  Better: ${line.join(" ")}` : "")
}

function graphClick(event) {
  const canvas = $("graph"), rect = canvas.getBoundingClientRect()
  const x = (event.clientX - rect.left) * (canvas.width / rect.width)
  const y = (event.clientY - rect.top) * (canvas.height / rect.height)
  const near = graphMarks().filter((m) => Math.hypot(m.x - x, m.y - y) <= 10)
  near.sort((a, b) => Math.hypot(a.x - x, a.y - y) - Math.hypot(b.x - x, b.y - y))
  return near.length ? near[0].ply : null
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
  board.enableMoveInput(onMoveInput)
  setInterval(tickClocks, 200)
}

// For the browser test: the game as the page holds it.
window.bachess = {
  fen: () => state.game.fen(), startFen: () => state.game.startFen, chess960: () => state.game.chess960,
  settled: () => actions,
  moves: () => state.game.history(), uci: () => state.game.moves.map((m) => m.uci), evals: () => state.evals,
  graphMarks: () => graphMarks().map(({ ply, nag, x, y }) => ({ ply, nag, x, y })),
}

listen()
wire()
serially(newGame)(null, false)
