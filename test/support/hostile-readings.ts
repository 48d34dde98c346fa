/**
 * What the game reads from an export, beside what each public plugin's reader hands it
 * (test/support/plugin-readers.ts): the oracle of the hostile generator's test. An export reads
 * the same when, in Minecraft 1.21.4 and in 1.21.5 and later (whose SNBT decodes `\x73`,
 * `\u0073`, `\U00000073`, `\N{...}` and `\b \s \t \n \f \r` in quoted strings), every reader
 * summons exactly the entities the game summons from its passenger strings, and what the game
 * reads is a display model: display entities (an interaction for a hitbox), and no text of the
 * kinds that read the world (`selector`, `nbt`, `score`) in any text, item name or lore, in
 * passengers, frames or hitboxes.
 *
 * Its SNBT parser is its own, written from the game's grammar, not the check's: two readings
 * that share a parser share its mistakes.
 */
import { passengerStrings, sansCraft, superBlocksDisplays } from './plugin-readers'

/** The game versions whose SNBT differs: 1.21.4's quoted strings, and 1.21.5's escapes. */
export const GAME_VERSIONS = ['1.21.4', '1.21.5'] as const
export type GameVersion = (typeof GAME_VERSIONS)[number]

type Value =
  | { k: 'compound'; members: Array<[string, Value]> }
  | { k: 'list'; items: Value[] }
  | { k: 'string'; v: string }
  | { k: 'word'; v: string }
  | { k: 'array'; items: string[] }

type Compound = Value & { k: 'compound' }

class NotSnbt extends Error {}

/** Unicode names `\N{...}` may spell in the generator's cases; others do not parse. */
const NAMED: Record<string, string> = {
  'LEFT CURLY BRACKET': '{',
  'RIGHT CURLY BRACKET': '}',
  COLON: ':',
  'QUOTATION MARK': '"',
  COMMA: ',',
  'LEFT SQUARE BRACKET': '[',
  'RIGHT SQUARE BRACKET': ']',
  'LOW LINE': '_',
}
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
  NAMED[`LATIN CAPITAL LETTER ${c}`] = c
  NAMED[`LATIN SMALL LETTER ${c}`] = c.toLowerCase()
}
const SIMPLE_ESCAPES: Record<string, string> = {
  b: '\b',
  s: ' ',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
}
/** The game's own bound on SNBT nesting. */
const MAX_DEPTH = 512

class Parser {
  at = 0
  constructor(
    private readonly text: string,
    private readonly version: GameVersion,
  ) {}

  fail(): never {
    throw new NotSnbt()
  }
  spaces() {
    while (this.text[this.at] === ' ') this.at++
  }
  expect(c: string) {
    if (this.text[this.at] !== c) this.fail()
    this.at++
  }
  value(depth: number): Value {
    if (depth > MAX_DEPTH) this.fail()
    const c = this.text[this.at]
    if (c === '{') return this.compound(depth)
    if (c === '[') return this.list(depth)
    if (c === '"' || c === "'") return { k: 'string', v: this.quoted() }
    return { k: 'word', v: this.word() }
  }
  compound(depth: number): Compound {
    this.expect('{')
    const members: Array<[string, Value]> = []
    for (;;) {
      this.spaces()
      const c = this.text[this.at]
      if (c === '}') break
      if (c !== ',') {
        const name = c === '"' || c === "'" ? this.quoted() : this.word()
        this.spaces()
        this.expect(':')
        this.spaces()
        members.push([name, this.value(depth + 1)])
        this.spaces()
        if (this.text[this.at] === '}') break
      }
      this.expect(',')
    }
    this.at++
    return { k: 'compound', members }
  }
  list(depth: number): Value {
    this.expect('[')
    const typed = this.text[this.at + 1] === ';' && 'BIL'.includes(this.text[this.at] ?? '')
    if (typed) this.at += 2
    const items: Value[] = []
    this.spaces()
    if (this.text[this.at] === ']') {
      this.at++
    } else {
      for (;;) {
        this.spaces()
        items.push(typed ? { k: 'word', v: this.word() } : this.value(depth + 1))
        this.spaces()
        if (this.text[this.at] === ']') {
          this.at++
          break
        }
        this.expect(',')
      }
    }
    if (typed) return { k: 'array', items: items.map((item) => (item as { v: string }).v) }
    return { k: 'list', items }
  }
  word(): string {
    const start = this.at
    while (/[0-9A-Za-z_\-.+]/.test(this.text[this.at] ?? '')) this.at++
    if (this.at === start) this.fail()
    return this.text.slice(start, this.at)
  }
  quoted(): string {
    const text = this.text
    const quote = text[this.at]!
    let out = ''
    for (let i = this.at + 1; i < text.length; i++) {
      const c = text[i]!
      if (c === quote) {
        this.at = i + 1
        return out
      }
      if (c !== '\\') {
        out += c
        continue
      }
      const e = text[++i]
      if (e === undefined) this.fail()
      if (e === '\\' || e === quote || (this.version === '1.21.5' && (e === '"' || e === "'"))) {
        out += e
      } else if (this.version === '1.21.4') {
        // Brigadier's StringReader: only the quote and the backslash may be escaped.
        this.fail()
      } else if (SIMPLE_ESCAPES[e] !== undefined) {
        out += SIMPLE_ESCAPES[e]
      } else if (e === 'x' || e === 'u' || e === 'U') {
        const width = e === 'x' ? 2 : e === 'u' ? 4 : 8
        const digits = text.slice(i + 1, i + 1 + width)
        if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(digits)) this.fail()
        const code = parseInt(digits, 16)
        if (code > 0x10ffff) this.fail()
        out += String.fromCodePoint(code)
        i += width
      } else if (e === 'N' && text[i + 1] === '{') {
        const close = text.indexOf('}', i + 2)
        const char = close < 0 ? undefined : NAMED[text.slice(i + 2, close)]
        if (char === undefined) this.fail()
        out += char
        i = close
      } else {
        this.fail()
      }
    }
    return this.fail()
  }
}

/** `text` read whole as one compound, or null when the game would not parse it. */
function parseCompound(text: string, version: GameVersion): Compound | null {
  try {
    const parser = new Parser(text.trim(), version)
    const value = parser.compound(0)
    parser.spaces()
    return parser.at === text.trim().length ? value : null
  } catch (error) {
    if (error instanceof NotSnbt) return null
    throw error
  }
}

/** A passenger string as the game reads it inside `Passengers:[...]`: its compounds, or null. */
function parsePassengerList(text: string, version: GameVersion): Compound[] | null {
  try {
    const parser = new Parser(text, version)
    const list: Compound[] = []
    parser.spaces()
    if (parser.at >= text.length) return list
    for (;;) {
      list.push(parser.compound(0))
      parser.spaces()
      if (parser.at >= text.length) return list
      parser.expect(',')
      parser.spaces()
    }
  } catch (error) {
    if (error instanceof NotSnbt) return null
    throw error
  }
}

/** The value of the last member named `name` (the game keeps the last of repeated keys). */
function member(compound: Compound, name: string): Value | undefined {
  let found: Value | undefined
  for (const [key, value] of compound.members) if (key === name) found = value
  return found
}

/** A value written one way only: members sorted, the last of repeated ones kept. */
function canonical(value: Value, drop: readonly string[] = []): string {
  switch (value.k) {
    case 'compound': {
      const kept = new Map<string, Value>()
      for (const [key, inner] of value.members) if (!drop.includes(key)) kept.set(key, inner)
      const keys = [...kept.keys()].sort()
      return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(kept.get(key)!)}`).join(',')}}`
    }
    case 'list':
      return `[${value.items.map((item) => canonical(item)).join(',')}]`
    case 'array':
      return `[;${value.items.join(',')}]`
    case 'string':
      return JSON.stringify(value.v)
    case 'word':
      return value.v
  }
}

/** An entity as summoned: its type (without `minecraft:`) and its data. */
interface Summoned {
  type: string
  data: string
}

const NAMESPACE = 'minecraft:'
function typeOf(compound: Compound): string {
  const id = member(compound, 'id')
  if (id === undefined || (id.k !== 'string' && id.k !== 'word')) return '(no id)'
  return id.v.startsWith(NAMESPACE) ? id.v.slice(NAMESPACE.length) : id.v
}

function childrenOf(compound: Compound): Compound[] {
  const passengers = member(compound, 'Passengers')
  if (passengers?.k !== 'list') return []
  return passengers.items.filter((item): item is Compound => item.k === 'compound')
}

/** Every entity of a tree, in the order sanscraft lists them (each, then its passengers). */
function flatten(compound: Compound, out: Compound[] = []): Compound[] {
  out.push(compound)
  for (const child of childrenOf(compound)) flatten(child, out)
  return out
}

const UNPARSED = '(does not parse)'

function summonedFlat(compound: Compound | null, type: string): Summoned {
  if (compound === null) return { type, data: UNPARSED }
  return { type, data: canonical(compound, ['id', 'Passengers']) }
}

const DISPLAY_TYPES = new Set(['block_display', 'item_display', 'text_display'])
const WORLD_READING = new Set(['selector', 'nbt', 'score'])
const TEXT_KEYS = new Set(['text', 'CustomName'])
const ITEM_TEXT_KEYS = new Set(['custom_name', 'item_name', 'lore', 'Name', 'Lore'])

/** The world-reading kinds a text value holds, as the game reads a text: JSON or SNBT. */
function worldReadingIn(value: Value, found: Set<string>): void {
  if (value.k === 'list') for (const item of value.items) worldReadingIn(item, found)
  else if (value.k === 'compound') {
    for (const [key, inner] of value.members) {
      if (WORLD_READING.has(key)) found.add(key)
      worldReadingIn(inner, found)
    }
  } else if (value.k === 'string') {
    try {
      collectJson(JSON.parse(value.v), found)
    } catch {
      // Not JSON: plain text.
    }
  }
}

function collectJson(value: unknown, found: Set<string>): void {
  if (typeof value !== 'object' || value === null) return
  for (const [key, inner] of Object.entries(value)) {
    if (WORLD_READING.has(key)) found.add(key)
    collectJson(inner, found)
  }
}

function itemTexts(value: Value, found: Set<string>): void {
  if (value.k === 'list') for (const item of value.items) itemTexts(item, found)
  if (value.k !== 'compound') return
  for (const [key, inner] of value.members) {
    const bare = key.startsWith(NAMESPACE) ? key.slice(NAMESPACE.length) : key
    if (ITEM_TEXT_KEYS.has(bare)) worldReadingIn(inner, found)
    else itemTexts(inner, found)
  }
}

/** The world-reading text kinds an entity's own data holds (its texts and its item's). */
function worldReadingOf(compound: Compound): string[] {
  const found = new Set<string>()
  for (const [key, value] of compound.members) {
    if (TEXT_KEYS.has(key)) worldReadingIn(value, found)
    else if (key === 'item') itemTexts(value, found)
  }
  return [...found]
}

/** Why an export does not read the same, or null when it does. */
export type Disagreement = string | null

/**
 * Whether `json` (an export, published or fetched) reads the same under every reader as in the
 * game, in every game version, and what the game reads is a display model: null, or why not.
 */
export function readingDifference(json: string): Disagreement {
  const content = (JSON.parse(json) as { content?: Record<string, unknown> }).content ?? {}
  for (const version of GAME_VERSIONS) {
    for (const passengers of passengerStrings(json)) {
      const why = passengerDifference(passengers, version)
      if (why !== null) return `${version}: ${why}`
    }
    for (const command of frameCommands(content)) {
      const why = commandDifference(command, version, 'frame')
      if (why !== null) return `${version}: ${why}`
    }
    for (const command of stringsOf(content.hitbox)) {
      const why = commandDifference(command, version, 'hitbox')
      if (why !== null) return `${version}: ${why}`
    }
  }
  return null
}

function passengerDifference(passengers: string, version: GameVersion): Disagreement {
  const game = parsePassengerList(passengers, version)
  const top = game ?? []
  // SuperBlocksDisplays: each piece summoned by itself, its nested passengers with it.
  const pieces = superBlocksDisplays(passengers)
  if (pieces.length !== top.length) {
    return `SuperBlocksDisplays summons ${pieces.length} entities where the game summons ${top.length}`
  }
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!
    const read = parseCompound(piece.compound, version)
    const gameType = typeOf(top[i]!)
    const typeAgrees =
      piece.type === gameType || (piece.type === 'item_display' && DISPLAY_TYPES.has(gameType))
    if (!typeAgrees || read === null || canonical(read, ['id']) !== canonical(top[i]!, ['id'])) {
      return `SuperBlocksDisplays summons ${piece.type} ${read === null ? UNPARSED : ''}where the game summons ${gameType}`
    }
  }
  // sanscraft-bde: every entity of the tree, each by itself.
  const flat = top.flatMap((compound) => flatten(compound))
  const gameFlat = flat.map((compound) => summonedFlat(compound, typeOf(compound)))
  const sans = sansCraft(passengers).map(({ compound }) => {
    const read = parseCompound(compound, version)
    return summonedFlat(read, read === null ? '(unknown)' : typeOf(read))
  })
  if (game !== null && sans.length !== gameFlat.length) {
    return `sanscraft-bde summons ${sans.length} entities where the game summons ${gameFlat.length}`
  }
  if (game === null && sans.some((entity) => entity.data !== UNPARSED)) {
    return 'sanscraft-bde summons entities from a string the game does not parse'
  }
  for (let i = 0; game !== null && i < sans.length; i++) {
    if (sans[i]!.type !== gameFlat[i]!.type || sans[i]!.data !== gameFlat[i]!.data) {
      return `sanscraft-bde summons ${sans[i]!.type} where the game summons ${gameFlat[i]!.type}`
    }
  }
  // What the game reads: display entities with no world-reading text.
  for (const compound of flat) {
    const type = typeOf(compound)
    if (!DISPLAY_TYPES.has(type)) return `the game summons ${type}`
    const reading = worldReadingOf(compound)
    if (reading.length > 0) return `the game reads ${reading.join(', ')} text`
  }
  return null
}

/**
 * A command, dispatched whole by every reader (SuperBlocksDisplays gives a hitbox's first `{`
 * a UUID): what the game reads from its compound.
 */
function commandDifference(
  command: string,
  version: GameVersion,
  place: 'frame' | 'hitbox',
): Disagreement {
  const brace = command.indexOf('{')
  if (brace < 0) return null
  const compound = parseCompound(command.slice(brace), version)
  if (compound === null) return null
  const entities = place === 'hitbox' ? flatten(compound) : [compound]
  for (const [i, entity] of entities.entries()) {
    if (place === 'hitbox' && i > 0 && !DISPLAY_TYPES.has(typeOf(entity))) {
      return `a hitbox summons ${typeOf(entity)}`
    }
    const reading = worldReadingOf(entity)
    if (reading.length > 0) return `a ${place} command reads ${reading.join(', ')} text`
  }
  return null
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : []
}

function frameCommands(content: Record<string, unknown>): string[] {
  const out = stringsOf(content.commands)
  const datapack = content.datapack as Record<string, unknown> | undefined
  for (const name of ['anim_keyframes', 'sound_keyframes']) {
    const animations = datapack?.[name]
    if (typeof animations !== 'object' || animations === null) continue
    for (const frames of Object.values(animations)) {
      if (typeof frames !== 'object' || frames === null) continue
      for (const commands of Object.values(frames)) out.push(...stringsOf(commands))
    }
  }
  return out
}
