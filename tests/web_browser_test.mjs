// web_browser_test.mjs — the page of `bachess web` in a real headless browser
// (Debian's chromium, driven by playwright-core from web/node_modules):
//   the board renders; the clock runs; Flip turns the board; selecting a
//   piece marks its legal moves; a move made by clicking; the engine answers
//   with a legal move; an illegal drag is refused; analysis shows 3 principal
//   variations in SAN, depth and kN/s, an arrow and points on the evaluation
//   graph; the exported PGN is downloaded and read back by `bachess book read`
//   with the same moves; PGN import pasted and from a file; the evaluation
//   bar leaves neutral for a position a queen up; a promotion through the
//   dialog; a FEN set up with Chess960 ticked; a Chess960 game with a legal
//   engine reply and its PGN; playing Black with UCI_LimitStrength/UCI_Elo
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
const require = createRequire(join(here, "..", "web", "package.json"))
const { chromium } = require("playwright-core")
const chessops = (name) => import(pathToFileURL(join(here, "..", "web", "node_modules", "chessops", "dist", "esm", name + ".js")))
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

function freePort() {
  return new Promise((done) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => done(p)) })
  })
}

async function startServer(port) {
  const server = spawn(engine, ["web", "--port", String(port)], { stdio: ["ignore", "pipe", "inherit"] })
  await new Promise((done, fail) => {
    server.stdout.on("data", (d) => { if (String(d).includes("serving")) done() })
    server.on("exit", (code) => fail(new Error("bachess web exited with " + code)))
  })
  return server
}

// The centre of a square on the screen.
async function squareCentre(page, square) {
  const box = await page.locator(`[data-square="${square}"]`).first().boundingBox()
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

// Waits until the game has at least `count` plies; on a timeout says what the page shows.
async function waitPlies(page, count, ms) {
  try {
    await page.waitForFunction((n) => window.bachess.moves().length >= n, count, { timeout: ms })
    return true
  } catch {
    const shown = await page.evaluate(() => [document.querySelector("#status").textContent, window.bachess.moves().join(" ")])
    console.log(`      (waited ${ms} ms for ${count} plies: status "${shown[0]}", moves "${shown[1]}")`)
    return false
  }
}

const state = (page) => page.evaluate(() => ({ fen: window.bachess.fen(), moves: window.bachess.moves() }))

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
// One SAN move: castling, a piece move, or a pawn move (with promotion); check or mate.
const SAN = /^(O-O(-O)?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](x[a-h])?[1-8](=[QRBN])?)[+#]?$/
// An analysis line: a score, then moves in SAN only.
function sanLine(text) {
  const [score, ...moves] = text.trim().split(/\s+/)
  return /^([+-]\d+\.\d\d|#-?\d+)$/.test(score) && moves.length > 0 && moves.every((m) => SAN.test(m))
}

// The squares marked as legal destinations (cm-chessboard's dots and bevels).
const hintSquares = (page) => page.evaluate(() => Array.from(document.querySelectorAll("use.marker-dot, use.marker-bevel"),
  (u) => u.parentNode.getAttribute("data-square")).sort())
// Whether a1 is drawn below and left of h8 (White at the bottom), once the board has been
// redrawn (cm-chessboard turns it asynchronously); waits up to 3 s for `expected`.
async function whiteAtBottom(page, expected = true) {
  const test = (want) => {
    const r1 = document.querySelector('rect[data-square="a1"]'), r8 = document.querySelector('rect[data-square="h8"]')
    if (!r1 || !r8) return false  // being redrawn
    const a1 = r1.getBoundingClientRect(), h8 = r8.getBoundingClientRect()
    return (a1.y > h8.y && a1.x < h8.x) === want
  }
  await page.waitForFunction(test, expected, { timeout: 3000 }).catch(() => {})
  return page.evaluate(test, true)
}
const clockSeconds = (text) => { const m = /(\d+):(\d\d)/.exec(text); return m ? 60 * +m[1] + +m[2] : NaN }
const barPercent = (page) => page.locator("#evalbar-white").evaluate((e) => e.style.height)

async function main() {
  const port = await freePort()
  const server = await startServer(port)
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] })
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 820 }, acceptDownloads: true })
    const errors = []
    page.on("pageerror", (e) => errors.push(String(e)))
    // Every command the page sends, with the server's answer.
    const commands = []
    page.on("response", (r) => {
      if (r.url().endsWith("/command")) commands.push({ line: r.request().postData(), status: r.status() })
    })
    const sent = (line) => commands.some((c) => c.line === line && c.status === 200)
    await page.goto(`http://127.0.0.1:${port}/`)
    await page.fill("#minutes", "0.5")   // the engine's replies come quickly
    await page.fill("#increment", "0")

    // The board renders: 64 squares, 32 pieces.
    await page.waitForSelector('g[data-piece][data-square="e2"]', { timeout: 10000 })
    const squares = await page.locator("rect[data-square]").count()
    const pieces = await page.locator("g[data-piece][data-square]").count()
    check(squares === 64 && pieces === 32, `the board renders: ${squares} squares, ${pieces} pieces`)

    await page.evaluate(() => window.bachess.settled())

    // The human's clock runs at the start of the game (5 minutes: the first game began with the page).
    const clock0 = await page.locator("#clock-bottom").textContent()
    await page.waitForTimeout(2300)
    const clock1 = await page.locator("#clock-bottom").textContent()
    const running = await page.locator("#clock-bottom.running").count()
    check(/^White/.test(clock0) && clockSeconds(clock1) <= clockSeconds(clock0) - 2 && running === 1,
      `White's clock counts down while White is to move ("${clock0}" -> "${clock1}" in 2.3 s)`)

    // Flip: Black at the bottom, and its clock with it; and back.
    const before = await whiteAtBottom(page)
    await page.click("#flip")
    const flipped = !(await whiteAtBottom(page, false))
    await page.waitForFunction(() => /^Black/.test(document.querySelector("#clock-bottom").textContent), null, { timeout: 2000 }).catch(() => {})
    const bottomClock = await page.locator("#clock-bottom").textContent()
    await page.click("#flip")
    check(before && flipped && /^Black/.test(bottomClock) && (await whiteAtBottom(page)),
      `Flip turns the board (a1 at the top, "${bottomClock}" at the bottom) and back`)

    // Legal-move hints: selecting the e2 pawn marks e3 and e4, and only them.
    await click(page, "e2")
    const hints = await hintSquares(page)
    check(hints.join(" ") === "e3 e4", `selecting e2 marks its legal moves (${hints.join(" ") || "none"})`)

    // A human move by clicking (e2 is selected); the engine answers with a legal move.
    await click(page, "e4")
    await page.waitForFunction(() => window.bachess.moves().length >= 1, null, { timeout: 5000 })
    check((await state(page)).moves[0] === "e4", "a move made by clicking e2 then e4 is played (e4)")
    await page.waitForFunction(() => window.bachess.moves().length >= 2, null, { timeout: 30000 })
    const afterReply = await state(page)
    const ucis = await page.evaluate(() => window.bachess.uci())
    check(afterReply.moves.length === 2 && legalLine(START, ucis) && (await hintSquares(page)).length === 0,
      `the engine answers with a legal move (${afterReply.moves[1]})`)
    await page.waitForSelector(`g[data-piece][data-square="e4"]`)

    // An illegal drag is refused: the pawn stays, the game does not change.
    await drag(page, "d2", "d5")
    await page.waitForTimeout(500)
    const afterDrag = await state(page)
    const d2 = await page.locator('g[data-piece="wp"][data-square="d2"]').count()
    const status = await page.locator("#status").textContent()
    check(afterDrag.moves.length === 2 && d2 === 1 && /illegal/.test(status),
      `an illegal drag d2-d5 is refused (status: "${status}")`)

    // A legal drag is played.
    await drag(page, "g1", "f3")
    await page.waitForFunction(() => window.bachess.moves().length >= 3, null, { timeout: 5000 })
    check((await state(page)).moves[2] === "Nf3", "a legal drag g1-f3 is played (Nf3)")

    // Analysis: 3 principal variations in SAN (MultiPV 3), depth and speed, the best move as an
    // arrow, and the evaluation graph with a point for each search so far.
    await page.waitForFunction(() => window.bachess.moves().length >= 4, null, { timeout: 30000 })
    await page.check('input[name=mode][value=analyse]')
    await page.waitForFunction(() => document.querySelectorAll("#lines li").length === 3 &&
      Array.from(document.querySelectorAll("#lines li")).every((li) => li.textContent.length > 8), null, { timeout: 15000 })
    await page.waitForTimeout(1500)
    const lines = await page.locator("#lines li").allTextContents()
    check(lines.length === 3 && lines.every(sanLine) && sent("setoption name MultiPV value 3"),
      `analysis shows 3 lines (MultiPV 3), each a score and moves in SAN: ${lines.map((l) => `"${l.slice(0, 40)}"`).join(", ")}`)
    const stats = await page.locator("#search-stats").textContent()
    const statsMatch = /^depth (\d+)\s+(\d+) kN\/s$/.exec(stats)
    check(statsMatch && +statsMatch[1] >= 1 && +statsMatch[2] > 0, `depth and speed are shown ("${stats}")`)
    const arrows = await page.locator(".arrow, g.arrow, [class*=arrow-]").count()
    check(arrows > 0, `the best move is drawn as an arrow (${arrows})`)
    const points = await page.evaluate(() => window.bachess.evals().filter((e) => e !== undefined).length)
    const stroke = await page.evaluate(() => {
      const c = document.querySelector("#graph"), d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data
      let n = 0
      for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && d[i + 1] > d[i] + 30 && d[i + 1] > d[i + 2] + 30) n++
      return n
    })
    check(points >= 3 && stroke > 50, `the evaluation graph has ${points} points after 4 plies (${stroke} pixels of its line)`)
    if (screenshot) await page.screenshot({ path: screenshot })

    // PGN export: shown, downloaded as bachess.pgn, and read back by bachess.
    const moves = (await state(page)).moves
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 10000 }).catch(() => null),
      page.click("#export-pgn")])
    await page.waitForFunction(() => document.querySelector("#pgn").value.includes("1. e4"), null, { timeout: 5000 })
    const shown = await page.locator("#pgn").inputValue()
    const downloaded = download ? readFileSync(await download.path(), "utf8") : ""
    check(download && download.suggestedFilename() === "bachess.pgn" && downloaded === shown && downloaded.includes("1. e4"),
      `the PGN is downloaded as ${download && download.suggestedFilename()} (${downloaded.length} bytes, the same as shown)`)
    const exported = readBack(downloaded || shown)
    check(/games: 1 read, 0 unreadable/.test(exported.report) && exported.sans.join(" ") === moves.join(" "),
      `the downloaded PGN is read back by bachess book read with the same ${moves.length} moves`)

    // PGN import (analysis mode follows).
    await page.fill("#pgn", '[Event "t"]\n[Result "*"]\n\n1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 *\n')
    await page.click("#import-pgn")
    await page.waitForFunction(() => window.bachess.moves().length === 6, null, { timeout: 5000 })
    check((await state(page)).moves.join(" ") === "d4 Nf6 c4 e6 Nc3 Bb4", "a pasted PGN is imported (6 plies)")
    await page.evaluate(() => window.bachess.settled())

    // PGN import from a file.
    await page.setInputFiles("#pgn-file", { name: "game.pgn", mimeType: "text/plain",
      buffer: Buffer.from('[Event "f"]\n[Result "*"]\n\n1. c4 e5 2. Nc3 Nf6 3. g3 d5 4. cxd5 *\n') })
    await page.waitForFunction(() => window.bachess.moves().length === 7, null, { timeout: 5000 }).catch(() => {})
    const fromFile = (await state(page)).moves.join(" ")
    check(fromFile === "c4 e5 Nc3 Nf6 g3 d5 cxd5", `a PGN file is imported (${fromFile})`)
    await page.evaluate(() => window.bachess.settled())

    // The evaluation bar: neutral after a new position is set up (no search in play mode with the
    // human to move), then well over half for White once analysis runs on Black without a queen.
    await page.check('input[name=mode][value=play]')
    await page.evaluate(() => window.bachess.settled())
    await page.fill("#fen", "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    await page.click("#set-fen")
    await page.evaluate(() => window.bachess.settled())
    const neutral = await barPercent(page), neutralScore = await page.locator("#evalbar").getAttribute("data-score")
    await page.check('input[name=mode][value=analyse]')
    await page.waitForFunction(() => +document.querySelector("#evalbar").dataset.score > 300, null, { timeout: 15000 }).catch(() => {})
    const queenUp = await barPercent(page), queenUpScore = await page.locator("#evalbar").getAttribute("data-score")
    check(parseFloat(neutral) === 50 && neutralScore === "0" && parseFloat(queenUp) > 80 && +queenUpScore > 300,
      `the evaluation bar moves with analysis: ${neutral} (${neutralScore} cp) before, ${queenUp} (${queenUpScore} cp) a queen up`)

    // Promotion through the dialog: an under-promotion to a knight.
    await page.check('input[name=mode][value=play]')
    await page.evaluate(() => window.bachess.settled())
    await page.fill("#fen", "8/P6k/8/8/8/8/8/K7 w - - 0 1")
    await page.click("#set-fen")
    await page.waitForSelector('g[data-piece="wp"][data-square="a7"]')
    await click(page, "a7")
    await click(page, "a8")
    await page.waitForSelector('.promotion-dialog-button[data-piece="wn"]', { timeout: 5000 })
    await page.locator('.promotion-dialog-button[data-piece="wn"]').click()
    await page.waitForFunction(() => window.bachess.moves().length >= 1, null, { timeout: 5000 })
    check((await state(page)).moves[0] === "a8=N", `a promotion chosen in the dialog (${(await state(page)).moves[0]})`)

    // A FEN set up with Chess960 ticked: a Chess960 game, and the engine told so.
    const fen960 = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1"
    await page.fill("#fen", fen960)
    await page.check("#chess960")
    await page.click("#set-fen")
    await page.evaluate(() => window.bachess.settled())
    const set960 = await page.evaluate(() => [window.bachess.chess960(), window.bachess.startFen()])
    const told960 = sent("setoption name UCI_Chess960 value true")
    await page.waitForSelector('g[data-piece="wb"][data-square="a1"]', { timeout: 3000 }).catch(() => {})
    check(set960[0] === true && set960[1] === fen960 && told960 &&
      (await page.locator('g[data-piece="wb"][data-square="a1"]').count()) === 1,
      `a FEN set up with Chess960 ticked is a Chess960 game (${set960[0]}, ${set960[1]}), and the engine is told (${told960})`)

    // Chess960: a new game from a random start, a pawn move by clicks, a legal reply.
    await page.fill("#minutes", "0.5")
    await page.click("#new-960")
    await page.evaluate(() => window.bachess.settled())
    await page.waitForFunction(() => window.bachess.chess960() && window.bachess.moves().length === 0, null, { timeout: 5000 })
    const start960 = await page.evaluate(() => window.bachess.startFen())
    // The board must show the new start before the clicks (a click on a half-redrawn board hits
    // no square). A b2 pawn stands in every Chess960 start, so it is White's back rank that tells
    // the new start from the one before.
    const backRank = start960.split(" ")[0].split("/")[7].toLowerCase()
    await page.waitForFunction((rank) => [...rank].every((piece, file) =>
      document.querySelector(`g[data-piece="w${piece}"][data-square="${"abcdefgh"[file]}1"]`)), backRank, { timeout: 5000 })
    await click(page, "b2")
    await click(page, "b3")
    await waitPlies(page, 2, 30000)
    const ucis960 = await page.evaluate(() => window.bachess.uci())
    check(ucis960.length === 2 && legalLine(start960, ucis960), `Chess960 from ${start960.split(" ")[0]}: b3 and the engine's legal reply ${ucis960[1]}`)
    await page.click("#export-pgn")
    await page.waitForFunction(() => document.querySelector("#pgn").value.includes("chess960"), null, { timeout: 5000 })
    // `book read` takes standard chess only, so the Chess960 PGN is checked as text: its tags,
    // and its SAN (bachess's game log) against the page's (chessops).
    const pgn960 = await page.locator("#pgn").inputValue()
    const sans960 = (await state(page)).moves
    check(pgn960.includes('[Variant "chess960"]') && pgn960.includes(`[FEN "${start960}"]`) &&
      pgn960.includes(`1. ${sans960[0]} ${sans960[1]}`),
      `the Chess960 PGN has Variant and FEN, and the page's moves (1. ${sans960.join(" ")})`)

    // Playing Black at a limited strength: the engine opens as White; the board shows Black at the bottom.
    await page.selectOption("#colour", "b")
    await page.check("#limit")
    await page.fill("#elo", "1200")
    await page.fill("#minutes", "0.5")
    await page.click("#new-game")
    await page.evaluate(() => window.bachess.settled())
    await waitPlies(page, 1, 30000)
    const opening = await page.evaluate(() => window.bachess.uci())
    check(opening.length === 1 && legalLine(START, opening) && !(await whiteAtBottom(page, false)),
      `playing Black, the engine opens as White (${opening[0]}), Black at the bottom`)
    check(sent("setoption name UCI_LimitStrength value true") && sent("setoption name UCI_Elo value 1200"),
      "the strength reaches the engine: setoption UCI_LimitStrength true and UCI_Elo 1200 accepted")

    // Take back: after the human's move and the engine's reply, back to the human's move.
    await page.waitForSelector('g[data-piece="bp"][data-square="a7"]')
    await click(page, "a7")
    await click(page, "a6")
    await waitPlies(page, 3, 30000)
    const three = (await state(page)).moves.length
    await page.click("#takeback")
    await page.evaluate(() => window.bachess.settled())
    await page.waitForSelector('g[data-piece="bp"][data-square="a7"]', { timeout: 3000 }).catch(() => {})
    const afterTakeback = await state(page)
    check(three === 3 && afterTakeback.moves.length === 1 && afterTakeback.fen.split(" ")[1] === "b" &&
      (await page.locator('g[data-piece="bp"][data-square="a7"]').count()) === 1,
      `take back undoes the engine's reply and the human's move (${three} plies -> ${afterTakeback.moves.length}: ${afterTakeback.fen})`)

    // New game, as White: the start position, no moves.
    await page.selectOption("#colour", "w")
    await page.click("#new-game")
    await page.evaluate(() => window.bachess.settled())
    const fresh = await state(page)
    check(fresh.moves.length === 0 && fresh.fen === START && (await whiteAtBottom(page)) &&
      (await page.locator("g[data-piece][data-square]").count()) === 32,
      `New game starts afresh (${fresh.moves.length} moves, ${fresh.fen.split(" ")[0]})`)

    check(errors.length === 0, `no script errors on the page${errors.length ? ": " + errors[0] : ""}`)
  } finally {
    await browser.close()
    server.kill("SIGTERM")
  }
  console.log(failures.length ? `${failures.length} failed` : "all passed")
  process.exit(failures.length ? 1 : 0)
}

main().catch((e) => { console.error(e); process.exit(1) })
