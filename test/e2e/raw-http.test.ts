/**
 * Bad input that only exists on the wire, sent as raw bytes to the started service: a GET with a
 * body (a Request in workerd cannot even be built with one), a 16 KB request line, bytes that
 * are not URL characters, a bare LF. Answers may come from the runtime's HTTP parser rather than
 * the Worker, but none is a 5xx.
 */
import { connect } from 'node:net'
import { beforeAll, describe, expect, it } from 'vitest'
import { publishExport } from './editor-publish'
import { sharedService } from './shared-service'

const DOC = '{"content":{"meta":{"t":"[MODELSERVERTAG]","Tags":["[MODELSERVERTAG]_root"]}}}'

const service = sharedService()
let id: string
beforeAll(async () => {
  id = (await publishExport(service, DOC)).id
})

interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/** Sends `request` byte for byte on a new connection and parses what comes back. */
function sendRaw(request: string): Promise<RawResponse> {
  const { port, hostname } = new URL(service.url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(Buffer.from(request, 'latin1')))
    const chunks: Buffer[] = []
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1')
      const [head = '', ...rest] = text.split('\r\n\r\n')
      const [statusLine = '', ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      )
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') })
    })
  })
}

/** The body of a chunked or plain response. */
function bodyText(res: RawResponse): string {
  if (res.headers['transfer-encoding'] !== 'chunked') return res.body
  let out = ''
  let rest = res.body
  for (;;) {
    const size = parseInt(rest.slice(0, rest.indexOf('\r\n')), 16)
    if (!(size > 0)) return Buffer.from(out, 'latin1').toString('utf8')
    const start = rest.indexOf('\r\n') + 2
    out += rest.slice(start, start + size)
    rest = rest.slice(start + size + 2)
  }
}

function get(target: string, extra = '', body = ''): Promise<RawResponse> {
  return sendRaw(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra}\r\n${body}`)
}

describe('raw HTTP requests', () => {
  it('ignores the body of a GET, sent with Content-Length or chunked', async () => {
    for (const [extra, body] of [
      ['Content-Length: 11\r\n', '{"junk": 1}'],
      ['Transfer-Encoding: chunked\r\n', '5\r\nhello\r\n0\r\n\r\n'],
    ]) {
      const res = await get(`/server-api?id=${id}&tag=b`, extra, body)
      expect(res.status).toBe(200)
      expect(JSON.parse(bodyText(res))).toEqual({ content: { meta: { t: 'b', Tags: ['b_root'] } } })
    }
  })

  it('serves a 16 KB request line', async () => {
    const res = await get(`/server-api?id=${id}&tag=${'x'.repeat(16_384)}`)
    expect(res.status).toBe(200)
    expect(JSON.parse(bodyText(res)).content.meta.t).toBe('x'.repeat(100))
  })

  it('answers bytes that are not URL characters with a 4xx', async () => {
    const res = await get(`/server-api?id=${id}&tag=a\xff\xfe\x80b`)
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
  })

  it('keeps an encoded CR LF in the tag out of the headers', async () => {
    const res = await get(`/server-api?id=${id}&tag=a%0d%0aX-Evil:%201%0d%0a`)
    expect(res.status).toBe(200)
    expect(res.headers['x-evil']).toBeUndefined()
    expect(JSON.parse(bodyText(res)).content.meta.t).toBe('aX-Evil1')
  })

  it('answers a request with bare LF line ends like any other', async () => {
    const res = await sendRaw(
      `GET /server-api?id=${id}&tag=lf HTTP/1.1\nHost: x\nConnection: close\n\n`,
    )
    expect(res.status).toBe(200)
  })
})
