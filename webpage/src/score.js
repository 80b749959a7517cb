// score.js — scores in centipawns from White's view, as the page holds them: a mate in n is
// ±(MATE_CP - n), far beyond any evaluation, so that one number orders and draws them all.
export const MATE_CP = 100000

export function formatScore(white) {
  if (Math.abs(white) > MATE_CP / 2) return (white > 0 ? "#" : "#-") + (MATE_CP - Math.abs(white))
  return (white >= 0 ? "+" : "") + (white / 100).toFixed(2)
}
