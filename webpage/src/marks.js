// marks.js — the marks a review puts on moves, by their PGN NAG (docs/annotate.md): each one's
// symbol in the move list, its class on the page (app.css) and its colour on the graph.
export const MARKS = {
  6: { symbol: "?!", name: "inaccuracy", colour: "#e0b800" },
  2: { symbol: "?", name: "mistake", colour: "#ee7a1a" },
  4: { symbol: "??", name: "blunder", colour: "#d42020" },
}
