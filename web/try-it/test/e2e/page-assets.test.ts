/**
 * The try-it page as the service serves it (wrangler.toml [assets], built by build.mjs as
 * wrangler's `[build]` before `npm start`): the page, its bundle and the headers of their
 * _headers file, over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalService, type LocalService } from '../../../../test/e2e/local-service'

let service: LocalService

beforeAll(async () => {
  service = await startLocalService()
})

afterAll(async () => {
  await service?.stop()
})

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

async function page(): Promise<{ response: Response; html: string }> {
  const response = await fetch(`${service.url}/`)
  return { response, html: await response.text() }
}

describe('the try-it page as a static asset', () => {
  it('is served at / with a CSP that allows only its own script and style', async () => {
    const { response, html } = await page()
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('Content-Security-Policy')).toBe(CSP)
    expect(response.headers.get('Referrer-Policy')).toBe('no-referrer')
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(response.headers.get('Cache-Control')).toBe('no-cache')
    expect(response.headers.get('ETag')).toMatch(/^"[0-9a-f]+"$/)
    // Nothing inline for the CSP to refuse.
    expect(html).not.toMatch(/<script>|<style|style="/)
    expect(html).toContain('id="model"')
  })

  it('links a content-hashed script and style that are served and cached for a year', async () => {
    const { html } = await page()
    const script = /<script src="(\/assets\/try-it-[0-9a-f]{12}\.js)" defer>/.exec(html)?.[1]
    const style = /<link rel="stylesheet" href="(\/assets\/try-it-[0-9a-f]{12}\.css)"/.exec(
      html,
    )?.[1]
    for (const [path, type] of [
      [script, 'text/javascript; charset=utf-8'],
      [style, 'text/css; charset=utf-8'],
    ]) {
      expect(path).toBeDefined()
      const response = await fetch(`${service.url}${path}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('Content-Type')).toBe(type)
      expect(response.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
      expect((await response.text()).length).toBeGreaterThan(1000)
    }
  })

  it("serves the page's worker with a policy that lets it fetch from this origin only", async () => {
    const { html } = await page()
    const script = /<script src="(\/assets\/try-it-[0-9a-f]{12}\.js)"/.exec(html)![1]!
    const bundle = await (await fetch(`${service.url}${script}`)).text()
    const worker = /\/assets\/model-worker-[0-9a-f]{12}\.js/.exec(bundle)?.[0]
    expect(worker).toBeDefined()
    const response = await fetch(`${service.url}${worker}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8')
    expect(response.headers.get('Content-Security-Policy')).toBe(
      "default-src 'none'; connect-src 'self'",
    )
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    await response.arrayBuffer()
  })

  it('answers /index.html with a redirect to /, and a stale bundle name with 404', async () => {
    const index = await fetch(`${service.url}/index.html`, { redirect: 'manual' })
    expect(index.status).toBe(307)
    expect(index.headers.get('Location')).toBe('/')
    const stale = await fetch(`${service.url}/assets/try-it-000000000000.js`)
    expect(stale.status).toBe(404)
    await stale.arrayBuffer()
  })

  it('revalidates the page with its ETag', async () => {
    const { response } = await page()
    const again = await fetch(`${service.url}/`, {
      headers: { 'If-None-Match': response.headers.get('ETag')! },
    })
    expect(again.status).toBe(304)
  })
})
