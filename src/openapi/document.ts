/**
 * The OpenAPI 3.1 description of the service: the public endpoint, the editor API (marked
 * `x-internal`) and the two meta routes. Every status and header listed here is one the
 * service really sends; test/openapi/openapi.test.ts provokes each and compares.
 */
import {
  DEFAULT_TAG,
  DEPRECATION_HEADER,
  EXPIRES_IN_HEADER,
  TAG_HEADER,
  LINK_HEADER,
  MAX_EXPORT_BYTES,
  MAX_TAG_LENGTH,
  RATE_LIMIT_HEADERS,
  RETRY_AFTER_HEADER,
  SUNSET_HEADER,
  type ErrorCode,
} from '../contract/wire'
import {
  EDITOR_EXPORTS_PATH,
  EDITOR_STATUS_PATH,
  OPENAPI_PATH,
  SERVER_API_PATH,
} from '../contract/routes'
import { API_VERSION } from '../contract/version'
import { errorSchema, headers, SCHEMAS, SECURITY_SCHEMES, type HeaderName } from './components'

const MIB = 1024 * 1024

type Schema = Record<string, unknown>

const CORS: HeaderName[] = [
  'Access-Control-Allow-Origin',
  'Access-Control-Allow-Methods',
  'Access-Control-Allow-Headers',
  'Access-Control-Expose-Headers',
]
const NO_STORE: HeaderName[] = ['Cache-Control', 'X-Content-Type-Options']
/** Every JSON or HTML answer may be compressed (src/http/content-encoding.ts). */
const ENCODED: HeaderName[] = ['Vary']
const LENGTH_OR_ENCODING: HeaderName[] = ['Content-Length', 'Content-Encoding']
const RATE_LIMIT: HeaderName[] = [
  RATE_LIMIT_HEADERS.limit,
  RATE_LIMIT_HEADERS.remaining,
  RATE_LIMIT_HEADERS.reset,
  RATE_LIMIT_HEADERS.policy,
  RATE_LIMIT_HEADERS.state,
]
/** Sent only when the deployment deprecates the route or a parameter used (src/deprecation/). */
const DEPRECATION: HeaderName[] = [DEPRECATION_HEADER, SUNSET_HEADER, LINK_HEADER]
const RATE_LIMIT_NOTE =
  ' The rate-limit headers are on every counted response; they are missing only on the 503 answered when the limiter could not answer.'

const JSON_TYPE = 'application/json'

/** The responses of GET and HEAD /server-api; HEAD has the same statuses and headers, no body. */
function exportResponses(withBody: boolean): Schema {
  const body = (schema: Schema) => (withBody ? { content: { [JSON_TYPE]: { schema } } } : {})
  const publicError = (description: string, codes: ErrorCode[], extra: HeaderName[] = []) => ({
    description: description + RATE_LIMIT_NOTE,
    headers: headers(
      [...CORS, ...NO_STORE, ...ENCODED, ...extra],
      [...LENGTH_OR_ENCODING, ...RATE_LIMIT, ...DEPRECATION],
    ),
    ...body(errorSchema(codes)),
  })
  return {
    '200': {
      description: 'The export, with the tag substituted.' + RATE_LIMIT_NOTE,
      headers: headers(
        [...CORS, ...NO_STORE, ...ENCODED, EXPIRES_IN_HEADER, TAG_HEADER],
        [...LENGTH_OR_ENCODING, ...RATE_LIMIT, ...DEPRECATION],
      ),
      ...body({ $ref: '#/components/schemas/Export' }),
    },
    '400': publicError('`id` is missing or not six ASCII digits. Counts against the quota.', [
      'invalid_id',
    ]),
    '404': publicError('No export was ever published under this ID.', ['not_found']),
    '410': publicError('The export has expired (10 minutes after publication).', ['expired']),
    '429': {
      description: `A request limit is exceeded, or the client or its network (IPv4 /24, IPv6 /48) is penalized for too many requests that found no export (404, 410, 400 \`invalid_id\`), or its network has too many requests in flight at once from clients not known to find exports; the message says which, and the rate-limit headers still describe the two request windows. Decided before the ID is read: it never depends on whether the ID is live. Wait \`${RETRY_AFTER_HEADER}\` seconds; a refused request counts nowhere.`,
      headers: headers(
        [...CORS, ...NO_STORE, ...ENCODED, RETRY_AFTER_HEADER, ...RATE_LIMIT],
        [...LENGTH_OR_ENCODING, ...DEPRECATION],
      ),
      ...body(errorSchema(['rate_limited'])),
    },
    '500': publicError('An unexpected error, or a misconfigured limit.', ['internal']),
    '503': publicError(
      `\`not_ready\`: live, but neither in this location's KV yet nor any longer in the allocator's grace copy (rare: KV slower than the 120 s grace); \`unavailable\`: storage or the allocator failed, or the stored export is damaged, or the rate limiter could not answer (whatever the ID). Retry after \`${RETRY_AFTER_HEADER}\` seconds.`,
      ['not_ready', 'unavailable'],
      [RETRY_AFTER_HEADER],
    ),
  }
}

const ID_PARAMETER = {
  name: 'id',
  in: 'query',
  required: true,
  description: 'The six-digit publication ID shown in the editor.',
  schema: { type: 'string', pattern: '^[0-9]{6}$' },
  example: '241235',
}

const TAG_PARAMETER = {
  name: 'tag',
  in: 'query',
  required: false,
  description:
    'Replaces `[MODELSERVERTAG]` in every string of the export. ASCII letters, digits, `_` and `-` are kept (case preserved), other characters removed, ' +
    `the result cut to ${MAX_TAG_LENGTH} characters; missing or empty means the deployment's default tag, \`${DEFAULT_TAG}\` unless its operator set \`DEFAULT_TAG\` (\`bde\` where it takes over from the editor's original service). A 200 says the tag it used in \`${TAG_HEADER}\`.`,
  schema: { type: 'string' },
  example: 'gate_1',
}

const editorError = (description: string, codes: ErrorCode[], extra: HeaderName[] = []) => ({
  description,
  headers: headers([...NO_STORE, ...ENCODED, ...extra], LENGTH_OR_ENCODING),
  content: {
    [JSON_TYPE]: {
      schema: errorSchema(codes),
    },
  },
})

/** What every editor API operation may answer: the token check's refusals, and a bug. */
const EDITOR_AUTH_ERRORS = {
  '401': editorError(
    'The bearer token is missing or wrong.',
    ['unauthorized'],
    ['WWW-Authenticate'],
  ),
  '404': editorError('No token is configured: the editor API is off.', ['not_found']),
  '500': editorError('An unexpected error.', ['internal']),
}

/** The whole document, as served at `GET /openapi.json`. */
export const OPENAPI_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'Published Export Retrieval Service',
    version: API_VERSION,
    description:
      'Returns a published Minecraft model export by its six-digit publication ID, for 10 minutes after publication. No authentication. Limits per external IP address: 120 requests per 60 seconds and 1200 per 3600 seconds, shared by all IDs and tags. Any website may call it with `credentials: "omit"`.',
  },
  servers: [{ url: '/' }],
  security: [],
  tags: [
    { name: 'exports', description: 'The public endpoint.' },
    { name: 'editor', description: "Internal: the editor's backend publishes here." },
    { name: 'meta', description: 'This document and the try-it page.' },
  ],
  paths: {
    [SERVER_API_PATH]: {
      description:
        'Other methods answer 405 with `Allow: GET, HEAD, OPTIONS` and an error body of code `method_not_allowed`; they cost no quota.',
      get: {
        operationId: 'getExport',
        tags: ['exports'],
        summary: 'Retrieve a published export',
        description:
          'Counts against the quota, an invalid ID included. Check the status before using `content`: only a 200 carries an export; other answers carry an error body, and one from the infrastructure may be empty or not JSON.',
        parameters: [ID_PARAMETER, TAG_PARAMETER],
        responses: exportResponses(true),
      },
      head: {
        operationId: 'headExport',
        tags: ['exports'],
        summary: 'Check a published export without its body',
        description: 'The headers a GET would get, no body. Counts against the quota.',
        parameters: [ID_PARAMETER, TAG_PARAMETER],
        responses: exportResponses(false),
      },
      options: {
        operationId: 'preflightExport',
        tags: ['exports'],
        summary: 'CORS preflight',
        description: 'Answered before the rate limiter: costs no quota.',
        responses: {
          '204': {
            description: 'Any origin, any request header; credentials are not supported.',
            headers: headers([...CORS, 'Access-Control-Max-Age', 'Vary']),
          },
        },
      },
    },
    [EDITOR_EXPORTS_PATH]: {
      post: {
        operationId: 'publishExport',
        tags: ['editor'],
        summary: 'Publish an export (internal)',
        description:
          "Internal: for the editor's backend only, with the bearer token `PUBLISH_TOKEN`. Stores the body as sent under a new six-digit ID for the export lifetime. No CORS. Other methods answer 405 with `Allow: POST` once the token is accepted.",
        'x-internal': true,
        security: [{ editorToken: [] }],
        parameters: [
          {
            name: 'quickCommandPrefix',
            in: 'query',
            required: false,
            description:
              "The user's quick-command setting, replacing `model spawn` in the command offered for copying.",
            schema: { type: 'string' },
          },
        ],
        requestBody: {
          required: true,
          content: { [JSON_TYPE]: { schema: { $ref: '#/components/schemas/ExportDocument' } } },
        },
        responses: {
          '201': {
            description: 'Published.',
            headers: headers(['Location', 'Cache-Control', ...ENCODED], LENGTH_OR_ENCODING),
            content: { [JSON_TYPE]: { schema: { $ref: '#/components/schemas/PublishResult' } } },
          },
          '400': editorError(
            'The body is not JSON, not an export, or the prefix is unusable; `unsafe_export`: the export holds something a server would run that is not part of a display model, named by `path`. Nothing is stored.',
            ['invalid_json', 'invalid_export', 'invalid_quick_command', 'unsafe_export'],
          ),
          ...EDITOR_AUTH_ERRORS,
          '413': editorError(`The body is larger than ${MAX_EXPORT_BYTES / MIB} MiB.`, [
            'too_large',
          ]),
          '415': editorError('The body is not sent as `application/json`.', [
            'unsupported_media_type',
          ]),
          '503': editorError(
            `\`capacity\`: every ID is in use; \`unavailable\`: nothing was stored. Retry after \`${RETRY_AFTER_HEADER}\` seconds.`,
            ['capacity', 'unavailable'],
            [RETRY_AFTER_HEADER],
          ),
        },
      },
    },
    [EDITOR_STATUS_PATH]: {
      description:
        'Other methods answer 405 with `Allow: GET` and an error body of code `method_not_allowed`, once the token is accepted.',
      get: {
        operationId: 'getIdSpaceStatus',
        tags: ['editor'],
        summary: 'How full the ID space is (internal)',
        description:
          'Internal: for operators, with the bearer token `PUBLISH_TOKEN`. Counts the IDs live, in quarantine and free in every allocator shard and in all; when shards are full, the earliest moment one frees an ID. Each call asks all 16 shards. No CORS.',
        'x-internal': true,
        security: [{ editorToken: [] }],
        responses: {
          '200': {
            description: 'The counts, as of `checkedAt`.',
            headers: headers(['Cache-Control', ...ENCODED], LENGTH_OR_ENCODING),
            content: { [JSON_TYPE]: { schema: { $ref: '#/components/schemas/IdSpaceStatus' } } },
          },
          ...EDITOR_AUTH_ERRORS,
          '503': editorError(
            `\`unavailable\`: a shard did not answer. Retry after \`${RETRY_AFTER_HEADER}\` seconds.`,
            ['unavailable'],
            [RETRY_AFTER_HEADER],
          ),
        },
      },
    },
    [OPENAPI_PATH]: {
      get: {
        operationId: 'getOpenApiDocument',
        tags: ['meta'],
        summary: 'This document',
        responses: {
          '200': {
            description: 'The OpenAPI document.',
            headers: headers(
              [...CORS, ...NO_STORE, ...ENCODED],
              [...LENGTH_OR_ENCODING, ...DEPRECATION],
            ),
            content: { [JSON_TYPE]: { schema: { type: 'object', required: ['openapi'] } } },
          },
        },
      },
    },
    '/': {
      get: {
        operationId: 'getTryItPage',
        tags: ['meta'],
        summary: 'Try-it page',
        description:
          'A page to fetch an export by ID and tag and see its model in 3D, its animations, and its content as a tree. `/?id=241235&tag=x` fetches that export on load. Served as a static asset.',
        responses: {
          '200': {
            description: 'The page.',
            headers: headers(
              ['Content-Security-Policy', 'Referrer-Policy', 'ETag', ...NO_STORE],
              ['CF-Cache-Status'],
            ),
            content: { 'text/html': { schema: { type: 'string' } } },
          },
        },
      },
    },
  },
  components: { schemas: SCHEMAS, securitySchemes: SECURITY_SCHEMES },
}
