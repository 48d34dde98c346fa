/**
 * The http room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both): the error bodies and failure types, which the room's own code
 * uses and the tests and the bench reach. Why a second face:
 * docs/architecture.md#the-layering-rules.
 */
export { errorResponse, type Failure, ServiceFailure, toPublicError } from './errors'
