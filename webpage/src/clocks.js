// clocks.js — the clocks of a game in Play mode: the side to move's runs, gets the increment when
// it stops, and loses the game on time at zero.
// Each change of the clocks is drawn at once, not at the next tick: a page that has just
// started a game shows its clocks, whenever the 200 ms timer happens to fire.
import { COLOR } from "cm-chessboard/src/Chessboard.js"
import { $, status } from "./dom.js"
import { state } from "./state.js"
import { board } from "./board.js"
import { stopSearch } from "./engine.js"

export function startClock() {
  state.clockSide = state.game.turn()
  state.clockStarted = performance.now()
  tickClocks()
}

export function stopClock() {
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

export function tickClocks() {
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
