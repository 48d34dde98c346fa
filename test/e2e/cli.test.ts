import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { E2E_PUBLISH_TOKEN } from './local-service'
import { sharedService } from './shared-service'

const FIXTURE = fileURLToPath(new URL('../../fixtures/reading-41-displays.json', import.meta.url))
const VECTORS = new URL('../vectors/export-safety/', import.meta.url)
const run = promisify(execFile)
/** Publisher processes at once: each is mostly Node starting and a wait for the service. */
const CLI_AT_ONCE = 4

const service = sharedService()

function publishCli(...args: string[]) {
  return run(process.execPath, ['scripts/publish.mjs', ...args], {
    env: { ...process.env, PUBLISH_TOKEN: '' },
  })
}

/** Calls `each` on every item, `atOnce` of them in flight at a time. */
async function inTurns<T>(items: T[], atOnce: number, each: (item: T) => Promise<void>) {
  let next = 0
  const lane = async () => {
    while (next < items.length) await each(items[next++]!)
  }
  await Promise.all(Array.from({ length: atOnce }, lane))
}

describe('npm run publish', () => {
  it('publishes a fixture that GET then returns with the tag substituted', async () => {
    const { stdout } = await publishCli(
      FIXTURE,
      '--url',
      service.url,
      '--token',
      E2E_PUBLISH_TOKEN,
      '--json',
    )
    const published = JSON.parse(stdout) as { id: string; quickCommand: string; curl: string }
    expect(published.id).toMatch(/^[1-9][0-9]{5}$/)
    expect(published.quickCommand).toBe(`/model spawn ${published.id}`)
    expect(published.curl).toContain(`/server-api?id=${published.id}`)

    const res = await fetch(`${service.url}/server-api?id=${published.id}&tag=cli_check`)
    expect(res.status).toBe(200)
    const expected = readFileSync(FIXTURE, 'utf8').replaceAll('[MODELSERVERTAG]', 'cli_check')
    expect(await res.text()).toBe(expected)
  })

  it('prints the ID, the expiry, the quick command with a custom prefix and a curl line', async () => {
    const { stdout } = await publishCli(
      FIXTURE,
      '--url',
      service.url,
      '--token',
      E2E_PUBLISH_TOKEN,
      '--quick-command-prefix',
      'bde spawn',
    )
    const id = /as ([1-9][0-9]{5})/.exec(stdout)?.[1]
    expect(id).toBeDefined()
    expect(stdout).toMatch(/Expires: .*in (9|10) ?min/)
    expect(stdout).toContain(`Quick command: /bde spawn ${id}`)
    expect(stdout).toContain(`curl '${service.url}/server-api?id=${id}&tag=model'`)
  })

  it("prints the lines the README's quick start shows, in its order", async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    const command = 'npm run publish -- fixtures/reading-41-displays.json\n'
    const block = readme.slice(readme.indexOf(command) + command.length)
    const shown = block.slice(0, block.indexOf('```')).trimEnd().split('\n')
    expect(shown.every((line) => line.startsWith('# '))).toBe(true)
    const { stdout } = await publishCli(FIXTURE, '--url', service.url, '--token', E2E_PUBLISH_TOKEN)
    const printed = stdout.trimEnd().split('\n')
    // A line's label: `Published <file> as`, `Expires:`, `Quick command:`, `Fetch it:`.
    const label = (line: string) => /^(Published \S+ as|[A-Z][A-Za-z ]*:) /.exec(line)?.[1]
    expect(printed.map(label)).toEqual(shown.map((line) => label(line.slice(2))))
    expect(printed.map(label)).not.toContain(undefined)
  })

  it('refuses every refused test vector, naming its path, and publishes an allowed one', async () => {
    const manifest = JSON.parse(readFileSync(new URL('manifest.json', VECTORS), 'utf8')) as {
      file: string
      verdict: string
      path?: string
    }[]
    const refused = manifest.filter((entry) => entry.verdict === 'refused')
    await inTurns(refused, CLI_AT_ONCE, async (vector) => {
      const file = fileURLToPath(new URL(vector.file, VECTORS))
      const failed = publishCli(file, '--url', service.url, '--token', E2E_PUBLISH_TOKEN)
      await expect(failed).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining(`HTTP 400 unsafe_export: The export is not only`),
      })
      await expect(failed).rejects.toMatchObject({
        stderr: expect.stringContaining(vector.path!),
      })
    })
    const allowed = fileURLToPath(new URL('allowed-text-display.json', VECTORS))
    const { stdout } = await publishCli(allowed, '--url', service.url, '--token', E2E_PUBLISH_TOKEN)
    expect(stdout).toMatch(/^Published allowed-text-display\.json as [1-9][0-9]{5}$/m)
  })

  it("exits non-zero with the service's reason when the token is wrong", async () => {
    const failed = publishCli(FIXTURE, '--url', service.url, '--token', 'wrong')
    await expect(failed).rejects.toMatchObject({
      code: 1,
      stderr:
        'Publishing failed: HTTP 401 unauthorized: A valid "Authorization: Bearer <token>" header is required.\n',
    })
  })
})
