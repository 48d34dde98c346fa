/**
 * The game version an export is read as: `content.version` chooses an era of `vocabulary.json`'s
 * `versions`, whose types replace some of the file's (items as `Count` and `tag` up to 1.20.4,
 * `count` and `components` from 1.20.5; string booleans in JSON text where Gson read them). A
 * value that the declared version reads otherwise than its era's types say is refused as any
 * other value of another type.
 */
import data from './vocabulary.json' with { type: 'json' }
import { DEFAULT_TYPES, TypeSet, type KeyTypes, type Versions } from './types.js'

const VERSIONS = (data as unknown as { versions: Versions }).versions

/** A version as numbers: `1.20.4` is [1, 20, 4], `1.21` is [1, 21, 0]. */
function versionNumbers(version: string): number[] | null {
  const match = /^(\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?$/.exec(version)
  if (match === null) return null
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)]
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let at = 0; at < 3; at++) if (a[at] !== b[at]) return a[at]! - b[at]!
  return 0
}

/** The eras, oldest first, each with its types compiled when first asked for. */
const ERAS = VERSIONS.eras.map((era) => ({
  from: versionNumbers(era.from)!,
  name: era.from,
  types: era.from === VERSIONS.default ? DEFAULT_TYPES : null,
  overrides: era.types,
})) as Array<{
  from: number[]
  name: string
  types: TypeSet | null
  overrides: ConstructorParameters<typeof TypeSet>[0]
}>

/**
 * The era `version` (the value of `content.version`) falls in: the last that begins at or before
 * it, so that a version newer than every era is read as the newest. Absent, not a string, not a
 * version or older than every era (no display entities before 1.19.4): the default era.
 */
export function eraOf(version: unknown): string {
  const numbers = typeof version === 'string' ? versionNumbers(version) : null
  if (numbers === null || compare(numbers, ERAS[0]!.from) < 0) return VERSIONS.default
  let chosen = ERAS[0]!
  for (const era of ERAS) if (compare(era.from, numbers) <= 0) chosen = era
  return chosen.name
}

/**
 * The entity key types of the era `version` falls in (`eraOf`): what the check of one export
 * hands the SNBT reader wherever it reads that export's entity data.
 */
export function keyTypesOf(version: unknown): KeyTypes {
  const name = eraOf(version)
  const era = ERAS.find((candidate) => candidate.name === name)!
  era.types ??= new TypeSet(era.overrides)
  return era.types.keyTypes
}
