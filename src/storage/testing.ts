/**
 * The storage room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both). The names here are what a test or the bench cannot reach
 * through the face or through the Worker, each with its reason. Why a second face:
 * docs/architecture.md#the-layering-rules.
 */
// The KV key of an export, under which tests plant, damage or look for a stored record, and
// the bench stores its exports without publishing them.
export { exportKey } from './export-store'
