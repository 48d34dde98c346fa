/**
 * The one list of setting readers (src/settings/readers.ts), which `npm start` and
 * `npm run deploy` run before anything starts: every var the Worker is given and every row of the
 * README's settings table is in it, each name is really read by the reader it is listed under,
 * and the message is the one the Worker logs with its `500`.
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import readme from '../../README.md?raw'
import { SETTING_READERS, settingProblems, UNCHECKED_SETTINGS } from '../../src/settings'
import type { Env } from '../../src/config'
import { callWithEnv } from '../support/helpers'
import { captureLog } from '../support/observed'

afterEach(() => vi.restoreAllMocks())

const listed = SETTING_READERS.flatMap(({ names }) => names)

/** The Worker's vars as text: what `wrangler.toml` and `.dev.vars` give it (not the pool's own). */
const givenVars = Object.fromEntries(
  Object.entries(env).filter(
    (entry): entry is [string, string] =>
      typeof entry[1] === 'string' && /^[A-Z][A-Z0-9_]*$/.test(entry[0]),
  ),
)

/** The first column of the README's settings table (`| `NAME` | default | meaning |`). */
function readmeSettings(): string[] {
  const table = readme.slice(readme.indexOf('| setting  '))
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2)
  return rows.map((row) => /^\| `([A-Z0-9_]+)`/.exec(row)![1]!)
}

describe('the setting readers', () => {
  it('cover every var the Worker is given and every setting the README lists', () => {
    const covered = new Set([...listed, ...UNCHECKED_SETTINGS])
    const missing = [...Object.keys(givenVars), ...readmeSettings()].filter((n) => !covered.has(n))
    expect(missing, 'add a reader to src/settings/readers.ts').toEqual([])
    expect(readmeSettings().length).toBeGreaterThan(15)
  })

  it('accept the settings as wrangler.toml ships them', () => {
    expect(settingProblems(givenVars)).toEqual([])
  })

  it.each(listed)('refuse a %s that cannot work, with the message of its own reader', (name) => {
    const vars = { ...givenVars, [name]: 'not a value!' }
    const problems = settingProblems(vars)
    expect(problems).toHaveLength(1)
    const reader = SETTING_READERS.find(({ names }) => names.includes(name))!
    expect(() => reader.read(vars as unknown as Env)).toThrow(problems[0])
  })

  it('say what the Worker logs with the 500 that a request meets', async () => {
    const log = captureLog()
    const response = await callWithEnv({ RATE_LIMIT_SHORT: 'abc' }, '/server-api?id=999999')
    expect(response.status).toBe(500)
    const line = log.lines().find((l) => l.status === 500) as unknown as {
      cause: { message: string }
    }
    expect(settingProblems({ ...givenVars, RATE_LIMIT_SHORT: 'abc' })).toEqual([line.cause.message])
  })
})
