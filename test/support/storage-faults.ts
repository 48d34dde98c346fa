/**
 * What the fault tests of storage (test/storage/storage-faults.test.ts) and of the HTTP path
 * (test/http/faults.test.ts) share: the export they publish and its streamed variant, a KV
 * binding that serves a body of the test's making, and the export keys left in KV.
 */
import { env } from 'cloudflare:workers'
import { WHOLE_READ_MAX_BYTES } from './documented-limits'

/** An export with two placeholders, read whole. */
export const FAULT_DOC =
  '{"content":{"meta":{"Tags":["[MODELSERVERTAG]_root","[MODELSERVERTAG]_0"],"n":1.0}}}'

/** FAULT_DOC with a long string in it: above WHOLE_READ_MAX_BYTES, so it is streamed. */
export const STREAMED_FAULT_DOC = FAULT_DOC.replace(
  '"n":1.0',
  `"pad":"${'x'.repeat(WHOLE_READ_MAX_BYTES)}","n":1.0`,
)

/** A KV binding that answers every read with `metadata` and a body made by `body`. */
export function kvServing(
  metadata: unknown,
  body: () => ReadableStream<Uint8Array> | null,
): KVNamespace {
  return {
    getWithMetadata: () => Promise.resolve({ value: body(), metadata }),
  } as unknown as KVNamespace
}

/** The keys of the exports KV holds. */
export async function storedKeys(): Promise<string[]> {
  return (await env.EXPORTS.list({ prefix: 'export:' })).keys.map((key) => key.name)
}
