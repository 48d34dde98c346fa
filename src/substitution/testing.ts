/**
 * The substitution room's second face, for scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks it); tests reach both finders through the face, `substitution`.
 * Why a second face: docs/architecture.md#the-layering-rules.
 */
// The bench measures the placeholder splicer alone and names it by its class when chosen.
export { PlaceholderSplicer } from './splicer'
// The bench measures the JSON splicer alone, on documents the read path would not give it.
export { JsonSplicer } from './json-splicer'
