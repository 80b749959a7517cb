// state.js — what the page holds and several of its parts read and change: the game on the
// board, the mode, the clocks, the evaluations and the review. (What only one part needs, such
// as the engine's count of searches, stays in that part's file.)
import { Game } from "./game.js"

export const state = {
  game: new Game(),
  mode: "play",              // "play" or "analyse"
  human: "w",
  evals: [],                 // White's view, in centipawns, by ply
  clocks: { w: 0, b: 0 },    // milliseconds left
  increment: 0,
  clockSide: null,           // whose clock runs, or null
  clockStarted: 0,
  over: false,
  review: null,              // the game reviewed (readReview), while the board shows one of its positions
  reviewing: false,          // a review asked for and not yet answered
}
