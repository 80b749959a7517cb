// web_browser_test.mjs — the page of `bachess web` in a real headless browser
// (Debian's chromium, driven by playwright-core from webpage/node_modules):
//   the board renders; the clock runs; Flip turns the board; selecting a
//   piece marks its legal moves; a move made by clicking; the engine answers
//   with a legal move; an illegal drag is refused; analysis shows 3 principal
//   variations in SAN, depth and kN/s, an arrow and points on the evaluation
//   graph; the exported PGN is downloaded and read back by `bachess book read`
//   with the same moves; PGN import pasted and from a file; the evaluation
//   bar leaves neutral for a position a queen up; a promotion through the
//   dialog; a FEN set up with Chess960 ticked; a Chess960 game with a legal
//   engine reply and its PGN; Review game on an imported Chess960 game with
//   both castlings; Review game on an imported scholar's mate (the
//   ?? on 3... Nf6 in the move list and on the graph, each side's accuracy,
//   a click on the mark showing the position before it with the better line,
//   a click on the graph's mark); playing Black with UCI_LimitStrength/UCI_Elo
//   (the engine opens), take back, New game. Saves a screenshot (the one in
//   docs/web.png).
//
//   node tests/web_browser_test.mjs ./bachess [docs/web.png]
import { spawn, execFileSync } from "node:child_process"
import { createRequire } from "node:module"
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve, dirname } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import net from "node:net"

const here = dirname(fileURLToPath(import.meta.url))
const require = createRequire(join(here, "..", "webpage", "package.json"))
const { chromium } = require("playwright-core")
const chessops = (name) => import(pathToFileURL(join(here, "..", "webpage", "node_modules", "chessops", "dist", "esm", name + ".js")))
const { Chess, normalizeMove } = await chessops("chess")
const { parseFen } = await chessops("fen")
const { parseUci } = await chessops("util")

// Plays UCI moves (engine form) from a FEN with chessops: true if all are legal.
function legalLine(fen, ucis) {
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap()
  for (const uci of ucis) {
    const m = parseUci(uci) && normalizeMove(pos, parseUci(uci))
    if (!m || !pos.isLegal(m)) return false
    pos.play(m)
  }
  return true
}

// `bachess book read` of a PGN text: its report and the SAN moves of the game it writes back.
function readBack(pgn) {
  const dir = mkdtempSync(join(tmpdir(), "bachess-web-"))
  writeFileSync(join(dir, "page.pgn"), pgn)
  const report = execFileSync(engine, ["book", "read", join(dir, "page.pgn"), "-o", join(dir, "back.pgn")]).toString()
  const text = readFileSync(join(dir, "back.pgn"), "utf8")
  const movetext = text.split(/\n\n/)[1] || ""
  const sans = movetext.replace(/\{[^}]*\}/g, " ").split(/\s+/).filter((t) => t && !/^\d+\./.test(t) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t))
  return { report, sans, text }
}

const engine = resolve(process.argv[2] || "./bachess")
const screenshot = process.argv[3]
const failures = []
function check(ok, what) {
  console.log((ok ? "ok    " : "FAIL  ") + what)
  if (!ok) failures.push(what)
}

// Liveness: the longest the test waits for any one thing the page or the engine should do (a
// board drawn, a move answered, a command's reply) before it counts as not done. No check rests
// on how fast this happens: every wait is for the condition checked, and the check reads what
// the wait saw. Measured worst case of any wait (the "note slowest" lines at the end), idle and
// under stress-ng --cpu 2, 3 runs: 2.7 s, the engine's reply on a 5-minute clock (its own time
// management); all else at most 0.6 s, but the clock's 2 s (2.0 s); 60 s is a margin of 20 times.
const LIVENESS_MS = 60000
// The review of the scholar's mate (8 positions of 200,000 nodes, the server's default), whose wait
// is longer: measured worst 9.9 s beside stress-ng --cpu 2 (1.3 s idle, 4.0 s with the machine's load
// average at 26); 180 s is a margin of 18 times.
const REVIEW_LIVENESS_MS = 180000
const slowest = {}  // the slowest wait of each kind, printed at the end: the figures behind LIVENESS_MS
const pause = (ms) => new Promise((done) => setTimeout(done, ms))

// Polls `probe` (run in the page; returns a snapshot) until `ok(snapshot)`, at most `ms`:
// { ok, value } with the last snapshot, which the checks then read (no second look that could
// see a later state).
async function until(page, kind, probe, ok, arg, ms = LIVENESS_MS) {
  const start = Date.now()
  for (;;) {
    const value = await page.evaluate(probe, arg)
    if (ok(value)) {
      slowest[kind] = Math.max(slowest[kind] || 0, Date.now() - start)
      return { ok: true, value }
    }
    if (Date.now() - start > ms) {
      console.log(`      (waited ${ms} ms for ${kind}: ${JSON.stringify(value).slice(0, 300)})`)
      return { ok: false, value }
    }
    await pause(50)
  }
}

// The page's queued actions (New game, Set FEN, imports, mode changes) finished, the board drawn.
async function settled(page) {
  const start = Date.now()
  const done = await Promise.race([page.evaluate(() => window.bachess.settled()).then(() => true), pause(LIVENESS_MS).then(() => false)])
  slowest["the page's actions"] = Math.max(slowest["the page's actions"] || 0, Date.now() - start)
  if (!done) check(false, `the page's actions finish (waited ${LIVENESS_MS} ms)`)
}

function freePort() {
  return new Promise((done) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => done(p)) })
  })
}

// `bachess web` on a free port. The port is free when freePort() finds it; should another
// program take it before the server binds it, the server exits 1 ("cannot listen"), and another
// port is tried.
async function startServer() {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort()
    const server = spawn(engine, ["web", "--port", String(port)], { stdio: ["ignore", "pipe", "inherit"] })
    const code = await new Promise((done) => {
      server.stdout.on("data", (d) => { if (String(d).includes("serving")) done(null) })
      server.on("exit", (c) => done(c))
    })
    if (code === null) return { server, port }
    if (code !== 1 || attempt === 4) throw new Error("bachess web exited with " + code)
  }
}

// The board: which way up (null while being redrawn), its pieces, whether any is fading in or
// out (cm-chessboard's turn and position animations set an opacity on them until their end, when
// the pieces are drawn afresh and the board takes input again), and the clock at the bottom.
const boardProbe = () => {
  const r1 = document.querySelector('rect[data-square="a1"]'), r8 = document.querySelector('rect[data-square="h8"]')
  let whiteBottom = null
  if (r1 && r8) {
    const a1 = r1.getBoundingClientRect(), h8 = r8.getBoundingClientRect()
    whiteBottom = a1.y > h8.y && a1.x < h8.x
  }
  const pieces = Array.from(document.querySelectorAll("g[data-piece][data-square]"))
  return { whiteBottom, pieces: pieces.length, fading: pieces.some((p) => p.style.opacity !== ""),
    bottomClock: document.querySelector("#clock-bottom").textContent }
}
const atRest = (b) => b.whiteBottom !== null && b.pieces > 0 && !b.fading

// Whether a1 is drawn below and left of h8 (White at the bottom): waits for `expected`, with the
// board at rest, and else says what it shows.
async function whiteAtBottom(page, expected = true) {
  const r = await until(page, "the board turned", boardProbe, (b) => atRest(b) && b.whiteBottom === expected)
  return r.ok ? expected : r.value.whiteBottom
}

// The centre of a square on the screen, once the board is at rest (a click on a board being
// turned hits the wrong square, or none).
async function squareCentre(page, square) {
  await until(page, "the board at rest", boardProbe, atRest)
  const box = await page.locator(`rect[data-square="${square}"]`).boundingBox()
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

async function click(page, square) {
  const p = await squareCentre(page, square)
  await page.mouse.click(p.x, p.y)
}

async function drag(page, from, to) {
  const a = await squareCentre(page, from), b = await squareCentre(page, to)
  await page.mouse.move(a.x, a.y)
  await page.mouse.down()
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 })
  await page.mouse.move(b.x, b.y, { steps: 5 })
  await page.mouse.up()
}

const stateProbe = () => ({ fen: window.bachess.fen(), moves: window.bachess.moves(), uci: window.bachess.uci(),
  status: document.querySelector("#status").textContent })
const state = (page) => page.evaluate(stateProbe)
// Waits until the game has at least `count` plies: the game's state then.
async function waitPlies(page, count) {
  return (await until(page, `a game of ${count} plies`, stateProbe, (s) => s.moves.length >= count)).value
}
// Waits until a piece stands on a square.
const pieceOn = (page, piece, square) => until(page, "a piece drawn", ([p, s]) =>
  document.querySelectorAll(`g[data-piece="${p}"][data-square="${s}"]`).length, (n) => n === 1, [piece, square])

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
// One SAN move: castling, a piece move, or a pawn move (with promotion); check or mate.
const SAN = /^(O-O(-O)?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](x[a-h])?[1-8](=[QRBN])?)[+#]?$/
// An analysis line: a score, then moves in SAN only.
function sanLine(text) {
  const [score, ...moves] = text.trim().split(/\s+/)
  return /^([+-]\d+\.\d\d|#-?\d+)$/.test(score) && moves.length > 0 && moves.every((m) => SAN.test(m))
}

// The squares marked as legal destinations (cm-chessboard's dots and bevels).
const hintProbe = () => Array.from(document.querySelectorAll("use.marker-dot, use.marker-bevel"),
  (u) => u.parentNode.getAttribute("data-square")).sort()
const clockSeconds = (text) => { const m = /(\d+):(\d\d)/.exec(text); return m ? 60 * +m[1] + +m[2] : NaN }
const barProbe = () => ({ height: document.querySelector("#evalbar-white").style.height,
  score: document.querySelector("#evalbar").getAttribute("data-score") })

async function main() {
  const { server, port } = await startServer()
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] })
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 820 }, acceptDownloads: true })
    const errors = []
    page.on("pageerror", (e) => errors.push(String(e)))
    // Every command the page sends, with the server's answer. The answer reaches this list as an
    // event of the browser's network side, not in step with the page's own code: wait for it.
    const commands = []
    page.on("response", (r) => {
      if (r.url().endsWith("/command")) commands.push({ line: r.request().postData(), status: r.status() })
    })
    const sentNow = (line) => commands.some((c) => c.line === line && c.status === 200)
    async function sent(line) {
      const start = Date.now()
      while (!sentNow(line) && Date.now() - start < LIVENESS_MS) await pause(50)
      slowest["a command's answer seen"] = Math.max(slowest["a command's answer seen"] || 0, Date.now() - start)
      return sentNow(line)
    }
    await page.goto(`http://127.0.0.1:${port}/`)
    await page.fill("#minutes", "0.5")   // the engine's replies come quickly
    await page.fill("#increment", "0")

    // The board renders: 64 squares, 32 pieces.
    const drawn = await until(page, "the board drawn", () => [document.querySelectorAll("rect[data-square]").length,
      document.querySelectorAll("g[data-piece][data-square]").length], ([squares, pieces]) => squares === 64 && pieces === 32)
    check(drawn.ok, `the board renders: ${drawn.value[0]} squares, ${drawn.value[1]} pieces`)

    await settled(page)

    // The human's clock runs at the start of the game (5 minutes: the first game began with the page):
    // it drops by 2 s, and no faster than the time that has passed here (plus 1 s, as the display rounds
    // up, and 0.2 s, as it is redrawn every 200 ms: the first reading may be that old).
    const clockProbe = () => ({ text: document.querySelector("#clock-bottom").textContent,
      running: document.querySelectorAll("#clock-bottom.running").length })
    const clockStart = Date.now()
    const clock0 = await page.evaluate(clockProbe)
    // Drawn by the game's start, which settled() includes, not by the page's 200 ms timer.
    check(/^White \d+:\d\d$/.test(clock0.text), `the clocks are shown as soon as the first game has started ("${clock0.text}")`)
    const clock1 = await until(page, "the clock 2 s down", clockProbe,
      (c) => /^White/.test(c.text) && c.running === 1 && clockSeconds(c.text) <= clockSeconds(clock0.text) - 2)
    const elapsed = (Date.now() - clockStart) / 1000, dropped = clockSeconds(clock0.text) - clockSeconds(clock1.value.text)
    check(/^White/.test(clock0.text) && clock1.ok && dropped <= elapsed + 1.2,
      `White's clock counts down while White is to move ("${clock0.text}" -> "${clock1.value.text}" in ${elapsed.toFixed(1)} s)`)

    // Flip: Black at the bottom, and its clock with it; and back. The second turn waits for the
    // first to be over (cm-chessboard drops a turn asked for while another is under way).
    const before = await whiteAtBottom(page)
    await page.click("#flip")
    const turned = await until(page, "the board turned", boardProbe,
      (b) => atRest(b) && b.whiteBottom === false && /^Black/.test(b.bottomClock))
    await page.click("#flip")
    const back = await whiteAtBottom(page)
    check(before && turned.ok && back,
      `Flip turns the board (a1 at the top: ${turned.value.whiteBottom === false}, "${turned.value.bottomClock}" at the bottom) and back (${back})`)

    // Legal-move hints: selecting the e2 pawn marks e3 and e4, and only them (drawn all at once).
    await click(page, "e2")
    const hints = (await until(page, "the hints drawn", hintProbe, (h) => h.length > 0)).value
    check(hints.join(" ") === "e3 e4", `selecting e2 marks its legal moves (${hints.join(" ") || "none"})`)

    // A human move by clicking (e2 is selected); the engine answers with a legal move.
    await click(page, "e4")
    check((await waitPlies(page, 1)).moves[0] === "e4", "a move made by clicking e2 then e4 is played (e4)")
    const afterReply = await waitPlies(page, 2)
    const hintsAfter = await page.evaluate(hintProbe)
    check(afterReply.moves.length === 2 && legalLine(START, afterReply.uci) && hintsAfter.length === 0,
      `the engine answers with a legal move (${afterReply.moves[1]})`)
    await pieceOn(page, "wp", "e4")

    // An illegal drag is refused: the pawn stays, the game does not change.
    await drag(page, "d2", "d5")
    const refused = await until(page, "an illegal drag refused", () => ({ moves: window.bachess.moves().length,
      d2: document.querySelectorAll('g[data-piece="wp"][data-square="d2"]').length,
      status: document.querySelector("#status").textContent }), (r) => /illegal/.test(r.status) && r.d2 === 1)
    check(refused.ok && refused.value.moves === 2,
      `an illegal drag d2-d5 is refused (status: "${refused.value.status}", ${refused.value.moves} plies)`)

    // A legal drag is played.
    await drag(page, "g1", "f3")
    check((await waitPlies(page, 3)).moves[2] === "Nf3", "a legal drag g1-f3 is played (Nf3)")

    // Analysis: 3 principal variations in SAN (MultiPV 3), depth and speed, the best move as an
    // arrow, and the evaluation graph with a point for each search so far.
    await waitPlies(page, 4)
    await page.check('input[name=mode][value=analyse]')
    const analysis = await until(page, "the analysis shown", () => {
      const c = document.querySelector("#graph"), d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data
      let stroke = 0
      for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && d[i + 1] > d[i] + 30 && d[i + 1] > d[i + 2] + 30) stroke++
      return { lines: Array.from(document.querySelectorAll("#lines li"), (li) => li.textContent),
        stats: document.querySelector("#search-stats").textContent,
        arrows: document.querySelectorAll(".arrow, g.arrow, [class*=arrow-]").length,
        points: window.bachess.evals().filter((e) => e !== undefined).length, stroke }
    }, (a) => {
      const m = /^depth (\d+)\s+(\d+) kN\/s$/.exec(a.stats)
      return a.lines.length === 3 && a.lines.every(sanLine) && m && +m[1] >= 1 && +m[2] > 0 && a.arrows > 0 &&
        a.points >= 3 && a.stroke > 50
    })
    const { lines, stats, arrows, points, stroke } = analysis.value
    const multiPv = await sent("setoption name MultiPV value 3")
    check(lines.length === 3 && lines.every(sanLine) && multiPv,
      `analysis shows 3 lines (MultiPV 3), each a score and moves in SAN: ${lines.map((l) => `"${l.slice(0, 40)}"`).join(", ")}`)
    const statsMatch = /^depth (\d+)\s+(\d+) kN\/s$/.exec(stats)
    check(statsMatch && +statsMatch[1] >= 1 && +statsMatch[2] > 0, `depth and speed are shown ("${stats}")`)
    check(arrows > 0, `the best move is drawn as an arrow (${arrows})`)
    check(points >= 3 && stroke > 50, `the evaluation graph has ${points} points after 4 plies (${stroke} pixels of its line)`)
    if (screenshot) await page.screenshot({ path: screenshot })

    // PGN export: shown, downloaded as bachess.pgn, and read back by bachess.
    const moves = (await state(page)).moves
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: LIVENESS_MS }).catch(() => null),
      page.click("#export-pgn")])
    const shown = (await until(page, "the PGN shown", () => document.querySelector("#pgn").value, (v) => v.includes("1. e4"))).value
    const downloaded = download ? readFileSync(await download.path(), "utf8") : ""
    check(download && download.suggestedFilename() === "bachess.pgn" && downloaded === shown && downloaded.includes("1. e4"),
      `the PGN is downloaded as ${download && download.suggestedFilename()} (${downloaded.length} bytes, the same as shown)`)
    const exported = readBack(downloaded || shown)
    check(/games: 1 read, 0 unreadable/.test(exported.report) && exported.sans.join(" ") === moves.join(" "),
      `the downloaded PGN is read back by bachess book read with the same ${moves.length} moves`)

    // PGN import (analysis mode follows).
    await page.fill("#pgn", '[Event "t"]\n[Result "*"]\n\n1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 *\n')
    await page.click("#import-pgn")
    const pasted = (await until(page, "a PGN imported", stateProbe, (s) => s.moves.length === 6)).value
    check(pasted.moves.join(" ") === "d4 Nf6 c4 e6 Nc3 Bb4", `a pasted PGN is imported (${pasted.moves.join(" ")})`)
    await settled(page)

    // PGN import from a file.
    await page.setInputFiles("#pgn-file", { name: "game.pgn", mimeType: "text/plain",
      buffer: Buffer.from('[Event "f"]\n[Result "*"]\n\n1. c4 e5 2. Nc3 Nf6 3. g3 d5 4. cxd5 *\n') })
    const fromFile = (await until(page, "a PGN imported", stateProbe, (s) => s.moves.length === 7)).value.moves.join(" ")
    check(fromFile === "c4 e5 Nc3 Nf6 g3 d5 cxd5", `a PGN file is imported (${fromFile})`)
    await settled(page)

    // Review game: the scholar's mate imported; the server's `bachess annotate` (200,000 nodes a
    // position, deterministic) marks 3... Nf6 a blunder (??: it walks into 4. Qxf7#; g6 was best).
    // The page's statuses are recorded as they are set, each from its mutation record (the review's
    // "reviewing 7 plies…" is shown for as long as the review takes, and may be gone before a probe looks).
    await page.evaluate(() => {
      window.statuses = []
      new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((n) => window.statuses.push(n.textContent))))
        .observe(document.querySelector("#status"), { childList: true })
    })
    await page.fill("#pgn", '[Event "r"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n')
    await page.click("#import-pgn")
    await until(page, "a PGN imported", stateProbe, (s) => s.moves.length === 7)
    await settled(page)
    await page.click("#review")
    const reviewProbe = () => ({
      marks: Array.from(document.querySelectorAll("#moves span.mark"), (m) => ({ text: m.textContent, ply: m.dataset.ply,
        kind: m.className.replace(/\b(mark|current)\b/g, "").trim() })),
      moves: document.querySelectorAll("#moves span[data-ply]").length,
      accuracy: document.querySelector("#accuracy").textContent, graphMarks: window.bachess.graphMarks(),
      evals: window.bachess.evals().filter((e) => e !== undefined).length, statuses: window.statuses })
    const reviewed = await until(page, "the review's marks", reviewProbe, (r) => r.marks.length > 0 && r.accuracy !== "",
      undefined, REVIEW_LIVENESS_MS)
    const { marks, accuracy, graphMarks, statuses } = reviewed.value
    const blunders = marks.filter((m) => m.kind === "blunder")
    check(reviewed.ok && statuses.includes("reviewing 7 plies…") && reviewed.value.moves === 7 &&
      blunders.length === 1 && blunders[0].text === "Nf6??" && blunders[0].ply === "5" &&
      marks.every((m) => ["inaccuracy", "mistake", "blunder"].includes(m.kind) && /\?[!?]?$/.test(m.text)),
      `Review game ("reviewing 7 plies…" shown: ${statuses.includes("reviewing 7 plies…")}): 7 moves listed, ` +
      `marks ${marks.map((m) => m.text).join(" ")}, the blunder on 3... Nf6`)
    const acc = /^Accuracy: White (\d+(?:\.\d+)?), Black (\d+(?:\.\d+)?)$/.exec(accuracy)
    check(acc && +acc[1] >= 0 && +acc[1] <= 100 && +acc[2] >= 0 && +acc[2] <= 100 && +acc[2] < +acc[1],
      `each side's accuracy is shown, in [0, 100], Black's the lower ("${accuracy}")`)
    // The graph: the review's evaluations (one after each move but the mate, which counts as won),
    // and a red dot on the position after 3... Nf6.
    const dot = graphMarks.find((m) => m.ply === 5)
    const dotColour = dot && await page.evaluate(({ x, y }) =>
      Array.from(document.querySelector("#graph").getContext("2d").getImageData(Math.round(x), Math.round(y), 1, 1).data), dot)
    check(reviewed.value.evals === 7 && graphMarks.length === marks.length && dotColour && dotColour[0] > 180 &&
      dotColour[1] < 80 && dotColour[2] < 80,
      `the evaluation graph has the review's 7 evaluations and a dot for each mark, the blunder's red (${dotColour})`)

    // A click on the ?? mark: the position before 3... Nf6, the better line (g6) as an arrow and in SAN.
    const beforeNf6 = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"
    const markProbe = () => ({ fen: window.bachess.fen(), line: document.querySelector("#review-line").textContent,
      better: Array.from(document.querySelectorAll("g.arrow.arrow-success line.arrow-line")).length,
      g8: document.querySelectorAll('g[data-piece="bn"][data-square="g8"]').length,
      f6: document.querySelectorAll('g[data-piece][data-square="f6"]').length,
      h5: document.querySelectorAll('g[data-piece="wq"][data-square="h5"]').length })
    const atMark = (m) => m.fen === beforeNf6 && /Better: 3\.\.\. g6/.test(m.line) && m.better === 1 && m.g8 === 1 &&
      m.f6 === 0 && m.h5 === 1
    await page.click("#moves span.mark.blunder")
    const clicked = await until(page, "the position before the mark", markProbe, atMark)
    check(clicked.ok, `a click on Nf6?? shows the position before it (${clicked.value.fen}), the knight on g8, ` +
      `and the better line as an arrow and "${clicked.value.line}"`)
    // Another move of the list goes to the position after it; the red dot on the graph back to the mark.
    await page.click('#moves span[data-ply="1"]')
    const afterE5 = await until(page, "the position after 1... e5", markProbe, (m) => m.fen.startsWith("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/") && m.line === "")
    const box = await page.locator("#graph").boundingBox()
    const size = await page.evaluate(() => [document.querySelector("#graph").width, document.querySelector("#graph").height])
    await page.mouse.click(box.x + dot.x * box.width / size[0], box.y + dot.y * box.height / size[1])
    const fromGraph = await until(page, "the position before the mark", markProbe, atMark)
    check(afterE5.ok && fromGraph.ok && (await state(page)).moves.length === 5,
      `a click on 1... e5 shows the position after it (${afterE5.value.fen.split(" ")[0]}); one on the graph's red dot the position before Nf6 again`)
    await settled(page)

    // The evaluation bar: neutral after a new position is set up (no search in play mode with the
    // human to move, the lines of the search stopped ignored), then well over half for White once
    // analysis runs on Black without a queen.
    await page.check('input[name=mode][value=play]')
    await settled(page)
    await page.fill("#fen", "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    await page.click("#set-fen")
    await settled(page)
    const neutral = await page.evaluate(barProbe)
    await page.check('input[name=mode][value=analyse]')
    const queenUp = (await until(page, "the evaluation a queen up", barProbe, (b) => +b.score > 300)).value
    check(parseFloat(neutral.height) === 50 && neutral.score === "0" && parseFloat(queenUp.height) > 80 && +queenUp.score > 300,
      `the evaluation bar moves with analysis: ${neutral.height} (${neutral.score} cp) before, ${queenUp.height} (${queenUp.score} cp) a queen up`)

    // Promotion through the dialog: an under-promotion to a knight.
    await page.check('input[name=mode][value=play]')
    await settled(page)
    await page.fill("#fen", "8/P6k/8/8/8/8/8/K7 w - - 0 40")
    await page.click("#set-fen")
    await settled(page)
    await pieceOn(page, "wp", "a7")
    await click(page, "a7")
    await click(page, "a8")
    await page.waitForSelector('.promotion-dialog-button[data-piece="wn"]', { timeout: LIVENESS_MS })
    await page.locator('.promotion-dialog-button[data-piece="wn"]').click()
    const promoted = await waitPlies(page, 1)
    check(promoted.moves[0] === "a8=N", `a promotion chosen in the dialog (${promoted.moves[0]})`)
    // The move list counts from the FEN's move number (40), not from 1.
    const numbered = await until(page, "the move list", () => document.querySelector("#moves").textContent, (t) => t.startsWith("40. a8=N"))
    check(numbered.ok, `the move list is numbered from the FEN's move 40 ("${numbered.value}")`)

    // A FEN set up with Chess960 ticked: a Chess960 game, and the engine told so.
    const fen960 = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1"
    await page.fill("#fen", fen960)
    await page.check("#chess960")
    await page.click("#set-fen")
    await settled(page)
    const set960 = await page.evaluate(() => [window.bachess.chess960(), window.bachess.startFen()])
    const told960 = await sent("setoption name UCI_Chess960 value true")
    const bishop960 = await pieceOn(page, "wb", "a1")
    check(set960[0] === true && set960[1] === fen960 && told960 && bishop960.ok,
      `a FEN set up with Chess960 ticked is a Chess960 game (${set960[0]}, ${set960[1]}), and the engine is told (${told960})`)

    // Chess960: a new game from a random start, a pawn move by clicks, a legal reply.
    await page.fill("#minutes", "0.5")
    await page.click("#new-960")
    await settled(page)
    const new960 = await until(page, "a Chess960 game", () => window.bachess.chess960() && window.bachess.moves().length === 0,
      (ok) => ok)
    const start960 = await page.evaluate(() => window.bachess.startFen())
    // The board must show the new start before the clicks (a click on a half-redrawn board hits
    // no square). A b2 pawn stands in every Chess960 start, so it is White's back rank that tells
    // the new start from the one before.
    const backRank = start960.split(" ")[0].split("/")[7].toLowerCase()
    await until(page, "the Chess960 start drawn", (rank) => [...rank].every((piece, file) =>
      document.querySelector(`g[data-piece="w${piece}"][data-square="${"abcdefgh"[file]}1"]`)), (ok) => ok, backRank)
    await click(page, "b2")
    await click(page, "b3")
    const ucis960 = (await waitPlies(page, 2)).uci
    check(new960.ok && ucis960.length === 2 && legalLine(start960, ucis960),
      `Chess960 from ${start960.split(" ")[0]}: b3 and the engine's legal reply ${ucis960[1]}`)
    await page.click("#export-pgn")
    // `book read` takes standard chess only, so the Chess960 PGN is checked as text: its tags,
    // and its SAN (bachess's game log) against the page's (chessops).
    const pgn960 = (await until(page, "the PGN shown", () => document.querySelector("#pgn").value, (v) => v.includes("chess960"))).value
    const sans960 = (await state(page)).moves
    check(pgn960.includes('[Variant "chess960"]') && pgn960.includes(`[FEN "${start960}"]`) &&
      pgn960.includes(`1. ${sans960[0]} ${sans960[1]}`),
      `the Chess960 PGN has Variant and FEN, and the page's moves (1. ${sans960.join(" ")})`)

    // Review game on a Chess960 game: one imported from the FEN above with both castlings (1. O-O puts
    // the king on its rook's square g1; 4... O-O-O takes it from f8 to c8), annotated by the server.
    await page.fill("#pgn", `[Event "r960"]\n[Variant "Chess960"]\n[FEN "${fen960}"]\n[Result "*"]\n\n` +
      "1. O-O Nd6 2. d4 e6 3. Nd3 Be7 4. Ng3 O-O-O *\n")
    await page.click("#import-pgn")
    await until(page, "a Chess960 PGN imported", stateProbe, (s) => s.moves.length === 8)
    await settled(page)
    await page.click("#review")
    const reviewed960 = await until(page, "the Chess960 review", () => ({
      listed: Array.from(document.querySelectorAll("#moves span[data-ply]"), (m) => m.textContent),
      accuracy: document.querySelector("#accuracy").textContent, chess960: window.bachess.chess960(),
      evals: window.bachess.evals().filter((e) => e !== undefined).length }),
    (r) => r.listed.length === 8 && r.accuracy !== "", undefined, REVIEW_LIVENESS_MS)
    const { listed, accuracy: accuracy960 } = reviewed960.value
    check(reviewed960.ok && reviewed960.value.chess960 && /^O-O[?!]*$/.test(listed[0]) && /^O-O-O[?!]*$/.test(listed[7]) &&
      reviewed960.value.evals === 8 && /^Accuracy: White \d+(\.\d+)?, Black \d+(\.\d+)?$/.test(accuracy960),
      `Review game on a Chess960 game: 8 moves listed (${listed.join(" ")}), the evaluations, "${accuracy960}"`)
    await settled(page)
    await page.check('input[name=mode][value=play]') // the review left analysis on; the games below are played
    await settled(page)

    // Playing Black at a limited strength: the engine opens as White; the board shows Black at the bottom.
    await page.selectOption("#colour", "b")
    await page.check("#limit")
    await page.fill("#elo", "1200")
    await page.fill("#minutes", "0.5")
    await page.click("#new-game")
    await settled(page)
    const opening = (await waitPlies(page, 1)).uci
    check(opening.length === 1 && legalLine(START, opening) && !(await whiteAtBottom(page, false)),
      `playing Black, the engine opens as White (${opening[0]}), Black at the bottom`)
    check((await sent("setoption name UCI_LimitStrength value true")) && (await sent("setoption name UCI_Elo value 1200")),
      "the strength reaches the engine: setoption UCI_LimitStrength true and UCI_Elo 1200 accepted")

    // Take back: after the human's move and the engine's reply, back to the human's move.
    await pieceOn(page, "bp", "a7")
    await click(page, "a7")
    await click(page, "a6")
    const three = (await waitPlies(page, 3)).moves.length
    await page.click("#takeback")
    await settled(page)
    const takenBack = await until(page, "a move taken back", () => ({ moves: window.bachess.moves().length,
      fen: window.bachess.fen(), a7: document.querySelectorAll('g[data-piece="bp"][data-square="a7"]').length }),
    (t) => t.moves === 1 && t.a7 === 1)
    check(three === 3 && takenBack.ok && takenBack.value.fen.split(" ")[1] === "b",
      `take back undoes the engine's reply and the human's move (${three} plies -> ${takenBack.value.moves}: ${takenBack.value.fen})`)

    // New game, as White: the start position, no moves.
    await page.selectOption("#colour", "w")
    await page.click("#new-game")
    await settled(page)
    const fresh = await state(page)
    const freshBoard = await until(page, "the board turned", boardProbe, (b) => atRest(b) && b.whiteBottom && b.pieces === 32)
    check(fresh.moves.length === 0 && fresh.fen === START && freshBoard.ok,
      `New game starts afresh (${fresh.moves.length} moves, ${fresh.fen.split(" ")[0]}, ${freshBoard.value.pieces} pieces)`)

    check(errors.length === 0, `no script errors on the page${errors.length ? ": " + errors[0] : ""}`)
    for (const [kind, ms] of Object.entries(slowest).sort((a, b) => b[1] - a[1])) console.log(`note  slowest ${kind}: ${(ms / 1000).toFixed(2)} s`)
  } finally {
    await browser.close()
    server.kill("SIGTERM")
  }
  console.log(failures.length ? `${failures.length} failed` : "all passed")
  process.exit(failures.length ? 1 : 0)
}

main().catch((e) => { console.error(e); process.exit(1) })
