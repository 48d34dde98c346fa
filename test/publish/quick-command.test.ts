/**
 * The quick command a publish answers (docs/publishing.md): the command a user pastes in chat to
 * spawn the model, with the prefix the editor sends as `quickCommandPrefix`. Through the editor
 * API, as the editor's backend calls it.
 */
import { reset } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { errorOf, publishWith, type Published } from '../support/publishing'

afterEach(() => reset())

/** The answer to a publish with `prefix` (none when null). */
function publishWithPrefix(prefix: string | null): Promise<Response> {
  const query = prefix === null ? undefined : `quickCommandPrefix=${encodeURIComponent(prefix)}`
  return publishWith({}, undefined, query === undefined ? {} : { query })
}

/** The quick command a publish with `prefix` answers, with the issued ID as `<id>`. */
async function commandFor(prefix: string | null): Promise<string> {
  const res = await publishWithPrefix(prefix)
  expect(res.status).toBe(201)
  const { id, quickCommand } = await res.json<Published>()
  expect(quickCommand.endsWith(` ${id}`)).toBe(true)
  return quickCommand.slice(0, -id.length) + '<id>'
}

/** Asserts the publish with `prefix` is refused as an invalid quick command. */
async function expectRefused(prefix: string): Promise<void> {
  const res = await publishWithPrefix(prefix)
  expect(res.status).toBe(400)
  expect((await errorOf(res)).code).toBe('invalid_quick_command')
}

describe('the quick command', () => {
  it('is /model spawn <id> by default', async () => {
    expect(await commandFor(null)).toBe('/model spawn <id>')
    expect(await commandFor('   ')).toBe('/model spawn <id>')
  })

  it('puts the user prefix in place of model spawn, with one leading slash', async () => {
    expect(await commandFor('mm spawn')).toBe('/mm spawn <id>')
    expect(await commandFor('/mm spawn')).toBe('/mm spawn <id>')
    expect(await commandFor('  mm spawn  ')).toBe('/mm spawn <id>')
    expect(await commandFor('//worldedit thing')).toBe('//worldedit thing <id>')
  })

  it('refuses control, format and separator characters inside the prefix', async () => {
    const prefixes = ['mm\nspawn', 'mm\u0000spawn', 'mm\u007fspawn', 'a\tb', 'mm\u0085spawn']
    prefixes.push('\u202emm spawn', 'mm\u200espawn', 'mm\u061cspawn', 'mm\u2028spawn')
    for (const prefix of prefixes) await expectRefused(prefix)
  })

  it('keeps other scripts, accents and emoji', async () => {
    expect(await commandFor('модель spawn é 😀')).toBe('/модель spawn é 😀 <id>')
  })

  it('fits in a chat line of 256 characters', async () => {
    const res = await publishWithPrefix('x'.repeat(248))
    expect((await res.json<Published>()).quickCommand).toHaveLength(256)
    await expectRefused('x'.repeat(249))
  })
})
