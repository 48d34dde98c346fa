/**
 * Reads a response body with a bound on its size, so that an endless or huge body (a broken
 * proxy, a hostile server) fails early instead of filling memory.
 */
import { ResponseTooLargeError } from './errors.js'

/**
 * The body as UTF-8 text. Over `maxBytes` (by `Content-Length`, or as it arrives) it throws
 * `ResponseTooLargeError` with `onOver: 'throw'`, or keeps the first `maxBytes` with `'cut'`
 * (error bodies, kept for diagnostics). Stops reading as soon as `signal` aborts.
 */
export async function readBoundedText(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
  onOver: 'throw' | 'cut',
): Promise<string> {
  const tooLarge = () => new ResponseTooLargeError(response.status, maxBytes)
  const declared = Number(response.headers.get('Content-Length'))
  if (onOver === 'throw' && declared > maxBytes) {
    void response.body?.cancel().catch(() => {})
    throw tooLarge()
  }
  if (response.body === null) return ''
  const reader = response.body.getReader()
  // A pending read ends (as if the body were over) once the reader is cancelled.
  const onAbort = () => void reader.cancel(signal.reason).catch(() => {})
  signal.addEventListener('abort', onAbort, { once: true })
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  try {
    for (;;) {
      signal.throwIfAborted()
      const { done, value } = await reader.read()
      signal.throwIfAborted()
      if (done) return text + decoder.decode()
      bytes += value.byteLength
      if (bytes > maxBytes) {
        void reader.cancel().catch(() => {})
        if (onOver === 'throw') throw tooLarge()
        const kept = value.subarray(0, value.byteLength - (bytes - maxBytes))
        return text + decoder.decode(kept)
      }
      text += decoder.decode(value, { stream: true })
    }
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}
