/**
 * One version story (CONTRIBUTING.md#versions): the changelog's release headings, the API's
 * version (package.json, the OpenAPI document's `info.version`, openapi/released/) and the Java
 * client's version (clients/java/pom.xml) agree with each other.
 */
import { describe, expect, it } from 'vitest'
import changelog from '../../CHANGELOG.md?raw'
import pom from '../../clients/java/pom.xml?raw'
import { version as packageVersion } from '../../package.json'
import { compareVersions } from '../support/openapi-compat'

const RELEASED = Object.keys(
  import.meta.glob<string>('../../openapi/released/*.json', {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
)
  .map((file) => /([^/]+)\.json$/.exec(file)![1]!)
  .sort(compareVersions)

const HEADING = /^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2}) \(Java client (\d+\.\d+\.\d+)\)$/

/** The changelog's release headings, as written (newest first). */
const headings = changelog
  .split('\n')
  .filter((line) => line.startsWith('## [') && line !== '## [Unreleased]')

const releases = headings.flatMap((line) => {
  const match = HEADING.exec(line)
  return match ? [{ api: match[1]!, date: match[2]!, java: match[3]! }] : []
})

/** `<version>` of the pom's project (the first one after `<artifactId>export-client`). */
const pomVersion = /<artifactId>export-client<\/artifactId>\s*<version>([^<]+)<\/version>/.exec(
  pom,
)![1]!

describe('the version story', () => {
  it('heads every release with its API version, date and Java client version, newest first', () => {
    expect(headings.filter((line) => !HEADING.test(line))).toEqual([])
    expect(releases.length).toBeGreaterThan(0)
    releases.slice(1).forEach((older, index) => {
      const newer = releases[index]!
      expect(compareVersions(newer.api, older.api)).toBeGreaterThan(0)
      expect(newer.date >= older.date).toBe(true)
      expect(compareVersions(newer.java, older.java)).toBeGreaterThanOrEqual(0)
    })
  })

  it('keeps the OpenAPI document of every API version the changelog releases, the newest too', () => {
    for (const { api } of releases) expect(RELEASED).toContain(api)
    expect(releases[0]!.api).toBe(RELEASED.at(-1))
  })

  it('gives package.json the newest release, or the next one while it is prepared', () => {
    expect(compareVersions(packageVersion, releases[0]!.api)).toBeGreaterThanOrEqual(0)
  })

  it('gives the Java client the version of its newest release, or a later one', () => {
    expect(compareVersions(pomVersion, releases[0]!.java)).toBeGreaterThanOrEqual(0)
  })
})
