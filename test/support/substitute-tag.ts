/**
 * The JSON splicer as a TransformStream: what the tests and the bench stream documents through.
 * The service itself pumps (src/exports/substituted-body.ts), so this lives beside the tests,
 * not in src/.
 */
import { substitution } from '../../src/substitution'

/** Streaming substitution: bytes in, bytes out; `tag` is already sanitized (only [A-Za-z0-9_-], 1..100 chars). */
export function substituteTag(tag: string): TransformStream<Uint8Array, Uint8Array> {
  // A chunk written to a stream belongs to its reader, so its memory can take the output.
  const jsonSplicer = substitution(tag, { escapedPlaceholders: true, reuseInput: true })
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const out = jsonSplicer.push(chunk)
      if (out.length > 0) controller.enqueue(out)
    },
    flush() {
      jsonSplicer.finish()
    },
  })
}
