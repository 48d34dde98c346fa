/**
 * The substitution room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both): the two finders (placeholder splicer, JSON splicer), which the
 * room's own code uses and the tests and the bench reach. Why a second face:
 * docs/architecture.md#the-layering-rules.
 */
export { PlaceholderSplicer } from './splicer'
export { JsonSplicer } from './json-splicer'
