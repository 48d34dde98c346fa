/**
 * The second faces (`src/<room>/testing.ts`) hold only what a test or the bench cannot reach
 * through a room's face or through the Worker (docs/architecture.md#the-layering-rules): each
 * export says why on the line above it, and no room's second face grows past what it holds
 * today. A name added must say why, and replace one or raise its room's bound here, in review.
 * `node scripts/house/count-testing-names.mjs` prints the names per room.
 */
import { describe, expect, it } from 'vitest'

const SECOND_FACES = import.meta.glob<string>('../../src/*/testing.ts', {
  query: '?raw',
  import: 'default',
  eager: true,
})

/** The most names each room's second face may export; a room not listed may have none. */
const BOUNDS: Record<string, number> = {
  'export-safety': 4,
  publish: 1,
  'rate-limit': 17,
}

const EXPORT = /^export\s+(?:type\s+)?\{([^}]*)\}/gm
const REASON = /^\s*(\/\/.*|\/\*\*.*\*\/)\s*$/

/** The room of a second face's path. */
function roomOf(path: string): string {
  return /src\/([^/]+)\/testing\.ts$/.exec(path)![1]!
}

/** The names an export statement's braces list: `a`, `type B`, `default as c` give a, B, c. */
function namesOf(list: string): string[] {
  return list
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) =>
      item
        .split(/\s+as\s+/)
        .pop()!
        .replace(/^type\s+/, ''),
    )
}

const faces = Object.entries(SECOND_FACES).map(([path, text]) => ({ room: roomOf(path), text }))

describe('the second faces', () => {
  it('are found', () => {
    expect(faces.map((face) => face.room)).toContain('rate-limit')
  })

  it.each(faces)(
    '$room: exports by name only, each statement under the line that says why',
    ({ room, text }) => {
      expect(text).not.toMatch(/^export\s+\*/m)
      expect(text).not.toMatch(/^export\s+(const|let|function|class|interface|type\s+\w+\s*=)/m)
      const lines = text.split('\n')
      for (const match of text.matchAll(EXPORT)) {
        const line = text.slice(0, match.index).split('\n').length - 1
        expect(lines[line - 1], `the line above ${match[0].split('\n')[0]}`).toMatch(REASON)
      }
    },
  )

  it.each(faces)('$room: stays within its bound', ({ room, text }) => {
    const names = [...text.matchAll(EXPORT)].flatMap((match) => namesOf(match[1]!))
    expect(names.length).toBeLessThanOrEqual(BOUNDS[room] ?? 0)
    expect(new Set(names).size).toBe(names.length)
  })
})
