/** One request of the soak over a keep-alive agent, with the whole answer in memory. */
import http from 'node:http'

const REQUEST_TIMEOUT_MS = 10_000

/** One request; resolves with status, headers (lower-case names), body text and bytes. */
export function send(base, agent, method, path, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, base), { method, agent, headers }, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('error', reject)
      res.on('aborted', () => reject(new Error('transfer aborted')))
      res.on('end', () => {
        const text = Buffer.concat(chunks)
        resolve({
          status: res.statusCode,
          headers: res.headers,
          body: text.toString(),
          raw: text,
          bytes: text.length,
        })
      })
    })
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timed out')))
    req.on('error', reject)
    req.end(body)
  })
}
