/**
 * The substitution room's second face, for scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks it); tests reach both finders through the face, `substitution`.
 * Why a second face: docs/architecture.md#the-layering-rules.
 */
// The bench measures each finder alone and names the one the read path chose by its class.
export { PlaceholderSplicer } from './splicer'
export { JsonSplicer } from './json-splicer'
