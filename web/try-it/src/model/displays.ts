/**
 * The display entities of an export: `content.passengers` holds SNBT strings, each a
 * comma-separated run of entity compounds (or one list of them), whose `Passengers` may nest
 * further entities. Every block, item and text display becomes one Display with its matrix.
 * A passenger rides at its vehicle's position and its transformation is relative to that same
 * point, so matrices are not composed along the nesting: each is the display's own.
 */
import { IDENTITY, readMatrix, type Matrix } from './matrix'
import { isCompound, readSnbt, type SnbtCompound, type SnbtValue } from './snbt'
import { nameOf, noProblems, noteProblem, type Problems } from './problems'
import { plainText } from './text-component'

export type DisplayKind = 'block' | 'item' | 'text'

/** One display entity, as the preview draws it. */
export interface Display {
  kind: DisplayKind
  /** The block or item id (`minecraft:stone_bricks`); null for text displays. */
  name: string | null
  /** Block state properties (`type: "top"` of a slab); empty for items and text. */
  properties: Record<string, string>
  /** The plain text of a text display; null for the others. */
  text: string | null
  /** The text's colour as `#rrggbb`, when it has one. */
  textColor: string | null
  tags: string[]
  matrix: Matrix
  /** The index of the display it rides (directly or through other entities), or null. */
  parent: number | null
}

/** The displays of an export, or why there are none to draw. */
export type ModelReading =
  | { ok: true; displays: Display[]; problems: Problems }
  | { ok: false; reason: 'no_passengers' | 'unreadable' | 'no_displays'; message: string }

const KINDS: Record<string, DisplayKind> = {
  'minecraft:block_display': 'block',
  'minecraft:item_display': 'item',
  'minecraft:text_display': 'text',
}

/** Reads the displays out of an export's `content`. Never throws. */
export function readDisplays(content: unknown): ModelReading {
  const passengers = (content as { passengers?: unknown } | null)?.passengers
  const texts =
    typeof passengers === 'string'
      ? [passengers]
      : Array.isArray(passengers)
        ? passengers.filter((p): p is string => typeof p === 'string')
        : []
  if (texts.length === 0) {
    return {
      ok: false,
      reason: 'no_passengers',
      message: 'This export has no passengers: there is no model to draw.',
    }
  }
  const displays: Display[] = []
  const problems = noProblems()
  for (const [i, text] of texts.entries()) {
    const reading = readSnbt(text.trimStart().startsWith('[') ? text : `[${text}]`)
    if (!reading.ok) {
      return {
        ok: false,
        reason: 'unreadable',
        message: `Passenger string ${i} is not readable SNBT: ${reading.message}.`,
      }
    }
    const entities = Array.isArray(reading.value) ? reading.value : [reading.value]
    for (const entity of entities) collect(entity, null, displays, problems)
  }
  if (displays.length === 0) {
    return {
      ok: false,
      reason: 'no_displays',
      message: 'The passengers hold no block, item or text displays: there is nothing to draw.',
    }
  }
  return { ok: true, displays, problems }
}

function collect(
  entity: SnbtValue,
  parent: number | null,
  displays: Display[],
  problems: Problems,
): void {
  if (!isCompound(entity)) return
  let self = parent
  const kind = KINDS[String(entity['id'])]
  if (kind !== undefined) {
    self = displays.length
    displays.push(display(kind, entity, parent, self, problems))
  }
  const riders = entity['Passengers']
  // No limit of its own: the reader stops nesting where the check does (`SNBT_MAX_DEPTH`).
  if (!Array.isArray(riders)) return
  for (const rider of riders) collect(rider, self, displays, problems)
}

function display(
  kind: DisplayKind,
  entity: SnbtCompound,
  parent: number | null,
  index: number,
  problems: Problems,
): Display {
  const tags = Array.isArray(entity['Tags'])
    ? entity['Tags'].filter((t): t is string => typeof t === 'string')
    : []
  let matrix = readMatrix(entity['transformation'])
  if (typeof matrix === 'string') {
    if (entity['transformation'] !== undefined) {
      noteProblem(
        problems,
        `Display ${index} (${nameOf(tags[0] ?? 'untagged')}) has ${matrix}; drawn untransformed.`,
      )
    }
    matrix = IDENTITY
  }
  const block = entity['block_state']
  const item = entity['item']
  const text = kind === 'text' ? plainText(entity['text']) : null
  return {
    kind,
    name:
      kind === 'block' && isCompound(block)
        ? stringOr(block['Name'], 'minecraft:air')
        : kind === 'item' && isCompound(item)
          ? stringOr(item['id'], 'minecraft:air')
          : kind === 'text'
            ? null
            : 'minecraft:air',
    properties: kind === 'block' && isCompound(block) ? stringsOf(block['Properties']) : {},
    text: text?.text ?? null,
    textColor: text?.color ?? null,
    tags,
    matrix,
    parent,
  }
}

function stringOr(value: SnbtValue | undefined, fallback: string): string {
  return typeof value === 'string' ? value : fallback
}

function stringsOf(value: SnbtValue | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!isCompound(value)) return out
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string' || typeof v === 'number') out[key] = String(v)
  }
  return out
}
