/**
 * A transparent HTTP proxy in front of the local service that sets `CF-Connecting-IP`, as
 * Cloudflare does in production. A browser cannot set that header without making every request
 * a preflighted one, so each browser test goes through a proxy of its own: its own client
 * address, hence its own quota, and its own origin, hence no preflight cache shared with
 * another test. It records what it forwarded, which is how a test sees a preflight happen.
 */
import { createServer, request, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A request the proxy forwarded, and the status the service answered. */
export interface ForwardedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  status: number
}

export interface ClientIpProxy {
  url: string
  forwarded: ForwardedRequest[]
  close(): Promise<void>
}

/** Starts a proxy to `target` on a free loopback port, presenting every request as from `ip`. */
export async function startClientIpProxy(target: string, ip: string): Promise<ClientIpProxy> {
  const upstream = new URL(target)
  const forwarded: ForwardedRequest[] = []
  const server = createServer((req, res) => {
    const headers = { ...req.headers, host: upstream.host, 'cf-connecting-ip': ip }
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        const status = answer.statusCode ?? 502
        forwarded.push({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          status,
        })
        res.writeHead(status, answer.statusMessage, answer.rawHeaders)
        answer.pipe(res)
      },
    )
    out.on('error', (error) => {
      res.writeHead(502, { 'Content-Type': 'text/plain' })
      res.end(`proxy: ${error.message}`)
    })
    req.pipe(out)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
