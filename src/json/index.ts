/**
 * JSON on bytes: one scanner that follows a document's structure without decoding it, with the
 * strict grammar publishing checks and the structural one the read path checks, and the
 * placeholder it finds in strings, raw or spelled with `\uHHHH` escapes. Pure: bytes in, facts
 * out; the substitution engine (src/substitution/) and the publish validator
 * (src/publish/validate.ts) both use it through this entry point. The display-model check reads
 * JSON with a reader of its own (src/export-safety/json-bytes.ts), which goes back where this
 * scanner streams: held to the same vectors (test/json/two-readers.test.ts), why two in
 * docs/architecture.md#which-reader-reads-what.
 */
export { JsonScanner, MalformedExportError, type JsonKind, type TopLevelObserver } from './scanner'
export { escapedUnit, PLACEHOLDER } from './placeholder-bytes'
