#!/usr/bin/env node
// The try-it page as Workers Static Assets, in dist/ (gitignored): index.html and _headers from
// src/browser, its script (src/browser/page.ts with the typed client and three), the Web Worker
// that reads its model (model-worker.ts) and its style bundled by esbuild under content-hashed
// names in /assets/, so the bundle may be cached for a year and the page revalidated. The
// service's wrangler.toml runs this as its `[build] command` (`npm start`, `npm run build`,
// deploy, the bench) and serves dist/ as its `[assets]`. Files are replaced by rename and only
// when they change, so a build running beside a server that reads them never shows it a
// half-written file.
import { build } from 'esbuild'
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('.', import.meta.url))
const PAGE = join(ROOT, 'src/browser')
const ASSETS_DIR = join(ROOT, 'dist')
const BUNDLE_DIR = join(ASSETS_DIR, 'assets')

/** Builds dist/; resolves to the names and sizes of the files written there. */
async function buildAssets() {
  // The model reader's worker first: the page is bundled with its content-hashed name.
  const worker = (await bundle('model-worker.ts')).outputFiles[0].contents
  const workerName = `assets/${hashed('model-worker', 'js', worker)}`
  const page = (await bundle('page.ts', { MODEL_WORKER_URL: JSON.stringify(`/${workerName}`) }))
    .outputFiles[0].contents
  const files = new Map([[`assets/${hashed('try-it', 'js', page)}`, page]])
  files.set(workerName, worker)
  const style = readFileSync(join(PAGE, 'page.css'))
  files.set(`assets/${hashed('try-it', 'css', style)}`, style)
  const [script, , sheet] = [...files.keys()]
  const html = readFileSync(join(PAGE, 'index.html'), 'utf8')
    .replace('/assets/try-it.js', `/${script}`)
    .replace('/assets/try-it.css', `/${sheet}`)
  files.set('index.html', Buffer.from(html))
  files.set('_headers', readFileSync(join(PAGE, '_headers')))

  mkdirSync(BUNDLE_DIR, { recursive: true })
  for (const [name, bytes] of files) writeIfChanged(join(ASSETS_DIR, name), bytes)
  for (const name of readdirSync(BUNDLE_DIR)) {
    if (!files.has(`assets/${name}`)) rmSync(join(BUNDLE_DIR, name), { force: true })
  }
  return [...files].map(([name, bytes]) => ({ name, bytes: bytes.length }))
}

/** One script of the page bundled by esbuild, with its imports (the client, three). */
function bundle(entry, define = {}) {
  return build({
    absWorkingDir: ROOT,
    entryPoints: [join(PAGE, entry)],
    tsconfig: join(ROOT, 'tsconfig.json'),
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    platform: 'browser',
    charset: 'utf8',
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
    define,
  })
}

function hashed(name, extension, bytes) {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12)
  return `${name}-${hash}.${extension}`
}

function writeIfChanged(path, bytes) {
  let current
  try {
    current = readFileSync(path)
  } catch {}
  if (current !== undefined && Buffer.compare(current, bytes) === 0) return
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, bytes)
  renameSync(temporary, path)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { name, bytes } of await buildAssets()) {
    console.log(`dist/${name}  ${bytes.toLocaleString('en')} bytes`)
  }
}
