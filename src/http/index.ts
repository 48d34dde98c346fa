/**
 * The http room's face: what the routes and the rooms below them share of HTTP. The one mapping
 * of a failure to its public error (`ServiceFailure`, `errorResponse`), the public CORS policy,
 * and the compression of answers.
 */
export { contentEncoding } from './content-encoding'
export { publicCors } from './cors'
export { errorResponse, type Failure, failureOf, ServiceFailure, toPublicError } from './errors'
