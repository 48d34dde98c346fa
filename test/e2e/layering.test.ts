/**
 * The layering check (`npm run check:layers`, dependency-cruiser.config.cjs) fails on the
 * violations it exists for: a room of src/, the Worker's own files, a script or a test importing
 * another room's inner file instead of its face, and src/ importing a testing face. Run on a small
 * tree of rooms in a temporary folder, with the project's own configuration, so that each case is
 * one import away from a tree the check accepts.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CONFIG = join(ROOT, 'dependency-cruiser.config.cjs')
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise')

/**
 * Two rooms with their faces, the contract, the Worker, a bench script and a test: every import
 * goes through a face (or to the contract, whose files are faces), and a room's own files import
 * each other.
 */
const ACCEPTED: Record<string, string> = {
  'tsconfig.json': '{ "compilerOptions": { "module": "esnext", "moduleResolution": "bundler" } }',
  'src/contract/wire.ts': 'export const LIMIT = 1\n',
  'src/ids/allocator-client.ts':
    "import { LIMIT } from '../contract/wire'\nexport const lookupId = () => LIMIT\n",
  'src/ids/id-space.ts': 'export const SPACE = 9\n',
  'src/ids/index.ts': "export { lookupId } from './allocator-client'\n",
  'src/ids/testing.ts': "export { SPACE } from './id-space'\n",
  'src/exports/tag.ts': "export const tag = 'model'\n",
  'src/exports/serve.ts':
    "import { lookupId } from '../ids'\nimport { tag } from './tag'\n" +
    'export const serve = () => `${lookupId()}${tag}`\n',
  'src/exports/index.ts': "export { serve } from './serve'\n",
  'src/index.ts': "import { serve } from './exports'\nexport default serve\n",
  'scripts/bench/probe.ts': "import { lookupId } from '../../src/ids'\nlookupId()\n",
  'test/ids/probe.test.ts': "import { SPACE } from '../../src/ids/testing'\nexport { SPACE }\n",
}

const folders: string[] = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

/** `npm run check:layers`'s command on `ACCEPTED` with `changes` over it. */
function checkLayers(changes: Record<string, string> = {}): {
  status: number | null
  output: string
} {
  const folder = mkdtempSync(join(tmpdir(), 'layering-'))
  folders.push(folder)
  for (const [path, text] of Object.entries({ ...ACCEPTED, ...changes })) {
    mkdirSync(dirname(join(folder, path)), { recursive: true })
    writeFileSync(join(folder, path), text)
  }
  const run = spawnSync(DEPCRUISE, ['src', 'scripts', 'test', '--config', CONFIG], {
    cwd: folder,
    encoding: 'utf8',
  })
  return { status: run.status, output: run.stdout + run.stderr }
}

/** The violations dependency-cruiser prints, one `rule: from → to` each. */
function errorsOf(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('  error '))
    .map((line) => line.slice('  error '.length))
}

describe('the layering check', () => {
  it('accepts rooms that meet at their faces', () => {
    const { status, output } = checkLayers()
    expect(output).toContain('no dependency violations found')
    expect(status).toBe(0)
  })

  it.each([
    {
      who: "a room of src/ importing another room's inner file",
      path: 'src/exports/serve.ts',
      text:
        "import { lookupId } from '../ids/allocator-client'\nimport { tag } from './tag'\n" +
        'export const serve = () => `${lookupId()}${tag}`\n',
      errors: ['rooms-meet-at-their-faces: src/exports/serve.ts → src/ids/allocator-client.ts'],
    },
    {
      who: "the Worker importing a room's inner file",
      path: 'src/index.ts',
      text:
        "import { serve } from './exports'\nimport { tag } from './exports/tag'\n" +
        'export default () => serve() + tag\n',
      errors: ['rooms-meet-at-their-faces: src/index.ts → src/exports/tag.ts'],
    },
    {
      who: "a bench script importing a room's inner file",
      path: 'scripts/bench/probe.ts',
      text: "import { lookupId } from '../../src/ids/allocator-client'\nlookupId()\n",
      errors: [
        'outside-src-enters-a-room-through-its-faces: scripts/bench/probe.ts → ' +
          'src/ids/allocator-client.ts',
      ],
    },
    {
      who: "a test importing a room's inner file",
      path: 'test/ids/probe.test.ts',
      text:
        "import { SPACE } from '../../src/ids/testing'\n" +
        "import { SPACE as INNER } from '../../src/ids/id-space'\n" +
        'export { SPACE, INNER }\n',
      errors: [
        'outside-src-enters-a-room-through-its-faces: test/ids/probe.test.ts → src/ids/id-space.ts',
      ],
    },
    {
      who: "a room of src/ importing another room's testing face",
      path: 'src/exports/tag.ts',
      text: "import { SPACE } from '../ids/testing'\nexport const tag = `model${SPACE}`\n",
      // A testing face is not the room's face either, so the rule of rooms says so too.
      errors: [
        'testing-faces-serve-only-tests-and-the-bench: src/exports/tag.ts → src/ids/testing.ts',
        'rooms-meet-at-their-faces: src/exports/tag.ts → src/ids/testing.ts',
      ],
    },
  ])('fails on $who', ({ path, text, errors }) => {
    const { status, output } = checkLayers({ [path]: text })
    expect(errorsOf(output)).toEqual(errors)
    expect(status).not.toBe(0)
  })
})
