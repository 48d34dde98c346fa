/**
 * The parts of the OpenAPI document that responses share: headers, body schemas and the editor
 * API's security scheme. Headers are written out in each response rather than referenced, so a
 * reader of one response sees all of it. test/openapi/openapi.test.ts holds them against real responses.
 */

import {
  DEPRECATION_HEADER,
  DEPRECATION_LINK_RELATION,
  EDITOR_API_CHALLENGE,
  ERROR_CODES,
  EXPIRES_IN_HEADER,
  MAX_EXPORT_BYTES,
  MAX_NESTING_DEPTH,
  PUBLIC_METHODS,
  RATE_LIMIT_HEADERS,
  LINK_HEADER,
  RETRY_AFTER_HEADER,
  SUNSET_HEADER,
  TAG_HEADER,
  type ErrorCode,
} from '../contract/wire'
import { SERVER_API_PATH } from '../contract/routes'

type Schema = Record<string, unknown>

const MIB = 1024 * 1024

const WHOLE_SECONDS = { type: 'integer', minimum: 0 }

/** Response headers, by name. */
export const HEADERS = {
  'Access-Control-Allow-Origin': header('Every website may call the public endpoint.', {
    const: '*',
  }),
  'Access-Control-Allow-Methods': header('Methods of the public endpoint.', {
    const: PUBLIC_METHODS,
  }),
  'Access-Control-Allow-Headers': header('Any request header is allowed.', { const: '*' }),
  'Access-Control-Expose-Headers': header(
    `The headers browser scripts may read: \`${RETRY_AFTER_HEADER}\`, the rate-limit headers, \`${EXPIRES_IN_HEADER}\`, \`Content-Length\`, the deprecation headers (\`${DEPRECATION_HEADER}\`, \`${SUNSET_HEADER}\`, \`${LINK_HEADER}\`) and \`${TAG_HEADER}\`.`,
    { type: 'string' },
  ),
  'Access-Control-Max-Age': header('Seconds a browser may cache this preflight answer.', {
    type: 'integer',
    minimum: 0,
  }),
  Vary: header(
    'What else the answer depends on: `Accept-Encoding` (compression) for JSON and HTML, the headers the browser asked for on a preflight.',
    { type: 'string' },
  ),
  'Cache-Control': header(
    'Exports and errors are never cached; the OpenAPI document briefly; the try-it page is revalidated (`ETag`) on every load.',
    { enum: ['no-store', 'public, max-age=300', 'no-cache'] },
  ),
  'X-Content-Type-Options': header('Browsers must not sniff the content type.', {
    const: 'nosniff',
  }),
  'Content-Length': header(
    'Exact length of the body in bytes (for an export, of the substituted export), known before the first byte. Absent when the answer is compressed.',
    WHOLE_SECONDS,
  ),
  'Content-Encoding': header(
    "`gzip` or `br`, whichever the client lists first (by weight) in `Accept-Encoding`, names matched case-insensitively: the body is compressed and sent chunked, without `Content-Length`. `identity` when the client refuses an uncompressed answer (`identity;q=0` or `*;q=0`) but accepts neither gzip nor br (or names them in upper case only, which the runtime's own check does not read): the body is sent uncompressed with its `Content-Length`, as RFC 9110 section 12.5.3 advises. A HEAD says the same as the GET.",
    { enum: ['gzip', 'br', 'identity'] },
  ),
  [EXPIRES_IN_HEADER]: header(
    'Whole seconds the export has left before it expires: a duration, not a timestamp.',
    WHOLE_SECONDS,
  ),
  [TAG_HEADER]: header(
    'The tag written into the export in place of `[MODELSERVERTAG]`: the `tag` asked for as sanitized (only ASCII letters, digits, `_` and `-` kept, at most 100), or the default tag when none was asked for or nothing was left. It differs from the tag asked for when sanitizing changed it.',
    { type: 'string', pattern: '^[A-Za-z0-9_-]{1,100}$' },
  ),
  [RETRY_AFTER_HEADER]: header(
    'Whole seconds to wait before retrying; on 429 it is authoritative and equals `error.retryAfterSeconds`.',
    { type: 'integer', minimum: 1 },
  ),
  [RATE_LIMIT_HEADERS.limit]: header(
    'The limit of the rate-limit window these headers describe: the one nearest exhaustion.',
    { type: 'integer', minimum: 1 },
  ),
  [RATE_LIMIT_HEADERS.remaining]: header('Requests left in that window.', WHOLE_SECONDS),
  [RATE_LIMIT_HEADERS.reset]: header(
    'Whole seconds until that window resets: a duration, not a Unix timestamp.',
    WHOLE_SECONDS,
  ),
  [RATE_LIMIT_HEADERS.policy]: header(
    'Both windows, as in draft-ietf-httpapi-ratelimit-headers: `"short";q=120;w=60, "long";q=1200;w=3600` (`q` requests per `w` seconds).',
    { type: 'string', pattern: '^"[a-z]+";q=[0-9]+;w=[0-9]+(, "[a-z]+";q=[0-9]+;w=[0-9]+)*$' },
  ),
  [RATE_LIMIT_HEADERS.state]: header(
    'Both windows\' state: `"short";r=117;t=50, "long";r=1197;t=3590` (`r` remaining, `t` seconds until reset).',
    { type: 'string', pattern: '^"[a-z]+";r=[0-9]+;t=[0-9]+(, "[a-z]+";r=[0-9]+;t=[0-9]+)*$' },
  ),
  [DEPRECATION_HEADER]: header(
    'Only when the deployment has deprecated this route, or a query parameter the request names (RFC 9745): when, as `@<unix-seconds>`. The answer is otherwise unchanged; move before `Sunset`.',
    { type: 'string', pattern: '^@-?[0-9]+$' },
  ),
  [SUNSET_HEADER]: header(
    'Only beside `Deprecation` (RFC 8594): the HTTP-date after which the deprecated route or parameter may stop answering.',
    { type: 'string' },
  ),
  [LINK_HEADER]: header(
    `Only beside \`${DEPRECATION_HEADER}\`: \`<url>; rel="${DEPRECATION_LINK_RELATION}"\`, one per deprecated use, the page that says what to use instead.`,
    { type: 'string' },
  ),
  Allow: header('The methods this path supports.', { type: 'string' }),
  Location: header('Where the published export is retrieved.', {
    type: 'string',
    pattern: `^${SERVER_API_PATH}\\?id=[0-9]{6}$`,
  }),
  'WWW-Authenticate': header('The editor API wants a bearer token.', {
    const: EDITOR_API_CHALLENGE,
  }),
  'Content-Security-Policy': header(
    "The try-it page loads nothing but its own script and style (`script-src 'self'`), and calls only this origin.",
    { type: 'string' },
  ),
  'Referrer-Policy': header('The page sends no referrer.', { const: 'no-referrer' }),
  ETag: header('A validator of the page, for `If-None-Match`.', { type: 'string' }),
  'CF-Cache-Status': header("Set by Cloudflare's static asset server.", { type: 'string' }),
}

export type HeaderName = keyof typeof HEADERS

/** Body schemas, by name. */
export const SCHEMAS: Record<string, Schema> = {
  Export: {
    type: 'object',
    description: 'A published export, with `[MODELSERVERTAG]` replaced by the sanitized tag.',
    required: ['content'],
    properties: { content: { $ref: '#/components/schemas/ExportContent' } },
  },
  ExportContent: {
    type: 'object',
    description:
      'The model: `datapack`, `meta`, `passengers`, `type`, `version` and more, depending on the export, as it was published.',
    properties: {
      project_id: {
        type: 'string',
        description: 'The editor project; differs from the publication ID and the catalog ID.',
      },
    },
    additionalProperties: true,
  },
  ExportDocument: {
    type: 'object',
    description: `What the editor publishes; stored byte for byte. At most ${MAX_EXPORT_BYTES / MIB} MiB, nested at most ${MAX_NESTING_DEPTH} levels.`,
    required: ['content'],
    properties: { content: { $ref: '#/components/schemas/ExportContent' } },
  },
  PublishResult: {
    type: 'object',
    required: ['id', 'expiresAt', 'expiresInSeconds', 'quickCommand'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: '^[0-9]{6}$', description: 'The publication ID.' },
      expiresAt: { type: 'string', format: 'date-time', description: 'End of the lifetime (UTC).' },
      expiresInSeconds: { type: 'integer', minimum: 1 },
      quickCommand: {
        type: 'string',
        pattern: '^/.* [0-9]{6}$',
        description: 'The command the editor offers for copying, `/model spawn 123456` by default.',
      },
    },
  },
  IdSpaceStatus: {
    type: 'object',
    description:
      'How full the publication ID space is. An ID is live for the export lifetime, then in quarantine, then free.',
    required: [
      'checkedAt',
      'lifetimeSeconds',
      'quarantineSeconds',
      'sustainedPublishesPerSecond',
      'total',
      'shards',
    ],
    additionalProperties: false,
    properties: {
      checkedAt: { type: 'string', format: 'date-time' },
      lifetimeSeconds: { type: 'integer', minimum: 1 },
      quarantineSeconds: { type: 'integer', minimum: 1 },
      sustainedPublishesPerSecond: {
        type: 'number',
        minimum: 0,
        description: 'size / (lifetime + quarantine): the publishing rate the space sustains.',
      },
      total: {
        allOf: [{ $ref: '#/components/schemas/IdCounts' }],
        required: ['fullShards'],
        properties: {
          fullShards: {
            type: 'integer',
            minimum: 0,
            description: 'Shards without a free ID.',
          },
          freesAt: {
            description: 'The earliest moment a full shard frees an ID; null when none is full.',
          },
        },
      },
      shards: {
        type: 'array',
        items: {
          allOf: [{ $ref: '#/components/schemas/IdCounts' }],
          required: ['shard'],
          properties: {
            shard: { type: 'integer', minimum: 0 },
            freesAt: {
              description: 'When this shard, if full, frees its first ID; null while it has one.',
            },
          },
        },
      },
    },
  },
  IdCounts: {
    type: 'object',
    required: ['size', 'live', 'quarantined', 'free', 'freesAt'],
    properties: {
      size: { type: 'integer', minimum: 1, description: 'IDs in all.' },
      live: { type: 'integer', minimum: 0, description: 'IDs of exports not yet expired.' },
      quarantined: {
        type: 'integer',
        minimum: 0,
        description: 'Expired IDs not yet issued again (they answer 410).',
      },
      free: { type: 'integer', minimum: 0, description: 'IDs a publish may draw.' },
      freesAt: { oneOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
    },
  },
  Error: {
    type: 'object',
    description:
      "Every error but 429: `error` is the message for people, `code` and any other fields sit beside it. The string form is the one the editor's original service sends, and the one plugins written against it read. Bodies from the infrastructure in front of the service may be empty or not JSON at all.",
    required: ['error', 'code'],
    properties: {
      error: { type: 'string', description: 'For people; may change. Plain text.' },
      code: { type: 'string', description: 'Stable, machine-readable.' },
      retryAfterSeconds: {
        type: 'integer',
        minimum: 1,
        description: `Present when retrying later can succeed; equals \`${RETRY_AFTER_HEADER}\`.`,
      },
      limitBytes: { type: 'integer', minimum: 1, description: 'On `too_large`: the limit.' },
      path: {
        type: 'string',
        description:
          'On `unsafe_export`: where the export leaves the display-model vocabulary, as a JSON path (`content.datapack.anim_keyframes.open.7[2]`). The message names what was found there, for one of the reasons `command`, `entity`, `key`, `selector`, `syntax`, `control`, `length`, `depth`, `shape`, `member`, `text`, `reader`, `count`, `type`, `component`, `placeholder`, `escape`, `value` (more may be added).',
      },
    },
  },
  RateLimitedError: {
    type: 'object',
    description:
      'The 429 body: `error` is an object, whose `retryAfterSeconds` the API contract requires.',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message', 'retryAfterSeconds'],
        properties: {
          code: { const: 'rate_limited' },
          message: { type: 'string', description: 'For people; may change. Plain text.' },
          retryAfterSeconds: {
            type: 'integer',
            minimum: 1,
            description: `Equals \`${RETRY_AFTER_HEADER}\`.`,
          },
        },
      },
    },
  },
}

/** The editor API's bearer token. */
export const SECURITY_SCHEMES = {
  editorToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The secret `PUBLISH_TOKEN` shared with the editor's backend. Never put it in a browser: the editor API has no CORS on purpose.",
  },
}

/** The error body of a response, narrowed to the codes it can carry (429 has a shape of its own). */
export function errorSchema(codes: ErrorCode[]): Schema {
  if (codes.includes('rate_limited')) {
    if (codes.length > 1) throw new Error('rate_limited has a body of its own; describe it alone')
    return { $ref: '#/components/schemas/RateLimitedError' }
  }
  const narrowed: Schema = { properties: { code: { enum: codes } } }
  // Codes that ask for a retry carry `retryAfterSeconds` (and `Retry-After`).
  if (codes.some((code) => 'retry' in ERROR_CODES[code])) narrowed.required = ['retryAfterSeconds']
  return { allOf: [{ $ref: '#/components/schemas/Error' }, narrowed] }
}

/** The response headers object of an operation's response, from the header names. */
export function headers(required: HeaderName[], optional: HeaderName[] = []): Schema {
  return Object.fromEntries([
    ...required.map((name) => [name, HEADERS[name]]),
    ...optional.map((name) => [name, { ...HEADERS[name], required: false }]),
  ])
}

function header(description: string, schema: Schema): Schema {
  return { description, required: true, schema }
}
