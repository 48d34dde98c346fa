/**
 * The readers run on a passenger string the grammar accepted: each must read exactly the
 * entities the game reads (docs/export-safety.md, "Readers this check holds for"), or the string
 * is refused as `reader`, naming the reader.
 */
import { addOwnTag, checkPassenger } from './entities.js'
import { UnsafeContent, type KeyTypes, type PartType } from '../types/index.js'
import { forEachCompound, type SnbtValue } from '../syntax/index.js'
import {
  readsAsDisplayEntityUtils,
  READER_NAMES,
  cutsBetween,
  forEachSansCraftEntity,
  mayNest,
  readsAsSuperBlocksDisplays,
  type GrammarCompound,
} from '../readers/index.js'

type Compound = SnbtValue & { kind: 'compound' }

const TAGS = 'Tags'
const NO_TAGS: readonly string[] = []

/**
 * What the grammar read of one passenger string, as `forEachCompound` hands it over, kept for
 * the readers: its top-level compounds, how many entities of each display type it holds (nested
 * ones included), and, when sanscraft-bde may flatten it (`mayNest`), where each compound stands
 * that holds no passengers of its own, with its type and tags. sanscraft-bde summons such a range
 * as written, and the grammar's reading of it is what a reading of the range alone gives (the
 * same parser on the same characters, less deep), so the check does not read it a second time.
 * Kept as numbers in one typed array: a publish that keeps a few hundred KiB more across a
 * collection grows V8's young generation a step (docs/performance.md, "Adversarial publishes").
 */
export class GrammarPassengers {
  readonly compounds: GrammarCompound[] = []
  /** How many entities of each display type the grammar read, and of all of them. */
  readonly typeCounts = new Map<string, number>()
  entities = 0
  /** Whether sanscraft-bde may flatten the string (`mayNest`): searched once for both readings. */
  readonly nests: boolean
  /** The display types met, by their index in `leafData`. */
  private readonly types: PartType[] = []
  /**
   * The compounds without passengers, in the order of the text (they never overlap), three
   * numbers each: start, end, index of the type.
   */
  private leafData = new Int32Array(0)
  private leafCount = 0
  /** The tags of the compounds without passengers that have some, by their index. */
  private readonly leafTags = new Map<number, readonly string[]>()
  /** Where the compound handed over last ends: one that closes after it starts holds it. */
  private lastEnd = -1

  constructor(text: string) {
    this.nests = mayNest(text)
  }

  /** The compound `[start, end)` of type `type`, as `forEachCompound` hands it over. */
  add(compound: Compound, start: number, end: number, nested: boolean, type: PartType): void {
    this.typeCounts.set(type, (this.typeCounts.get(type) ?? 0) + 1)
    this.entities++
    if (!nested) this.compounds.push({ start, end, type })
    if (this.nests && this.lastEnd <= start) this.addLeaf(compound, start, end, type)
    this.lastEnd = end
  }

  private addLeaf(compound: Compound, start: number, end: number, type: PartType): void {
    let typeIndex = this.types.indexOf(type)
    if (typeIndex < 0) typeIndex = this.types.push(type) - 1
    if (this.leafData.length < (this.leafCount + 1) * 3) {
      const grown = new Int32Array(Math.max(48, this.leafData.length * 2))
      grown.set(this.leafData)
      this.leafData = grown
    }
    const at = this.leafCount * 3
    this.leafData[at] = start
    this.leafData[at + 1] = end
    this.leafData[at + 2] = typeIndex
    const tags = tagsOf(compound)
    if (tags !== null) this.leafTags.set(this.leafCount, tags)
    this.leafCount++
  }

  /** The index of the compound without passengers that spans `[start, end)`, else -1. */
  leafAt(start: number, end: number): number {
    const data = this.leafData
    let low = 0
    let high = this.leafCount
    while (low < high) {
      const middle = (low + high) >>> 1
      if (data[middle * 3]! < start) low = middle + 1
      else high = middle
    }
    return low < this.leafCount && data[low * 3] === start && data[low * 3 + 1] === end ? low : -1
  }

  leafType(leaf: number): PartType {
    return this.types[this.leafData[leaf * 3 + 2]!]!
  }

  leafTagsOf(leaf: number): readonly string[] | undefined {
    return this.leafTags.get(leaf)
  }
}

/** The tags `checkPassenger` collects from a compound, in its order; null when none. */
function tagsOf(compound: Compound): string[] | null {
  let tags: string[] | null = null
  for (const [name, value] of compound.members) {
    if (name !== TAGS || value?.kind !== 'list') continue
    for (const tag of value.items) if (tag.kind === 'text') (tags ??= []).push(tag.value)
  }
  return tags
}

/**
 * Throws the `reader` refusal unless every reader reads the passenger string `text` as the
 * grammar does (`grammar`, its reading of it), `keyTypes` as the export's declared version reads
 * them.
 */
export function checkPassengerReaders(
  text: string,
  grammar: GrammarPassengers,
  keyTypes: KeyTypes,
): void {
  const compounds = grammar.compounds
  if (!readsAsSuperBlocksDisplays(text, compounds)) refuse(READER_NAMES.superBlocksDisplays)
  if (!readsAsSansCraft(text, grammar, keyTypes)) refuse(READER_NAMES.sansCraft)
  // It summons the passengers inside its own `summon block_display ...`, replacing that text.
  if (!readsAsDisplayEntityUtils(text)) refuse(READER_NAMES.displayEntityUtils)
}

function refuse(reader: string): never {
  throw new UnsafeContent('reader', reader, 'reader')
}

/**
 * Whether sanscraft-bde reads `text` as the grammar does (after SuperBlocksDisplays' reading
 * held): without a nested list its pieces are the grammar's compounds, as written; with one, its
 * flattened entities are as many as the grammar's, each a passenger the check accepts on its
 * own, of the same display types.
 */
function readsAsSansCraft(text: string, grammar: GrammarPassengers, keyTypes: KeyTypes): boolean {
  const compounds = grammar.compounds
  // The compounds are joined by bare commas from end to end (SuperBlocksDisplays' reading).
  if (!grammar.nests)
    return cutsBetween(
      text,
      compounds.map((compound) => compound.end),
    )
  // Each entity is read and let go as the reader hands it over: only the count of each type is
  // kept, so a model of many parts never holds all of its entities' readings at once.
  const expected = new Map(grammar.typeCounts)
  const total = grammar.entities
  const scratchTags = new Set<string>()
  let entities = 0
  let sameTypes = true
  const counted = (type: string) => {
    const left = expected.get(type) ?? 0
    if (left === 0) sameTypes = false
    else expected.set(type, left - 1)
  }
  try {
    forEachSansCraftEntity(text, (start, end, joined) => {
      entities++
      const leaf = joined === null ? grammar.leafAt(start, end) : -1
      if (leaf >= 0) {
        // The grammar read this range, as written, as one passenger it accepted.
        counted(grammar.leafType(leaf))
        for (const tag of grammar.leafTagsOf(leaf) ?? NO_TAGS) addOwnTag(scratchTags, tag)
        return sameTypes && entities <= total
      }
      let count = 0
      forEachCompound(
        joined ?? text.slice(start, end),
        keyTypes,
        (entity, _start, _end, nested) => {
          if (!nested) count++
          counted(checkPassenger(entity, scratchTags))
        },
      )
      if (count !== 1) sameTypes = false
      return sameTypes && entities <= total
    })
  } catch (error) {
    if (error instanceof UnsafeContent) return false
    throw error
  }
  return sameTypes && entities === total && [...expected.values()].every((n) => n === 0)
}
