// board.js — the board (cm-chessboard): the position shown, the moves made on it by clicking or
// dragging (legal ones only, with a promotion choice), and the engine's best move as an arrow.
import { Chessboard, COLOR, INPUT_EVENT_TYPE, BORDER_TYPE } from "cm-chessboard/src/Chessboard.js"
import { Markers } from "cm-chessboard/src/extensions/markers/Markers.js"
import { Arrows, ARROW_TYPE } from "cm-chessboard/src/extensions/arrows/Arrows.js"
import { PromotionDialog, PROMOTION_DIALOG_RESULT_TYPE } from "cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js"
import { $, status } from "./dom.js"
import { state } from "./state.js"

export const board = new Chessboard($("board"), {
  position: state.game.fen(),
  assetsUrl: "/assets/",
  style: { borderType: BORDER_TYPE.frame, animationDuration: 150 },
  extensions: [{ class: Markers }, { class: Arrows }, { class: PromotionDialog }],
})

// Lets the user move on the board: `humanMove(move)` plays each legal move made there.
export function enableMoveInput(humanMove) {
  board.enableMoveInput((event) => onMoveInput(event, humanMove))
}

function humanMayMove() {
  return !state.over && !state.reviewing && (state.mode === "analyse" || state.game.turn() === state.human)
}

function onMoveInput(event, humanMove) {
  switch (event.type) {
  case INPUT_EVENT_TYPE.moveInputStarted: {
    if (!humanMayMove()) return false
    const dests = state.game.dests().get(event.squareFrom) || []
    board.addLegalMovesMarkers(dests.map((to) => ({ to })))
    return dests.length > 0
  }
  case INPUT_EVENT_TYPE.validateMoveInput:
    return validateMove(event, humanMove)
  case INPUT_EVENT_TYPE.moveInputCanceled:
  case INPUT_EVENT_TYPE.moveInputFinished:
    board.removeLegalMovesMarkers()
    return true
  }
  return true
}

function validateMove(event, humanMove) {
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

export function drawBestArrow(uci) {
  board.removeArrows(ARROW_TYPE.info)
  if (uci && uci.length >= 4) board.addArrow(ARROW_TYPE.info, uci.slice(0, 2), uci.slice(2, 4))
}
