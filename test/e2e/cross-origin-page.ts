import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

const PAGE = readFileSync(new URL('./cross-origin-page.html', import.meta.url))

export interface PageServer {
  /** The page's origin, e.g. `http://127.0.0.1:5173`. */
  url: string
  close(): Promise<void>
}

/** Serves cross-origin-page.html at every path, on a free loopback port: a website of its own. */
export async function startPageServer(): Promise<PageServer> {
  const server = createServer((_, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    res.end(PAGE)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
