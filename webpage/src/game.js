// game.js — a game as the page holds it: its start position (a FEN, with or without Chess960
// castling rules) and its list of moves; the rules come from chessops.
import { Chess, castlingSide, normalizeMove } from "chessops/chess"
import { parseFen, makeFen, INITIAL_FEN } from "chessops/fen"
import { makeSan } from "chessops/san"
import { parseUci, makeUci, makeSquare, parseSquare, kingCastlesTo, squareRank } from "chessops/util"
import { chessgroundDests } from "chessops/compat"

// The number written before the move at index `i` of a game from `startFen`: "N. " before a
// White move, "N... " before a Black one when `always` (a list's or a line's first move), else
// "". Counted from the start position's side to move and move number, so that a game set up
// from a FEN is numbered as its PGN is.
export function moveNumber(startFen, i, always) {
  const start = Game.start(startFen).unwrap()
  const ply = i + (start.turn === "white" ? 0 : 1)
  const number = start.fullmoves + Math.floor(ply / 2)
  return ply % 2 === 0 ? `${number}. ` : always ? `${number}... ` : ""
}

// The position after the moves, and each move as chessops, SAN and the engine's UCI.
export class Game {
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
