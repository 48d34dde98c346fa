/**
 * The contract CI guards: the OpenAPI document the Worker serves, compared with the last one
 * released (openapi/released/<version>.json, written by `npm run openapi:release`). Under a
 * released version number it must be that document exactly: any change needs a new version. A
 * change that breaks the promise of docs/api.md#compatibility fails here unless the version's major
 * number changed; additions pass. The second half holds the check itself to the four breaking
 * changes it must catch, made to the released document, and to additions it must let through.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { breakingChanges, compareVersions, versionParts } from '../support/openapi-compat'
import { call } from '../support/helpers'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- edits a document in place

const RELEASED_FILES = import.meta.glob<string>('../../openapi/released/*.json', {
  query: '?raw',
  import: 'default',
  eager: true,
})

/** Every released version, oldest first, with its document. */
const RELEASES = Object.entries(RELEASED_FILES)
  .map(([file, text]) => ({
    version: /([^/]+)\.json$/.exec(file)![1]!,
    document: JSON.parse(text) as Json,
  }))
  .sort((a, b) => compareVersions(a.version, b.version))

let built: Json
let released: { version: string; document: Json }

beforeAll(async () => {
  built = await (await call('/openapi.json')).json<Json>()
  expect(RELEASES.length).toBeGreaterThan(0)
  released = RELEASES.at(-1)!
})

describe('the built OpenAPI document against the last released one', () => {
  it('names each release file by the version it describes', () => {
    for (const { version, document } of RELEASES) expect(document.info.version).toBe(version)
  })

  it('is of that version or a later one', () => {
    expect(compareVersions(built.info.version, released.version)).toBeGreaterThanOrEqual(0)
  })

  it('is, in every member, the released document of its version, once that version is released', () => {
    const same = RELEASES.find(({ version }) => version === built.info.version)
    if (same === undefined) {
      // Not released yet: the next version, newer than every release.
      expect(compareVersions(built.info.version, released.version)).toBeGreaterThan(0)
      return
    }
    expect(
      built,
      `${same.version} is released: raise the version for any change (CONTRIBUTING.md#versions)`,
    ).toEqual(same.document)
  })

  it('breaks nothing of the promise, unless its major number changed', () => {
    const [builtMajor] = versionParts(built.info.version)
    const [releasedMajor] = versionParts(released.version)
    if (builtMajor > releasedMajor) return
    expect(
      breakingChanges(released.document, built),
      `Breaking changes against ${released.version} (docs/api.md#compatibility: make a new path instead)`,
    ).toEqual([])
  })
})

/** The released document with one edit. */
function edited(edit: (document: Json) => void): Json {
  const document = structuredClone(released.document)
  edit(document)
  return document
}

const read = (document: Json) => document.paths['/server-api'].get

describe('the check catches', () => {
  it.each([
    [
      'a parameter becoming required',
      (d: Json) => (read(d).parameters.find((p: Json) => p.name === 'tag').required = true),
      /parameters > 1 > required/,
    ],
    ['a status removed', (d: Json) => delete read(d).responses['410'], /responses > 410/],
    [
      'a response member removed',
      (d: Json) => delete d.components.schemas.Error.properties.retryAfterSeconds,
      /retryAfterSeconds/,
    ],
    [
      'a response member retyped',
      (d: Json) => (d.components.schemas.Error.properties.code.type = 'integer'),
      /code > type/,
    ],
    [
      'an error code removed from a status',
      (d: Json) => {
        const code = read(d).responses['503'].content['application/json'].schema.allOf[1]
        code.properties.code.enum = ['unavailable']
      },
      /503 .*enum/,
    ],
    [
      'a response header removed',
      (d: Json) => delete read(d).responses['200'].headers['X-Export-Expires-In'],
      /X-Export-Expires-In/,
    ],
    ['the route removed', (d: Json) => delete d.paths['/server-api'], /server-api > get/],
  ])('%s', (_, edit, found) => {
    const broken = breakingChanges(released.document, edited(edit))
    expect(broken.join('\n')).toMatch(found)
  })
})

describe('the check lets through', () => {
  it.each([
    [
      'a new optional parameter',
      (d: Json) =>
        read(d).parameters.push({
          name: 'format',
          in: 'query',
          required: false,
          schema: { type: 'string' },
        }),
    ],
    ['a new status', (d: Json) => (read(d).responses['418'] = { description: 'A new case.' })],
    [
      'a new optional response header',
      (d: Json) =>
        (read(d).responses['200'].headers['X-New'] = {
          required: false,
          schema: { type: 'string' },
        }),
    ],
    [
      'a new member of the error body',
      (d: Json) => (d.components.schemas.Error.properties.hint = { type: 'string' }),
    ],
    [
      'a new code for a new case',
      (d: Json) =>
        read(d).responses['503'].content[
          'application/json'
        ].schema.allOf[1].properties.code.enum.push('busy'),
    ],
    ['a new path', (d: Json) => (d.paths['/v2/server-api'] = d.paths['/server-api'])],
    ['new words in descriptions', (d: Json) => (read(d).description = 'Said otherwise.')],
  ])('%s', (_, edit) => {
    expect(breakingChanges(released.document, edited(edit))).toEqual([])
  })
})
