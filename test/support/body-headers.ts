/**
 * The headers that say what a `/server-api` body is and how it may be kept (its type, length,
 * encoding, caching), lower case as `Headers` lists them: the first a caller reads of any answer,
 * compared by the golden answers and by the KV-lag test alike.
 */
export const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'vary',
  'cache-control',
  'x-content-type-options',
]
