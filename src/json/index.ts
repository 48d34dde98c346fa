/**
 * JSON on bytes: the one reader of JSON bytes in TypeScript. One scanner follows a document's
 * structure without decoding it, with the strict grammar publishing checks and the structural
 * one the read path checks, and finds the placeholder in strings, raw or spelled with `\uHHHH`
 * escapes; an observer it is given learns where the values it watches start and end, and
 * `JsonStrings` decodes the strings it delimited. Pure: bytes in, facts out; the substitution
 * engine (src/substitution/), the publish validator (src/publish/validate.ts) and the
 * display-model check (src/export-safety/, in the same pass at publish) all read through this
 * entry point. Relative imports end in `.js` and no enum is used, as the client (which carries
 * the check, and so this room) is checked under `nodenext` and `erasableSyntaxOnly`.
 */
export { JsonScanner, MalformedExportError, type JsonKind, type JsonObserver } from './scanner.js'
export { JsonStrings } from './strings.js'
export { escapedUnit, PLACEHOLDER } from './placeholder-bytes.js'
