/**
 * The map of docs/architecture.md, drawn from the real imports of src/: its rooms, the arrows
 * between them and the floor each stands on. It sits in the page between `<!-- rooms -->` and
 * `<!-- /rooms -->`; `npm run docs:map` rewrites it, and test/docs/architecture-map.node.test.ts
 * fails when the page is stale.
 *
 * A room is a folder of src/ (each one right under it, and any deeper one with a face of its own,
 * an `index.ts`), or one of the modules at the root of src/ (the Worker, the app, the shared
 * modules). A module belongs to the deepest room that holds it. The imports are
 * dependency-cruiser's, with the project's configuration, so they are those the layering check
 * reads: type-only imports count, since a room that names another's type knows it.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { code, markdownTable } from '../lib/markdown-table.mjs'

export const OPEN = '<!-- rooms -->'
export const CLOSE = '<!-- /rooms -->'
export const COMMAND = 'npm run docs:map'

/**
 * A few words on what each room holds, for the picture. A room without them is drawn by its
 * name alone, so a new room is on the map before anyone writes its words here.
 */
const WORDS = {
  'index.ts': 'the Worker, its Durable Object classes',
  'app.ts': 'middleware order, routes, error handler',
  'config.ts': 'the Env type, settings parsed from vars',
  'timeout.ts': 'deadlines',
  'client/': 'the typed client',
  'contract/': 'names, paths, limits, codes',
  'deprecation/': 'Deprecation, Sunset headers',
  'export-safety/': 'the display-model vocabulary',
  'export-safety/readers/': "the plugins' own readers",
  'exports/': 'the read route',
  'http/': 'errors, CORS, compression',
  'ids/': 'ID space, allocator shards, grace copies',
  'json/': 'the JSON byte reader',
  'observability/': 'log line, metrics',
  'openapi/': 'the OpenAPI document',
  'publish/': 'editor API, RPC, validation',
  'rate-limit/': 'middleware, per-client and per-network objects',
  'settings/': "every setting's reader, for the scripts' check",
  'storage/': 'the KV record, chunked reads',
  'substitution/': 'bytes in, bytes out',
}

/**
 * `depcruise src --output-type json` in `root`, with the project's configuration: each module of
 * src/ and what it imports. The layering rules' verdicts are not this map's concern.
 */
export function cruise(root, config = join(root, 'dependency-cruiser.config.cjs')) {
  const output = execFileSync(
    join(root, 'node_modules', '.bin', 'depcruise'),
    ['src', '--config', config, '--output-type', 'json', '--no-progress'],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
  return JSON.parse(output).modules.map(({ source, dependencies }) => ({
    source,
    imports: dependencies.map((dependency) => dependency.resolved),
  }))
}

/** The room of a module of src/ (`rate-limit/`, `export-safety/readers/`, `app.ts`), or none. */
function roomOf(path, faces) {
  if (!path.startsWith('src/')) return undefined
  const parts = path.slice('src/'.length).split('/')
  if (parts.length === 1) return parts[0]
  let room = `${parts[0]}/`
  for (let depth = 2; depth < parts.length; depth++) {
    const folder = `${parts.slice(0, depth).join('/')}/`
    if (faces.has(folder)) room = folder
  }
  return room
}

/** Each room and the rooms it imports, from the modules `cruise` lists. */
export function roomsOf(modules) {
  const faces = new Set(
    modules
      .map(({ source }) => /^src\/(.+\/)index\.ts$/.exec(source)?.[1])
      .filter((folder) => folder !== undefined),
  )
  const rooms = new Map()
  for (const { source, imports } of modules) {
    const room = roomOf(source, faces)
    if (room === undefined || source.endsWith('.d.ts')) continue
    if (!rooms.has(room)) rooms.set(room, new Set())
    for (const path of imports) {
      const other = roomOf(path, faces)
      if (other !== undefined && other !== room && !path.endsWith('.d.ts')) {
        rooms.get(room).add(other)
      }
    }
  }
  return rooms
}

/** Every room `room` reaches through its imports, itself excluded unless through a cycle. */
function reach(rooms, room) {
  const seen = new Set()
  const stack = [...rooms.get(room)]
  while (stack.length > 0) {
    const next = stack.pop()
    if (seen.has(next)) continue
    seen.add(next)
    stack.push(...(rooms.get(next) ?? []))
  }
  return seen
}

/**
 * The floor of each room: 0 for a room that imports none, else one above the highest it imports.
 * Rooms that import each other (the layering check refuses it, but the map still draws it) share
 * a floor.
 */
export function floorsOf(rooms) {
  const reached = new Map([...rooms.keys()].map((room) => [room, reach(rooms, room)]))
  const floors = new Map()
  const floorOf = (room) => {
    if (floors.has(room)) return floors.get(room)
    floors.set(room, 0)
    const below = [...rooms.get(room)].filter((other) => !reached.get(other)?.has(room))
    const cycle = [...rooms.get(room)].filter((other) => reached.get(other)?.has(room))
    const floor = Math.max(-1, ...below.map(floorOf)) + 1
    floors.set(room, floor)
    for (const other of cycle) if ((floors.get(other) ?? -1) < floor) floors.set(other, floor)
    return floor
  }
  for (const room of [...rooms.keys()].sort()) floorOf(room)
  return floors
}

/**
 * The arrows the picture draws: an import is left out when the room reaches the imported room
 * through another room it imports, so each arrow is a step the picture cannot show otherwise.
 * The table lists every import.
 */
function drawnArrows(rooms, room) {
  const direct = [...rooms.get(room)]
  return direct.filter(
    (other) => !direct.some((via) => via !== other && reach(rooms, via).has(other)),
  )
}

/** The room's folder in src/ written out: `src/rate-limit/`, `src/app.ts`. */
const pathOf = (room) => `src/${room}`
/** A Mermaid node id: letters, digits, `-` and `_`. */
const idOf = (room) => room.replace(/(\.ts|\/)$/, '').replace(/[^A-Za-z0-9_-]/g, '_')

/** Rooms from the highest floor down, by name within a floor. */
function ordered(rooms, floors) {
  return [...rooms.keys()].sort(
    (a, b) => floors.get(b) - floors.get(a) || (a < b ? -1 : a > b ? 1 : 0),
  )
}

/** The Mermaid picture: a node per room (a room's own rooms in a box with it), its arrows. */
function picture(rooms, floors) {
  const order = ordered(rooms, floors)
  const node = (room) => {
    const words = WORDS[room]
    return `${idOf(room)}["${pathOf(room)}${words === undefined ? '' : `<br/>${words}`}"]`
  }
  /** The rooms right inside `room` (`export-safety/readers/` inside `export-safety/`). */
  const inside = (room) =>
    order.filter(
      (other) =>
        other !== room && other.startsWith(room) && /^[^/]+\/$/.test(other.slice(room.length)),
    )
  const lines = ['```mermaid', 'flowchart TD']
  const declare = (room, indent) => {
    const nested = room.endsWith('/') ? inside(room) : []
    if (nested.length === 0) {
      lines.push(`${indent}${node(room)}`)
      return
    }
    lines.push(`${indent}subgraph ${idOf(room)}-rooms ["${pathOf(room)} and its rooms"]`)
    lines.push(`${indent}  ${node(room)}`)
    for (const other of nested) declare(other, `${indent}  `)
    lines.push(`${indent}end`)
  }
  for (const room of order) if (!room.slice(0, -1).includes('/')) declare(room, '  ')
  for (const room of order) {
    const arrows = drawnArrows(rooms, room)
    if (arrows.length === 0) continue
    const targets = ordered(new Map(arrows.map((other) => [other, null])), floors)
    lines.push(`  ${idOf(room)} --> ${targets.map(idOf).join(' & ')}`)
  }
  lines.push('```')
  return lines.join('\n')
}

/** The map: the picture, then each room with its floor and every room it imports. */
export function drawMap(modules) {
  const rooms = roomsOf(modules)
  const floors = floorsOf(rooms)
  const rows = ordered(rooms, floors).map((room) => [
    String(floors.get(room)),
    code(pathOf(room)),
    ordered(new Map([...rooms.get(room)].map((other) => [other, null])), floors)
      .map((other) => code(other))
      .join(', '),
  ])
  return [picture(rooms, floors), '', markdownTable(['floor', 'room', 'imports'], rows)].join('\n')
}

/** `page` with `map` between its markers. */
export function withMap(page, map) {
  const start = page.indexOf(OPEN)
  const end = page.indexOf(CLOSE)
  if (start < 0 || end < start) throw new Error(`the page has no ${OPEN} ... ${CLOSE}`)
  return `${page.slice(0, start + OPEN.length)}\n\n${map}\n\n${page.slice(end)}`
}
