/**
 * The must-accept corpus (test/corpus/): exports of every game version and part kind the editor
 * publishes, each with where its shape comes from. Entries name their file from the repository
 * root, so the real exports of fixtures/ count too.
 */
import manifest from '../corpus/manifest.json'

/** Where an entry's shape was found: a public file, or this repository. */
export interface CorpusSource {
  repo: string
  path: string
  commit: string
}

/** A manifest entry: one export that publishing must accept and serve back unchanged. */
export interface CorpusEntry {
  /** From the repository root. */
  file: string
  /** The game version the export declares (`content.version`). */
  version: string
  /** The part kinds it holds (CORPUS_KINDS). */
  kinds: string[]
  /** Written for the corpus in the shape of `source`, rather than copied from it. */
  recreated: boolean
  note: string
  source: CorpusSource
  /** The file's exact text. */
  text: string
}

/** Every game version the editor exports, from the first with display entities. */
export const CORPUS_VERSIONS = [
  '1.19.4',
  '1.20.1',
  '1.20.2',
  '1.20.4',
  '1.20.5',
  '1.20.6',
  '1.21.1',
  '1.21.4',
  '1.21.5',
  '1.21.8',
  '1.21.10',
] as const

/** Every part kind a model may hold. */
export const CORPUS_KINDS = [
  'block',
  'item',
  'item-head-skullowner',
  'item-head-profile',
  'item-head-name',
  'item-dyed',
  'item-enchanted',
  'item-banner',
  'item-potion',
  'item-firework',
  'item-custom-model-data',
  'text',
  'text-json',
  'text-snbt',
  'text-styled',
  'text-string-booleans',
  'interaction',
  'animation',
  'sound',
] as const

const FILES: Record<string, string> = {
  ...import.meta.glob<string>('../corpus/*.json', {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
  ...import.meta.glob<string>('../../fixtures/*.json', {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
}

/** The text of a file named from the repository root, if the corpus or fixtures hold it. */
function textOf(file: string): string | undefined {
  const fromTest = file.startsWith('test/corpus/')
    ? `../corpus/${file.slice('test/corpus/'.length)}`
    : `../../${file}`
  return FILES[fromTest]
}

/** Every entry of the manifest, with its text; fails loudly on a file the manifest names but the folder lacks. */
export const CORPUS: readonly CorpusEntry[] = (manifest as Omit<CorpusEntry, 'text'>[]).map(
  (entry) => {
    const text = textOf(entry.file)
    if (text === undefined) throw new Error(`${entry.file} is missing`)
    return { ...entry, text }
  },
)

/** The corpus files on disk (test/corpus/*.json but the manifest), from the repository root. */
export const CORPUS_FILES: readonly string[] = Object.keys(FILES)
  .filter((path) => path.startsWith('../corpus/') && !path.endsWith('/manifest.json'))
  .map((path) => `test/corpus/${path.slice('../corpus/'.length)}`)
