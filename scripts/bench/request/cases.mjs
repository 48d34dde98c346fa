/**
 * The request section's cases: each a load (which Worker, which requests, which status is
 * expected) beside the baseline it is compared with, and the groups whose rounds interleave.
 */
import { SERVER_API_PATH } from '../../../src/contract/routes.ts'
import { knownAddress, newAddresses, refusedAddress } from './addresses.mjs'
import { getRequest } from './prepare.mjs'

/** Every case by name: `{ url, request(i), method?, expect }`. */
export function requestCases({ urls, id, largeId, tags, clientIps }) {
  const get = getRequest({ id, tags, clientIps })
  const getLarge = getRequest({ id: largeId, tags, clientIps })
  const missing = getRequest({ id: 999999, tags, clientIps })
  const from = (address) => (i) => ({ ...get(i), headers: { 'CF-Connecting-IP': address(i) } })
  const newClient = newAddresses()
  const sixteen = from((i) => knownAddress(i % 16, clientIps))
  const preflight = () => ({
    path: `${SERVER_API_PATH}?id=${id}`,
    headers: { Origin: 'https://example.com', 'Access-Control-Request-Method': 'GET' },
  })
  return {
    GET: { url: urls.service, request: get, expect: 200 },
    'GET baseline': { url: urls.baseline, request: get, expect: 200 },
    'GET no limiter': { url: urls['no-limiter'], request: get, expect: 200 },
    // The same GETs from 16 addresses: their limiter objects are hit often enough to stay in
    // memory (workerd evicts an object about 10 s after its last request).
    'GET 16 clients': { url: urls.service, request: sixteen, expect: 200 },
    // The floor of one limiter RPC per request: the same Worker, its limiter object answering
    // from memory without storage (memory-limiter-worker.ts); cold objects, then warm ones.
    'GET no storage': { url: urls['no-storage'], request: get, expect: 200 },
    'GET no storage 16 clients': { url: urls['no-storage'], request: sixteen, expect: 200 },
    'GET streamed': { url: urls.service, request: getLarge, expect: 200 },
    'GET streamed baseline': { url: urls.baseline, request: getLarge, expect: 200 },
    HEAD: { url: urls.service, request: get, method: 'HEAD', expect: 200 },
    'HEAD baseline': { url: urls.baseline, request: get, method: 'HEAD', expect: 200 },
    'HEAD no limiter': { url: urls['no-limiter'], request: get, method: 'HEAD', expect: 200 },
    'HEAD no storage': { url: urls['no-storage'], request: get, method: 'HEAD', expect: 200 },
    'HEAD new client': {
      url: urls.service,
      request: from(() => newClient()),
      method: 'HEAD',
      expect: 200,
    },
    404: { url: urls.service, request: missing, expect: 404 },
    '404 baseline': { url: urls.baseline, request: missing, expect: 404 },
    429: { url: urls.limited, request: from(refusedAddress), expect: 429 },
    '429 baseline': { url: urls.baseline, request: () => ({ path: '/too-many' }), expect: 429 },
    OPTIONS: { url: urls.service, request: preflight, method: 'OPTIONS', expect: 204 },
    'OPTIONS baseline': { url: urls.baseline, request: preflight, method: 'OPTIONS', expect: 204 },
  }
}

/** GET and its baselines interleave with each other, every other case with its baseline. */
export const CASE_GROUPS = [
  [
    'GET',
    'GET baseline',
    'GET no limiter',
    'GET 16 clients',
    'GET no storage',
    'GET no storage 16 clients',
  ],
  ['GET streamed', 'GET streamed baseline'],
  ['HEAD', 'HEAD baseline', 'HEAD no limiter', 'HEAD new client', 'HEAD no storage'],
  ['404', '404 baseline'],
  ['429', '429 baseline'],
  ['OPTIONS', 'OPTIONS baseline'],
]

/** Each case's ratio: its requests per second over its baseline's, paired by round. */
export const CASE_RATIOS = {
  GET: ['GET', 'GET baseline'],
  'GET streamed': ['GET streamed', 'GET streamed baseline'],
  'GET vs no limiter': ['GET', 'GET no limiter'],
  'GET 16 clients': ['GET 16 clients', 'GET baseline'],
  'GET 16 clients vs 1024': ['GET 16 clients', 'GET'],
  'GET no storage': ['GET no storage', 'GET baseline'],
  'GET no storage 16 clients': ['GET no storage 16 clients', 'GET baseline'],
  'HEAD no storage': ['HEAD no storage', 'HEAD baseline'],
  'HEAD vs no limiter': ['HEAD', 'HEAD no limiter'],
  'HEAD new client vs known': ['HEAD new client', 'HEAD'],
  'no limiter vs baseline': ['GET no limiter', 'GET baseline'],
  HEAD: ['HEAD', 'HEAD baseline'],
  404: ['404', '404 baseline'],
  429: ['429', '429 baseline'],
  OPTIONS: ['OPTIONS', 'OPTIONS baseline'],
}
