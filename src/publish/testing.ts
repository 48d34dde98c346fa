/**
 * The publish room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both). The names here are what a test or the bench cannot reach
 * through the face or through the Worker, each with its reason. It stays free of the Workers
 * runtime, so that the bench can bundle it for Node. Why a second face:
 * docs/architecture.md#the-layering-rules.
 */
// The one pass of publishing, on thousands of generated bodies and on exports planted at set IDs.
export { validateExport } from './validate'
