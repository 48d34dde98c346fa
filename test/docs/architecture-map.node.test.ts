/**
 * The map of docs/architecture.md (its picture of the rooms and its floor table) is what the
 * imports of src/ draw now (`npm run docs:map`, scripts/docs/architecture-map.mjs): a room added,
 * removed or wired differently fails here until the map is redrawn. Runs in Node (the `e2e`
 * project), since the imports are dependency-cruiser's, the layering check's own reader.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  COMMAND,
  cruise,
  drawMap,
  floorsOf,
  roomsOf,
  withMap,
  type CruisedModule,
} from '../../scripts/docs/architecture-map.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PAGE = 'docs/architecture.md'

describe("docs/architecture.md's map", () => {
  let modules: CruisedModule[]
  beforeAll(() => {
    modules = cruise(ROOT)
  })

  it('is what the imports of src/ draw now', () => {
    const page = readFileSync(join(ROOT, PAGE), 'utf8')
    expect(page, `${PAGE}'s map is not what src/'s imports draw: run \`${COMMAND}\``).toBe(
      withMap(page, drawMap(modules)),
    )
  })

  it('holds every folder of src/, every folder inside one with a face, every module at its root', () => {
    const rooms = new Set(
      modules
        .flatMap(({ source }) => [
          /^src\/([^/]+\/|[^/]+\.ts$)/.exec(source)?.[1],
          /^src\/([^/]+\/.+\/)index\.ts$/.exec(source)?.[1],
        ])
        .filter((room): room is string => room !== undefined && !room.endsWith('.d.ts')),
    )
    // A room inside a room (export-safety/readers/) is found too.
    expect([...rooms].filter((room) => room.split('/').length > 2)).not.toEqual([])
    const map = drawMap(modules)
    expect(rooms.size).toBeGreaterThan(10)
    for (const room of rooms) expect(map).toContain(`| \`src/${room}\``)
  })
})

describe('the map drawing', () => {
  /** Modules with the imports given as `path -> path, path`. */
  const modules = (...lines: string[]): CruisedModule[] =>
    lines.map((line) => {
      const [source, imports = ''] = line.split(' -> ')
      return { source: source!, imports: imports === '' ? [] : imports.split(', ') }
    })

  it('draws a folder with its own face inside a room as a room of its own', () => {
    const rooms = roomsOf(
      modules(
        'src/index.ts -> src/outer/index.ts',
        'src/outer/index.ts -> src/outer/inner/index.ts, src/outer/own.ts',
        'src/outer/own.ts',
        'src/outer/inner/index.ts -> src/outer/inner/deep/file.ts, src/leaf/index.ts',
        'src/outer/inner/deep/file.ts',
        'src/leaf/index.ts -> package.json',
      ),
    )
    expect(Object.fromEntries([...rooms].map(([room, imports]) => [room, [...imports]]))).toEqual({
      'index.ts': ['outer/'],
      'outer/': ['outer/inner/'],
      'outer/inner/': ['leaf/'],
      'leaf/': [],
    })
    expect(Object.fromEntries(floorsOf(rooms))).toEqual({
      'index.ts': 3,
      'outer/': 2,
      'outer/inner/': 1,
      'leaf/': 0,
    })
  })

  it('draws an arrow only where no other path leads, and lists every import in the table', () => {
    const map = drawMap(
      modules(
        'src/index.ts -> src/app.ts, src/low/index.ts',
        'src/app.ts -> src/low/index.ts',
        'src/low/index.ts',
      ),
    )
    expect(map).toContain('  index --> app\n  app --> low\n')
    expect(map).not.toContain('index --> low')
    expect(map).toContain('| `src/index.ts` | `app.ts`, `low/` |')
  })

  it('puts rooms that import each other on one floor', () => {
    const floors = floorsOf(
      roomsOf(
        modules(
          'src/top.ts -> src/a/index.ts',
          'src/a/index.ts -> src/b/index.ts',
          'src/b/index.ts -> src/a/x.ts, src/base/index.ts',
          'src/a/x.ts',
          'src/base/index.ts',
        ),
      ),
    )
    expect(floors.get('a/')).toBe(floors.get('b/'))
    expect(floors.get('base/')).toBe(0)
    expect(floors.get('top.ts')).toBe(floors.get('a/')! + 1)
  })
})
