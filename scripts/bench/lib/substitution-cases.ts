/**
 * What the substitution benchmark runs, shared by Node (scripts/bench/substitution/node.mjs) and workerd
 * (scripts/bench/substitution/substitution-worker.ts), so both measure the same code on the same bytes: the
 * synthetic exports, the subjects and their two baselines.
 *
 * Subjects: the splicer (what the read path runs on exports whose placeholders are all raw, as in
 * every real export) and the JSON splicer (what it runs when one is spelled with escapes).
 *
 * Baselines, as the issue defines them:
 * (a) `replaceAll`: TextDecoder, `String.prototype.replaceAll`, TextEncoder over the whole
 *     buffer. Same output bytes as the JSON splicer whenever every placeholder is written raw inside a
 *     string, as in every real export.
 * (b) `streamparser`: a tokenizing streaming JSON parser (@streamparser/json, the library of
 *     Cloudflare's "Stream large JSON" example) that re-serializes every token, substituting in
 *     strings. It re-serializes values, so escapes and number spellings may change: its output is
 *     compared by parsed equality, not bytes.
 *
 * The physical limit, `copy`: the same bytes copied into a fresh buffer, nothing substituted.
 */
import { Tokenizer, TokenType } from '@streamparser/json'
import { concatBytes, substitution, type Substitution } from '../../../src/substitution'
import { PLACEHOLDER } from '../../../src/json'
import { substituteTag } from '../../../test/support/substitute-tag'
import { validateExport } from '../../../src/publish/testing'

/** Chunk size the chunked variants push: a typical stream chunk. */
export const CHUNK_BYTES = 64 * 1024
/** Tag the benchmark substitutes: the one the fixtures were exported with (`bde_<n>`). */
export const BENCH_TAG = 'bde'

/** Chunk size of a KV value streamed in workerd (Miniflare): what the request path gets. */
export const KV_CHUNK_BYTES = 4 * 1024

/** The variants, in the order the tables show them. */
export const VARIANTS = [
  'replaceAll',
  'splicer',
  'jsonSplicer',
  'stream',
  'stream4k',
  'streamparser',
  'copy',
] as const
export type VariantName = (typeof VARIANTS)[number]

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Runs one variant over a whole input; returns the output chunks. */
export function runVariant(
  name: VariantName,
  input: Uint8Array,
  tag: string = BENCH_TAG,
): Uint8Array[] | Promise<Uint8Array[]> {
  switch (name) {
    case 'replaceAll':
      return [viaReplaceAll(input, tag)]
    case 'splicer':
      return viaSplicer(input, tag)
    case 'jsonSplicer':
      return viaJsonSplicer(input, tag)
    case 'stream':
      return viaStream(input, tag)
    case 'stream4k':
      return viaStream(input, tag, KV_CHUNK_BYTES)
    case 'streamparser':
      return viaTokenizer(input, tag)
    case 'copy':
      return [plainCopy(input)]
  }
}

/**
 * The physical limit: the same bytes copied into a fresh buffer with one native call
 * (`Uint8Array.prototype.set`), substituting nothing. How far a variant is from copy speed.
 */
export function plainCopy(input: Uint8Array): Uint8Array {
  const out = new Uint8Array(input.length)
  out.set(input)
  return out
}

/** Baseline (a): decode the whole buffer, `replaceAll`, encode. */
export function viaReplaceAll(input: Uint8Array, tag: string): Uint8Array {
  return encoder.encode(decoder.decode(input).replaceAll(PLACEHOLDER, tag))
}

/** The JSON splicer, which follows the JSON structure: the face's engine for escaped spellings. */
export function jsonSplicer(tag: string): Substitution {
  return substitution(tag, { escapedPlaceholders: true })
}

/** The placeholder splicer, which matches the 16 raw bytes: the face's engine for raw spellings. */
export function placeholderSplicer(tag: string): Substitution {
  return substitution(tag, { escapedPlaceholders: false })
}

/** The subject: the JSON splicer's `push` over consecutive chunks (views of the input), then `finish`. */
export function viaJsonSplicer(input: Uint8Array, tag: string): Uint8Array[] {
  const splicer = jsonSplicer(tag)
  const out: Uint8Array[] = []
  for (let at = 0; at < input.length; at += CHUNK_BYTES) {
    const part = splicer.push(input.subarray(at, at + CHUNK_BYTES))
    if (part.length > 0) out.push(part)
  }
  splicer.finish()
  return out
}

/** The read path's engine for raw placeholders: the placeholder splicer's `push` over 64 KiB views. */
export function viaSplicer(input: Uint8Array, tag: string): Uint8Array[] {
  const splicer = placeholderSplicer(tag)
  const out: Uint8Array[] = []
  for (let at = 0; at < input.length; at += CHUNK_BYTES) {
    const part = splicer.push(input.subarray(at, at + CHUNK_BYTES))
    if (part.length > 0) out.push(part)
  }
  const rest = splicer.finish()
  if (rest.length > 0) out.push(rest)
  return out
}

/**
 * The subject as a TransformStream: `substituteTag` (which writes over its input chunks), fed
 * fresh chunks as a stream hands them over. The copies are part of the time.
 */
export async function viaStream(
  input: Uint8Array,
  tag: string,
  chunkBytes: number = CHUNK_BYTES,
): Promise<Uint8Array[]> {
  let at = 0
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= input.length) return controller.close()
      controller.enqueue(input.slice(at, at + chunkBytes))
      at += chunkBytes
    },
  })
  const reader = source.pipeThrough(substituteTag(tag)).getReader()
  const out: Uint8Array[] = []
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return out
    out.push(value)
  }
}

/** Baseline (b): tokenize each chunk, re-serialize each token, encode what each chunk gave. */
export function viaTokenizer(input: Uint8Array, tag: string): Uint8Array[] {
  const tokenizer = new Tokenizer()
  let text = ''
  tokenizer.onToken = ({ token, value }) => {
    text += serializeToken(token, value, tag)
  }
  const out: Uint8Array[] = []
  for (let at = 0; at < input.length; at += CHUNK_BYTES) {
    tokenizer.write(input.subarray(at, at + CHUNK_BYTES))
    if (text !== '') out.push(encoder.encode(text))
    text = ''
  }
  tokenizer.end()
  if (text !== '') out.push(encoder.encode(text))
  return out
}

function serializeToken(token: TokenType, value: unknown, tag: string): string {
  switch (token) {
    case TokenType.LEFT_BRACE:
      return '{'
    case TokenType.RIGHT_BRACE:
      return '}'
    case TokenType.LEFT_BRACKET:
      return '['
    case TokenType.RIGHT_BRACKET:
      return ']'
    case TokenType.COLON:
      return ':'
    case TokenType.COMMA:
      return ','
    case TokenType.TRUE:
      return 'true'
    case TokenType.FALSE:
      return 'false'
    case TokenType.NULL:
      return 'null'
    case TokenType.STRING:
      return JSON.stringify((value as string).replaceAll(PLACEHOLDER, tag))
    case TokenType.NUMBER:
      return JSON.stringify(value)
    case TokenType.SEPARATOR:
      return ''
  }
}

/** Joins output chunks into one buffer. */
export const concat = concatBytes

/** Whether two buffers hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Whether two JSON documents parse to the same value (key order included). */
export function sameParsed(a: Uint8Array, b: Uint8Array): boolean {
  return (
    JSON.stringify(JSON.parse(decoder.decode(a))) === JSON.stringify(JSON.parse(decoder.decode(b)))
  )
}

/** How each variant's output compares with baseline (a)'s: bytes, or parsed value for (b). */
export interface OutputCheck {
  bytes: number
  placeholders: number
  /** The engine the read path picks for this input (src/exports/substitution-for-export.ts). */
  readPathEngine: 'splicer' | 'jsonSplicer'
  splicerSameBytes: boolean
  jsonSplicerSameBytes: boolean
  streamSameBytes: boolean
  streamparserSameParsed: boolean
  streamparserSameBytes: boolean
}

/** Runs every variant once on `input` and compares the outputs. */
export async function checkOutputs(
  input: Uint8Array,
  tag: string = BENCH_TAG,
): Promise<OutputCheck> {
  const expected = viaReplaceAll(input, tag)
  const splicer = concat(viaSplicer(input, tag))
  const jsonSplicer = concat(viaJsonSplicer(input, tag))
  const stream = concat(await viaStream(input, tag))
  const tokenizer = concat(viaTokenizer(input, tag))
  return {
    bytes: input.length,
    placeholders: countPlaceholders(input),
    readPathEngine: engineOf(input),
    splicerSameBytes: sameBytes(splicer, expected),
    jsonSplicerSameBytes: sameBytes(jsonSplicer, expected),
    streamSameBytes: sameBytes(stream, expected),
    streamparserSameParsed: sameParsed(tokenizer, expected),
    streamparserSameBytes: sameBytes(tokenizer, expected),
  }
}

/**
 * Which engine the read path picks for `input`, by the rule docs/storage.md gives, from the counts
 * publishing would store: the placeholder splicer when every placeholder is written raw (16 bytes).
 */
export function engineOf(input: Uint8Array): 'splicer' | 'jsonSplicer' {
  const { placeholders, placeholderBytes } = validateExport(input)
  return placeholderBytes === placeholders * PLACEHOLDER.length ? 'splicer' : 'jsonSplicer'
}

function countPlaceholders(input: Uint8Array): number {
  return decoder.decode(input).split(PLACEHOLDER).length - 1
}

/** Kinds of synthetic export: a placeholder every ~40 bytes, or about one per 2 MB. */
export type SyntheticKind = 'dense' | 'sparse'

const FRAME_COMMANDS = 100
const SPARSE_EVERY = 50_000

/**
 * A synthetic export of about `bytes` bytes (never less), as consecutive pieces of JSON text,
 * shaped like the fixtures: `anim_keyframes` frames of commands, then `meta`, the `passengers`
 * SNBT string and the scalar fields. Deterministic, so Node and workerd see the same bytes.
 */
export function* syntheticPieces(kind: SyntheticKind, bytes: number): Generator<string> {
  const tail = syntheticTail(kind)
  yield '{"content":{"datapack":{"anim_keyframes":{"default":{'
  let size = 60 + tail.length
  for (let frame = 0, n = 0; size < bytes; frame++) {
    let piece = `${frame === 0 ? '' : ','}"${frame}":[`
    for (let k = 0; k < FRAME_COMMANDS; k++, n++) {
      piece += (k === 0 ? '' : ',') + JSON.stringify(command(kind, n))
    }
    piece += ']'
    size += piece.length
    yield piece
  }
  yield tail
}

/** A synthetic export as one buffer. */
export function syntheticExport(kind: SyntheticKind, bytes: number): Uint8Array {
  let text = ''
  for (const piece of syntheticPieces(kind, bytes)) text += piece
  return encoder.encode(text)
}

/** A synthetic export as `CHUNK_BYTES` chunks, generated as they are taken: never held whole. */
export function* syntheticChunks(kind: SyntheticKind, bytes: number): Generator<Uint8Array> {
  let chunk = new Uint8Array(CHUNK_BYTES)
  let used = 0
  for (const piece of syntheticPieces(kind, bytes)) {
    let rest = encoder.encode(piece)
    while (rest.length > 0) {
      const n = Math.min(rest.length, CHUNK_BYTES - used)
      chunk.set(rest.subarray(0, n), used)
      used += n
      rest = rest.subarray(n)
      if (used === CHUNK_BYTES) {
        yield chunk
        chunk = new Uint8Array(CHUNK_BYTES)
        used = 0
      }
    }
  }
  if (used > 0) yield chunk.subarray(0, used)
}

function command(kind: SyntheticKind, n: number): string {
  const entity = n % 500
  if (kind === 'dense') {
    return `data merge entity @e[type=item_display,tag=${PLACEHOLDER}_${entity},limit=1] {Tags:["${PLACEHOLDER}_${entity}","${PLACEHOLDER}_root"]}`
  }
  // Sparse: a placeholder in every SPARSE_EVERY-th command; the others are sounds, since every
  // selector's tag must begin with the model's tag (docs/export-safety.md).
  if (n % SPARSE_EVERY !== 0)
    return `playsound block.note_block.harp block @a ~ ~ ~ 1 ${n % 2}.${entity}0`
  const m = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((k) => pseudoFloat(n * 12 + k))
  return `data merge entity @e[type=item_display,tag=${PLACEHOLDER}_${entity},distance=..1,limit=1,sort=nearest] {transformation:[${m.join('f,')}f,0f,0f,0f,1f],interpolation_duration:2,start_interpolation:0}`
}

/**
 * The end of a synthetic export: its one display carries every tag the commands target, so the
 * export is a display model that publishing accepts (docs/export-safety.md).
 */
function syntheticTail(kind: SyntheticKind): string {
  const targets = Array.from({ length: 500 }, (_, entity) =>
    kind === 'dense' ? `"${PLACEHOLDER}_${entity}"` : `"fixed_${entity}"`,
  )
  targets.push(kind === 'dense' ? `"${PLACEHOLDER}_root"` : `"${PLACEHOLDER}_0"`)
  const tags = `Tags:[${targets.join(',')}]`
  const passengers = `{id:"minecraft:item_display",item:{id:"minecraft:stone",Count:1},${tags}}`
  return `}}},"meta":{"animations":{"default":{"durationTicks":78,"name":"Default","stepTicks":2}},"schema":1,"sounds":{}},"passengers":[${JSON.stringify(passengers)}],"project_id":"11553","type":"full","version":"1.21.4"}}`
}

/** A float in (-1, 1) written as the fixtures write them, from a deterministic hash of `i`. */
function pseudoFloat(i: number): string {
  let x = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b)
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35)
  x ^= x >>> 16
  return ((x | 0) / 2 ** 31).toFixed(10)
}
