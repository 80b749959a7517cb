// web_browser_test.mjs — the page of `bachess web` in a real headless browser
// (Debian's chromium, driven by playwright-core from web/node_modules):
//   the board renders; a move made by clicking; the engine answers with a
//   legal move; an illegal drag is refused; analysis shows a principal
//   variation and moves the evaluation bar; the exported PGN is read back by
//   `bachess book read` with the same moves; a promotion through the dialog;
//   PGN import; a Chess960 game with a legal engine reply, whose PGN bachess
//   reads back too. Saves a screenshot (the one in docs/web.png).
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

async function main() {
  const port = await freePort()
  const server = await startServer(port)
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] })
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 820 }, acceptDownloads: true })
    const errors = []
    page.on("pageerror", (e) => errors.push(String(e)))
    await page.goto(`http://127.0.0.1:${port}/`)
    await page.fill("#minutes", "0.5")   // the engine's replies come quickly
    await page.fill("#increment", "0")

    // The board renders: 64 squares, 32 pieces.
    await page.waitForSelector('g[data-piece][data-square="e2"]', { timeout: 10000 })
    const squares = await page.locator("rect[data-square]").count()
    const pieces = await page.locator("g[data-piece][data-square]").count()
    check(squares === 64 && pieces === 32, `the board renders: ${squares} squares, ${pieces} pieces`)

    // A human move by clicking; the engine answers with a legal move.
    await click(page, "e2")
    await click(page, "e4")
    await page.waitForFunction(() => window.bachess.moves().length >= 1, null, { timeout: 5000 })
    check((await state(page)).moves[0] === "e4", "a move made by clicking e2 then e4 is played (e4)")
    await page.waitForFunction(() => window.bachess.moves().length >= 2, null, { timeout: 30000 })
    const afterReply = await state(page)
    const ucis = await page.evaluate(() => window.bachess.uci())
    check(afterReply.moves.length === 2 && legalLine("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ucis),
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

    // Analysis: principal variations in SAN and a moving evaluation bar.
    await page.waitForFunction(() => window.bachess.moves().length >= 4, null, { timeout: 30000 })
    const barBefore = await page.locator("#evalbar-white").evaluate((e) => e.style.height)
    await page.check('input[name=mode][value=analyse]')
    await page.waitForFunction(() => document.querySelectorAll("#lines li").length >= 1 &&
      document.querySelector("#lines li").textContent.length > 8, null, { timeout: 15000 })
    await page.waitForTimeout(1500)
    const line = await page.locator("#lines li").first().textContent()
    const barAfter = await page.locator("#evalbar-white").evaluate((e) => e.style.height)
    const barScore = await page.locator("#evalbar").getAttribute("data-score")
    const arrows = await page.locator(".arrow, g.arrow, [class*=arrow-]").count()
    check(/^[+-]?#?-?\d/.test(line) && /[a-hNBRQKO]/.test(line.split(/\s+/)[1] || ""),
      `analysis shows a principal variation: "${line.slice(0, 60)}"`)
    check(barScore !== null && barAfter !== "" && barAfter !== "50%",
      `the evaluation bar moves (${barBefore || "unset"} -> ${barAfter} for ${barScore} cp)`)
    check(arrows > 0, `the best move is drawn as an arrow (${arrows})`)
    if (screenshot) await page.screenshot({ path: screenshot })

    // PGN export, read back by bachess.
    const moves = (await state(page)).moves
    await page.click("#export-pgn")
    await page.waitForFunction(() => document.querySelector("#pgn").value.includes("1. e4"), null, { timeout: 5000 })
    const exported = readBack(await page.locator("#pgn").inputValue())
    check(/games: 1 read, 0 unreadable/.test(exported.report) && exported.sans.join(" ") === moves.join(" "),
      `the exported PGN is read back by bachess book read with the same ${moves.length} moves`)

    // PGN import (analysis mode follows).
    await page.fill("#pgn", '[Event "t"]\n[Result "*"]\n\n1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 *\n')
    await page.click("#import-pgn")
    await page.waitForFunction(() => window.bachess.moves().length === 6, null, { timeout: 5000 })
    check((await state(page)).moves.join(" ") === "d4 Nf6 c4 e6 Nc3 Bb4", "a pasted PGN is imported (6 plies)")

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

    // Chess960: a new game from a random start, a pawn move by clicks, a legal reply.
    await page.fill("#minutes", "0.5")
    await page.click("#new-960")
    await page.evaluate(() => window.bachess.settled())
    await page.waitForFunction(() => window.bachess.chess960() && window.bachess.moves().length === 0, null, { timeout: 5000 })
    const start960 = await page.evaluate(() => window.bachess.startFen())
    // The game's state changes before the board is redrawn; a click before that lands on the
    // old position (no pawn on b2 there), and the move is never made.
    await page.waitForSelector('g[data-piece="wp"][data-square="b2"]', { timeout: 5000 })
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
    check(errors.length === 0, `no script errors on the page${errors.length ? ": " + errors[0] : ""}`)
  } finally {
    await browser.close()
    server.kill("SIGTERM")
  }
  console.log(failures.length ? `${failures.length} failed` : "all passed")
  process.exit(failures.length ? 1 : 0)
}

main().catch((e) => { console.error(e); process.exit(1) })
