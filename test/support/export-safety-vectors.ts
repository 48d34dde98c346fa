/**
 * The export-safety test vectors (test/vectors/export-safety/): each raw export file as its
 * exact text, with the verdict the manifest gives it. The Java client runs the same files.
 */
import manifest from '../vectors/export-safety/manifest.json'

/** A manifest entry: the verdict a check must reach on `file`. */
export interface SafetyVector {
  file: string
  verdict: 'allowed' | 'refused'
  /** The JSON path a refusal names (refused only). */
  path?: string
  /** What the refusal names there: command word, entity id, key, ... (refused only). */
  found?: string
  note: string
  /** The file's exact text. */
  text: string
}

const FILES = import.meta.glob<string>('../vectors/export-safety/*.json', {
  query: '?raw',
  import: 'default',
  eager: true,
})

/** Every vector of the manifest, with its text; fails loudly on a file the manifest names but the folder lacks. */
export const VECTORS: readonly SafetyVector[] = (manifest as Omit<SafetyVector, 'text'>[]).map(
  (entry) => {
    const text = FILES[`../vectors/export-safety/${entry.file}`]
    if (text === undefined) throw new Error(`test/vectors/export-safety/${entry.file} is missing`)
    return { ...entry, text }
  },
)

export const ALLOWED_VECTORS = VECTORS.filter((vector) => vector.verdict === 'allowed')
export const REFUSED_VECTORS = VECTORS.filter((vector) => vector.verdict === 'refused')
