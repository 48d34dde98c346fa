/**
 * The exports room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both). The names here are what a test or the bench cannot reach
 * through the face or through the Worker, each with its reason. Why a second face:
 * docs/architecture.md#the-layering-rules.
 */
// The tag rule on thousands of arbitrary strings, many of which no URL can carry to the Worker.
export { sanitizeTag } from './tag'
