// web_browser_test.mjs — the page of `bachess web` in a real headless browser
// (Debian's chromium, driven by playwright-core from web/node_modules):
//   the board renders; a move made by clicking; the engine answers with a
//   legal move; an illegal drag is refused; analysis shows a principal
//   variation and moves the evaluation bar; the exported PGN is read back by
//   `bachess book read` with the same moves. Saves a screenshot (docs/web.png).
//
//   node tests/web_browser_test.mjs ./bachess [docs/web.png]
import { spawn, execFileSync } from "node:child_process"
import { createRequire } from "node:module"
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve, dirname } from "node:path"
import { fileURLToPath } from "node:url"
import net from "node:net"

const here = dirname(fileURLToPath(import.meta.url))
const require = createRequire(join(here, "..", "web", "package.json"))
const { chromium } = require("playwright-core")
const { Chess } = require("chess.js")

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
    const replay = new Chess()
    let legal = true
    for (const san of afterReply.moves) { try { replay.move(san) } catch { legal = false } }
    check(legal && afterReply.moves.length === 2, `the engine answers with a legal move (${afterReply.moves[1]})`)
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
    const pgn = await page.locator("#pgn").inputValue()
    const dir = mkdtempSync(join(tmpdir(), "bachess-web-"))
    writeFileSync(join(dir, "page.pgn"), pgn)
    const report = execFileSync(engine, ["book", "read", join(dir, "page.pgn"), "-o", join(dir, "back.pgn")]).toString()
    const back = new Chess()
    back.loadPgn(readFileSync(join(dir, "back.pgn"), "utf8"))
    check(/games: 1 read, 0 unreadable/.test(report) && back.history().join(" ") === moves.join(" "),
      `the exported PGN is read back by bachess book read with the same ${moves.length} moves`)
    check(errors.length === 0, `no script errors on the page${errors.length ? ": " + errors[0] : ""}`)
  } finally {
    await browser.close()
    server.kill("SIGTERM")
  }
  console.log(failures.length ? `${failures.length} failed` : "all passed")
  process.exit(failures.length ? 1 : 0)
}

main().catch((e) => { console.error(e); process.exit(1) })
