// random960.js — the start position of a new Chess960 game, at random: bishops on squares of
// both colours, the king between the rooks (Scharnagl's rules); castling as X-FEN KQkq.
export function random960() {
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
