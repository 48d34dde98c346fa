/**
 * Hostile exports for the display-model check: real display models taken
 * from the fixtures, each with one hostile insertion at one value position the vocabulary
 * allows (an entity's key, an item component, a text, a `data merge` compound, a hitbox summon,
 * `Tags`, a selector), of one kind:
 * - `split`: a list of compounds opening with `{id:"minecraft:`, the middle one an entity that is
 *   no display (what SuperBlocksDisplays' quote-blind split summons);
 * - `json-id`: compounds opening with `{"id":`;
 * - `passengers`: `Passengers:[` / `passengers:[` inside a value (what sanscraft-bde's text search
 *   finds first);
 * - `escape`: names, ids, keys and text spelled with the 1.21.5+ SNBT escapes (`\x73`, `\u0073`,
 *   `\U00000073`, `\N{LATIN SMALL LETTER S}`, `\b \s \t \n \f \r`);
 * - `placeholder`: strings that read as a reader's marker once a tag such as `id` or `Passengers`
 *   replaces `[MODELSERVERTAG]` (`fetchTags` names those tags);
 * - `wrong-type`: a value of another type than the game reads there.
 * The structural kinds come in plain SNBT and inside quoted strings (`form`).
 *
 * Pure and seeded (its own PRNG): the same seed gives the same cases in vitest, in workerd and in
 * a Node script (Node 22 strips the types; no import but the vocabulary). The fixtures are
 * passed in as text, so that each caller reads them its own way.
 */
import vocabulary from '../../src/export-safety/types/vocabulary.json' with { type: 'json' }

export const PLACEHOLDER = '[MODELSERVERTAG]'

export const HOSTILE_KINDS = [
  'split',
  'json-id',
  'passengers',
  'escape',
  'placeholder',
  'wrong-type',
] as const
export type HostileKind = (typeof HOSTILE_KINDS)[number]

/** Where the insertion sits: the command or compound that holds it. */
export type HostilePlace = 'passenger' | 'nested-passenger' | 'frame' | 'hitbox' | 'selector'

/** One hostile export and what was put where. */
export interface HostileCase {
  /** `seed/index`: the same on every run and every machine. */
  id: string
  kind: HostileKind
  /** Written as plain SNBT, or inside a quoted string (or a quoted member name). */
  form: 'plain' | 'quoted'
  place: HostilePlace
  /** The value position, e.g. `item_display.item.components.minecraft:container`, `block_display.transformation`. */
  position: string
  /** The SNBT (or selector text) written at that position. */
  insertion: string
  /** Tags whose fetched form completes the insertion (the `placeholder` kind; else empty). */
  fetchTags: string[]
  /** The fixture the model was taken from. */
  fixture: string
  /** The export, as published (JSON text). */
  json: string
}

/** What `hostileExports` needs: a seed, how many cases, the fixtures' published texts by name. */
export interface HostileOptions {
  seed: number
  count: number
  fixtures: Record<string, string>
}

/** A benign display model built from a fixture: the base of every hostile case. */
export interface DisplayModel {
  fixture: string
  /** Top-level passenger compounds (SNBT), tags renumbered `[MODELSERVERTAG]_<i>`. */
  parts: Part[]
  /** Frame name → commands. */
  frames: Record<string, string[]>
  sounds: Record<string, string[]> | null
  hitbox: string | null
  meta: unknown
  /** `content.version`: the game version the export declares (1.21.4 when absent). */
  version?: string
}

interface Part {
  type: string
  snbt: string
}

export type Rng = () => number

/** Mulberry32: a small seeded PRNG, the same in every runtime. */
export function prng(seed: number): Rng {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!

// ---------------------------------------------------------------------------------------------
// Reading the fixtures' parts (quote-aware, bracket-counting: enough for the editor's own SNBT).

/** The top-level comma-separated items of `text` (compounds of a passenger string, members). */
function splitTopLevel(text: string, from = 0, to = text.length): Array<[number, number]> {
  const items: Array<[number, number]> = []
  let depth = 0
  let start = from
  let quote = ''
  for (let i = from; i < to; i++) {
    const c = text[i]!
    if (quote !== '') {
      if (c === '\\') i++
      else if (c === quote) quote = ''
    } else if (c === '"' || c === "'") quote = c
    else if (c === '{' || c === '[') depth++
    else if (c === '}' || c === ']') depth--
    else if (c === ',' && depth === 0) {
      items.push([start, i])
      start = i + 1
    }
  }
  items.push([start, to])
  return items.filter(([a, b]) => text.slice(a, b).trim() !== '')
}

/** The top-level members of the compound `snbt` (`{...}`): name (unquoted) and value span. */
function members(
  snbt: string,
): Array<{ name: string; start: number; valueStart: number; end: number }> {
  const found = []
  for (const [start, end] of splitTopLevel(snbt, 1, snbt.length - 1)) {
    const raw = snbt.slice(start, end)
    const lead = raw.length - raw.trimStart().length
    let colon: number
    let name: string
    const first = raw[lead]
    if (first === '"' || first === "'") {
      let i = lead + 1
      while (raw[i] !== first) i += raw[i] === '\\' ? 2 : 1
      name = raw.slice(lead + 1, i)
      colon = raw.indexOf(':', i)
    } else {
      colon = raw.indexOf(':')
      name = raw.slice(lead, colon).trim()
    }
    let valueStart = start + colon + 1
    while (snbt[valueStart] === ' ') valueStart++
    found.push({ name, start, valueStart, end })
  }
  return found
}

function getMember(snbt: string, name: string): string | null {
  const member = members(snbt).find((m) => m.name === name)
  return member === undefined ? null : snbt.slice(member.valueStart, member.end).trim()
}

/** A member name as SNBT writes it: unquoted when it is a plain word. */
function memberName(name: string): string {
  return /^[0-9A-Za-z_\-.+]+$/.test(name) ? name : JSON.stringify(name)
}

/**
 * `snbt` with member `name` set to `value` (written as is): replaced where it stands, or added
 * after the first member (an entity's `id`), as the editor writes its keys after the id.
 */
function setMember(snbt: string, name: string, value: string, spelled = memberName(name)): string {
  const list = members(snbt)
  const existing = list.find((m) => m.name === name)
  if (existing !== undefined) {
    return snbt.slice(0, existing.start) + `${spelled}:${value}` + snbt.slice(existing.end)
  }
  if (list.length === 0) return `{${spelled}:${value}}`
  const at = list[0]!.end
  return `${snbt.slice(0, at)},${spelled}:${value}${snbt.slice(at)}`
}

/** `snbt` with the compound at `path` (created where missing) holding `name: value`. */
function setPath(snbt: string, path: readonly string[], value: string, spelled?: string): string {
  if (path.length === 1) return setMember(snbt, path[0]!, value, spelled)
  const inner = getMember(snbt, path[0]!)
  const child = inner !== null && inner.startsWith('{') ? inner : '{}'
  return setMember(snbt, path[0]!, setPath(child, path.slice(1), value, spelled))
}

function typeOf(snbt: string): string {
  return /^\{id:"minecraft:([a-z_]+)"/.exec(snbt)?.[1] ?? 'item_display'
}

export interface FixtureParts {
  name: string
  parts: Part[]
  /** Commands of the fixture's frames, by the index of the part they target. */
  commandsByPart: Map<number, string[]>
  sounds: string[]
  meta: unknown
}

/** What a fixture's `content` holds that the models are built from. */
interface FixtureContent {
  passengers: string[]
  datapack?: { anim_keyframes?: Keyframes; sound_keyframes?: Keyframes }
  meta?: unknown
}
type Keyframes = Record<string, Record<string, string[]>>

export function readFixture(name: string, text: string): FixtureParts {
  const content = (JSON.parse(text) as { content: FixtureContent }).content
  const passengers = content.passengers.join(',')
  const parts = splitTopLevel(passengers).map(([a, b]) => {
    const snbt = passengers.slice(a, b).trim()
    return { type: typeOf(snbt), snbt }
  })
  const commandsByPart = new Map<number, string[]>()
  const sounds: string[] = []
  const keyframes = content.datapack?.anim_keyframes ?? {}
  for (const frames of Object.values(keyframes)) {
    for (const commands of Object.values(frames)) {
      for (const command of commands) {
        const index = /tag=\[MODELSERVERTAG\]_(\d+)[,\]]/.exec(command)
        if (index === null) continue
        const list = commandsByPart.get(Number(index[1])) ?? []
        if (list.length < 4) list.push(command)
        commandsByPart.set(Number(index[1]), list)
      }
    }
  }
  for (const frames of Object.values(content.datapack?.sound_keyframes ?? {})) {
    for (const commands of Object.values(frames)) sounds.push(...commands)
  }
  return { name, parts, commandsByPart, sounds, meta: content.meta ?? {} }
}

const TAG_OF = /\[MODELSERVERTAG\]_\d+/g

/** A plausible model: a few consecutive parts of one fixture, their frames, maybe a hitbox. */
export function buildModel(rng: Rng, fixture: FixtureParts, mustHave: string | null): DisplayModel {
  const n = 1 + Math.floor(rng() * 4)
  const candidates = fixture.parts
    .map((part, index) => ({ part, index }))
    .filter(({ part }) => mustHave === null || part.type === mustHave)
  const first = pick(rng, candidates).index
  const chosen: number[] = [first]
  for (let i = first + 1; i < fixture.parts.length && chosen.length < n; i++) chosen.push(i)
  const parts = chosen.map((original, i) => ({
    type: fixture.parts[original]!.type,
    snbt: fixture.parts[original]!.snbt.replace(TAG_OF, `${PLACEHOLDER}_${i}`),
  }))
  const frames: Record<string, string[]> = {}
  chosen.forEach((original, i) => {
    const commands = fixture.commandsByPart.get(original) ?? []
    commands.forEach((command, frame) => {
      ;(frames[String(frame * 2)] ??= []).push(command.replace(TAG_OF, `${PLACEHOLDER}_${i}`))
    })
  })
  const sounds =
    fixture.sounds.length > 0 && rng() < 0.5 ? { '4': [pick(rng, fixture.sounds)] } : null
  const hitbox =
    rng() < 0.3
      ? `summon minecraft:interaction ~ ~ ~ {width:1.5f,height:2f,response:1b,Tags:["${PLACEHOLDER}_hitbox"]}`
      : null
  return { fixture: fixture.name, parts, frames, sounds, hitbox, meta: fixture.meta }
}

/** The export of `model`, published form, as the editor writes it (compact, keys sorted). */
export function exportText(model: DisplayModel): string {
  const datapack: Record<string, unknown> = { anim_keyframes: { default: model.frames } }
  if (model.sounds !== null) datapack.sound_keyframes = { default: model.sounds }
  const content: Record<string, unknown> = { datapack }
  if (model.hitbox !== null) content.hitbox = [model.hitbox]
  content.meta = model.meta
  content.passengers = [model.parts.map((part) => part.snbt).join(',')]
  content.project_id = 'hostile'
  content.type = 'full'
  content.version = model.version ?? '1.21.4'
  return JSON.stringify({ content })
}

// ---------------------------------------------------------------------------------------------
// Positions: every value the vocabulary allows.

type EntityVocabulary = { place: string; keys: string[] | Record<string, unknown> }
const ENTITIES = vocabulary.entities as unknown as Record<string, EntityVocabulary>
/** Keys of an entity in the vocabulary (a list today; an object of typed keys tomorrow). */
const keysOf = (entity: EntityVocabulary): string[] =>
  Array.isArray(entity.keys) ? entity.keys : Object.keys(entity.keys)

const PASSENGER_TYPES = Object.keys(ENTITIES).filter((t) => ENTITIES[t]!.place === 'passenger')
const HITBOX_TYPE = Object.keys(ENTITIES).find((t) => ENTITIES[t]!.place === 'hitbox')!

/** Item components that real models carry, and those that hold entities, items or data. */
const COMPONENTS = [
  'minecraft:profile',
  'minecraft:item_model',
  'minecraft:custom_model_data',
  'minecraft:dyed_color',
  'minecraft:custom_name',
  'minecraft:item_name',
  'minecraft:lore',
  'minecraft:custom_data',
  'minecraft:bundle_contents',
  'minecraft:container',
  'minecraft:charged_projectiles',
  'minecraft:entity_data',
  'minecraft:block_entity_data',
]
const TEXT_PATHS = new Set(['text', 'CustomName', 'custom_name', 'item_name', 'lore'])
/** Keys whose value the game reads as a string (an id, a name, an enum word, a tag). */
const STRING_KEYS = new Set([
  'Tags',
  'Name',
  'facing',
  'id',
  'billboard',
  'item_display',
  'alignment',
  'minecraft:item_model',
  // A player's name is a profile too.
  'minecraft:profile',
])

export interface Position {
  place: HostilePlace
  type: string
  /** Keys from the entity's (or command's) compound down to the value. */
  path: string[]
}

function positions(): Position[] {
  const list: Position[] = []
  for (const type of PASSENGER_TYPES) {
    const paths = keysOf(ENTITIES[type]!).map((key) => [key])
    if (paths.some((p) => p[0] === 'item')) {
      paths.push(['item', 'id'], ['item', 'count'], ['item', 'Count'])
      for (const component of COMPONENTS) paths.push(['item', 'components', component])
    }
    if (paths.some((p) => p[0] === 'block_state')) {
      paths.push(['block_state', 'Name'], ['block_state', 'Properties', 'facing'])
    }
    for (const path of paths) {
      list.push(
        { place: 'passenger', type, path },
        { place: 'nested-passenger', type, path },
        { place: 'frame', type, path },
      )
    }
    list.push({ place: 'passenger', type, path: ['id'] })
  }
  for (const key of keysOf(ENTITIES[HITBOX_TYPE]!)) {
    list.push({ place: 'hitbox', type: HITBOX_TYPE, path: [key] })
  }
  for (const type of PASSENGER_TYPES) list.push({ place: 'selector', type, path: ['tag'] })
  return list
}

// ---------------------------------------------------------------------------------------------
// Insertions.

/** Entities a reader must never summon: what the middle piece of a split would be. */
const HOSTILE_ENTITIES = [
  '{id:"minecraft:tnt",fuse:0}',
  '{id:"minecraft:falling_block",BlockState:{Name:"minecraft:command_block"},TileEntityData:{Command:"op @a",auto:1b},Time:1}',
  '{id:"minecraft:command_block_minecart",Command:"op @a"}',
]
/** The same entities with `id` not first: no marker a reader looks for in the published form. */
const HOSTILE_ID_LAST = [
  '{fuse:0,id:"minecraft:tnt"}',
  '{Command:"op @a",id:"minecraft:command_block_minecart"}',
]
/** Plausible compounds around the hostile one: items as a bundle or container holds them. */
const NEIGHBOURS = [
  '{id:"minecraft:stone",count:1}',
  '{id:"minecraft:a"}',
  '{id:"minecraft:oak_planks"}',
]

const ESCAPE_NAMES: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyz'].flatMap((c) => [
    [c, `LATIN SMALL LETTER ${c.toUpperCase()}`],
    [c.toUpperCase(), `LATIN CAPITAL LETTER ${c.toUpperCase()}`],
  ]),
)
Object.assign(ESCAPE_NAMES, {
  '{': 'LEFT CURLY BRACKET',
  '}': 'RIGHT CURLY BRACKET',
  ':': 'COLON',
  '"': 'QUOTATION MARK',
  ',': 'COMMA',
  '[': 'LEFT SQUARE BRACKET',
  ']': 'RIGHT SQUARE BRACKET',
  _: 'LOW LINE',
})

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0')

/** `char` as one of the 1.21.5+ SNBT escapes, chosen by `rng`. */
function escapeOf(rng: Rng, char: string): string {
  const code = char.codePointAt(0)!
  const ways = [`\\x${hex(code, 2)}`, `\\u${hex(code, 4)}`, `\\U${hex(code, 8)}`]
  if (ESCAPE_NAMES[char] !== undefined) ways.push(`\\N{${ESCAPE_NAMES[char]}}`)
  return pick(rng, ways)
}

/** `text` with one of its letters (or, with `all`, every one of them) escaped. */
function escapeSome(rng: Rng, text: string, all = false): string {
  const letters = [...text]
    .map((c, i) => (/[A-Za-z{}:",[\]]/.test(c) ? i : -1))
    .filter((i) => i >= 0)
  const chosen = all ? new Set(letters) : new Set([pick(rng, letters)])
  return [...text].map((c, i) => (chosen.has(i) ? escapeOf(rng, c) : c)).join('')
}

/** One whitespace or control escape (`\b \s \t \n \f \r`). */
const WHITESPACE_ESCAPES = ['\\b', '\\s', '\\t', '\\n', '\\f', '\\r']

export interface Insertion {
  form: 'plain' | 'quoted'
  /** The value written at the position (or, with `name`, the member name too). */
  value: string
  /** A member name spelled as written (escaped), in place of the position's own. */
  name?: string
  /** Replaces the whole entity id (`escape` of an id). */
  id?: string
  fetchTags?: string[]
}

function insertion(rng: Rng, kind: HostileKind, position: Position): Insertion {
  const hostile = pick(rng, HOSTILE_ENTITIES)
  const before = pick(rng, NEIGHBOURS)
  const after = pick(rng, NEIGHBOURS)
  const isText = position.path.some((key) => TEXT_PATHS.has(key.replace('minecraft:', '')))
  const key = position.path[position.path.length - 1]!
  switch (kind) {
    case 'split':
      return rng() < 0.5
        ? { form: 'plain', value: `[${before},${hostile},${after}]` }
        : { form: 'quoted', value: `'a},${hostile},${after.slice(0, -1)}'` }
    case 'json-id': {
      const json = hostile.replace('{id:', '{"id":')
      return pick(rng, [
        { form: 'plain', value: `[${before.replace('{id:', '{"id":')},${json}]` } as Insertion,
        { form: 'quoted', value: `'[{"text":"a"},${json.replace(/(\w+):(?!")/g, '"$1":')}]'` },
        { form: 'quoted', value: `'a},${json},{"id":"minecraft:b'` },
      ])
    }
    case 'passengers': {
      const list = pick(rng, ['Passengers', 'passengers'])
      return pick(rng, [
        { form: 'plain', value: `{a:1b,${list}:[${hostile}]}` } as Insertion,
        { form: 'plain', value: `[{${list}:[${pick(rng, HOSTILE_ID_LAST)}]}]` },
        { form: 'quoted', value: `'${list}:[${pick(rng, HOSTILE_ID_LAST)}]'` },
        { form: 'quoted', value: `"${list}:[${hostile.replaceAll('"', '\\"')}]"` },
      ])
    }
    case 'escape':
      return escapeInsertion(rng, position, isText, key, hostile)
    case 'placeholder': {
      const middle = pick(rng, ['fuse:0', 'Command:"op @a"'])
      return pick(rng, [
        {
          form: 'quoted',
          value: `'{a},{${PLACEHOLDER}:"minecraft:tnt"}'`,
          fetchTags: ['id'],
        } as Insertion,
        {
          form: 'quoted',
          value: `'a},{${PLACEHOLDER}:"minecraft:tnt",${middle}},{${PLACEHOLDER}:"minecraft:b'`,
          fetchTags: ['id'],
        },
        {
          form: 'quoted',
          value: `'${PLACEHOLDER}:[${pick(rng, HOSTILE_ID_LAST)}]'`,
          fetchTags: ['Passengers', 'passengers'],
        },
        {
          form: 'plain',
          value: `[{a:1b},{"${PLACEHOLDER}":"minecraft:tnt",fuse:0}]`,
          fetchTags: ['id'],
        },
        {
          form: 'plain',
          value: `{"${PLACEHOLDER}":[${pick(rng, HOSTILE_ID_LAST)}]}`,
          fetchTags: ['Passengers', 'passengers'],
        },
        {
          form: 'quoted',
          value: `'a},{id:"${PLACEHOLDER}:tnt",fuse:0},{id:"${PLACEHOLDER}:b'`,
          fetchTags: ['minecraft'],
        },
      ])
    }
    case 'wrong-type': {
      // A string is the right type where the game reads a string (a text, a tag, an id).
      const strings = STRING_KEYS.has(key) || isText
      return {
        form: 'plain',
        value: pick(rng, [
          '{a:1b}',
          '[{a:1b},{b:2b}]',
          '[I;1,2]',
          '[[0f,1f],[2f]]',
          '{translation:[{x:1}],scale:"big"}',
          '[L;1L]',
          ...(strings ? [] : ['"text"', '1.5e']),
        ]),
      }
    }
  }
}

function escapeInsertion(
  rng: Rng,
  position: Position,
  isText: boolean,
  key: string,
  hostile: string,
): Insertion {
  const kinds = ['selector', 'nbt', 'score'] as const
  const reading = pick(rng, kinds)
  const component =
    reading === 'selector'
      ? `"${escapeSome(rng, 'selector')}":"@a"`
      : reading === 'nbt'
        ? `"${escapeSome(rng, 'nbt')}":"Inventory",entity:"@a"`
        : `"${escapeSome(rng, 'score')}":{name:"@a",objective:"o"}`
  const choices: Insertion[] = [
    // The position's own key, one letter escaped.
    { form: 'quoted', name: `"${escapeSome(rng, key)}"`, value: '1b' },
    // A list key a reader or the game reads as passengers.
    {
      form: 'quoted',
      name: `"${escapeSome(rng, pick(rng, ['Passengers', 'passengers']))}"`,
      value: `[${hostile}]`,
    },
    // Structure spelled with escapes inside a string.
    { form: 'quoted', value: `"${escapeSome(rng, `a},${hostile},{id:"minecraft:b`, true)}"` },
    // A whitespace or control escape in a string.
    { form: 'quoted', value: `"a${pick(rng, WHITESPACE_ESCAPES)}b"` },
  ]
  if (isText) {
    choices.push(
      { form: 'plain', value: `{${component}}` },
      { form: 'quoted', value: `'{${component}}'` },
      { form: 'quoted', value: `'[{"text":"a${pick(rng, WHITESPACE_ESCAPES)}"}]'` },
    )
  }
  if (position.path[0] === 'item') {
    choices.push({
      form: 'quoted',
      value: `{"${escapeSome(rng, 'minecraft:custom_name')}":{${component}}}`,
    })
  }
  if (position.path[0] === 'id' || position.place === 'nested-passenger') {
    const id = pick(rng, [
      'minecraft:tnt',
      `minecraft:${position.type}`,
      'minecraft:command_block_minecart',
    ])
    choices.push({ form: 'quoted', value: '', id: `"${escapeSome(rng, id)}"` })
  }
  return pick(rng, choices)
}

// ---------------------------------------------------------------------------------------------
// Putting an insertion into a model.

function selectorOf(type: string, index: number): string {
  return `@e[type=${type},tag=${PLACEHOLDER}_${index},distance=..1,limit=1,sort=nearest]`
}

function withValue(compound: string, position: Position, put: Insertion): string {
  if (put.id !== undefined) return setMember(compound, 'id', put.id)
  const path = position.path
  if (path[0] === 'Tags' && put.name === undefined) {
    const tags = getMember(compound, 'Tags')
    const list = tags !== null && tags.startsWith('[') ? tags.slice(1, -1) + ',' : ''
    return setMember(compound, 'Tags', `[${list}${put.value}]`)
  }
  return setPath(compound, path, put.value, put.name)
}

export function place(rng: Rng, model: DisplayModel, position: Position, put: Insertion): string {
  const index = model.parts.findIndex((part) => part.type === position.type)
  switch (position.place) {
    case 'passenger': {
      const part = model.parts[index]!
      part.snbt = withValue(part.snbt, position, put)
      return position.path.join('.')
    }
    case 'nested-passenger': {
      const part = model.parts[index]!
      const nested = withValue(
        `{id:"minecraft:${position.type}",Tags:["${PLACEHOLDER}_${model.parts.length}"]}`,
        position,
        put,
      )
      part.snbt = setMember(part.snbt, 'Passengers', `[${nested}]`)
      return `Passengers.${position.path.join('.')}`
    }
    case 'frame': {
      const compound = withValue('{interpolation_duration:0}', position, put)
      const frame = String(1 + 2 * Math.floor(rng() * 3))
      ;(model.frames[frame] ??= []).push(
        `data merge entity ${selectorOf(position.type, index)} ${compound}`,
      )
      return position.path.join('.')
    }
    case 'hitbox': {
      const base = `{width:1.5f,height:2f,response:1b,Tags:["${PLACEHOLDER}_hitbox"]}`
      model.hitbox = `summon minecraft:interaction ~ ~ ~ ${withValue(base, position, put)}`
      return position.path.join('.')
    }
    case 'selector': {
      const selector = put.value
      ;(model.frames['1'] ??= []).push(
        `data merge entity ${selector} {transformation:[1f,0f,0f,0f,0f,1f,0f,0f,0f,0f,1f,0f,0f,0f,0f,1f]}`,
      )
      return 'tag'
    }
  }
}

/** The selector insertions: a tag where the placeholder is not where the editor puts it. */
function selectorInsertion(rng: Rng, kind: HostileKind, type: string, index: number): Insertion {
  const tag = pick(rng, [
    `x${PLACEHOLDER}_${index}`,
    `${PLACEHOLDER}${PLACEHOLDER}_${index}`,
    `${PLACEHOLDER}_${index}${PLACEHOLDER}`,
    `"${escapeSome(rng, `${PLACEHOLDER}_${index}`)}"`,
  ])
  return {
    form: kind === 'escape' ? 'quoted' : 'plain',
    value: `@e[type=${type},tag=${tag},limit=1]`,
    fetchTags: ['id', '-', '_'],
  }
}

// ---------------------------------------------------------------------------------------------

/** Benign display models built from the fixtures, seeded: each one publishable as it is. */
export function displayModels({ seed, count, fixtures }: HostileOptions): DisplayModel[] {
  const rng = prng(seed)
  const read = Object.entries(fixtures).map(([name, text]) => readFixture(name, text))
  return Array.from({ length: count }, () => buildModel(rng, pick(rng, read), null))
}

/** Which kinds a place takes: a selector is no SNBT value. */
const SELECTOR_KINDS: readonly HostileKind[] = ['placeholder', 'escape']

/**
 * `count` hostile exports for `seed`: the kinds in turn, each over every position in turn, on
 * a model from a fixture that has a part of the position's type.
 */
export function hostileExports({ seed, count, fixtures }: HostileOptions): HostileCase[] {
  const rng = prng(seed)
  const read = Object.entries(fixtures).map(([name, text]) => readFixture(name, text))
  const all = positions()
  const cases: HostileCase[] = []
  for (let index = 0; index < count; index++) {
    const kind = HOSTILE_KINDS[index % HOSTILE_KINDS.length]!
    let position = all[Math.floor(index / HOSTILE_KINDS.length) % all.length]!
    if (position.place === 'selector' && !SELECTOR_KINDS.includes(kind)) {
      position = { place: 'passenger', type: position.type, path: ['CustomName'] }
    }
    const type = position.place === 'hitbox' ? null : position.type
    const fixture = pick(
      rng,
      read.filter((f) => type === null || f.parts.some((part) => part.type === type)),
    )
    const model = buildModel(rng, fixture, type)
    const partIndex = model.parts.findIndex((part) => type === null || part.type === type)
    const put =
      position.place === 'selector'
        ? selectorInsertion(rng, kind, position.type, partIndex)
        : insertion(rng, kind, position)
    const where = place(rng, model, position, put)
    cases.push({
      id: `${seed}/${index}`,
      kind,
      form: put.form,
      place: position.place,
      position: `${position.type}.${where}`,
      insertion: put.id ?? (put.name === undefined ? put.value : `${put.name}:${put.value}`),
      fetchTags: put.fetchTags ?? [],
      fixture: fixture.name,
      json: exportText(model),
    })
  }
  return cases
}

// ---------------------------------------------------------------------------------------------
// The document: members a reader acts on, and sizes and audiences, out of their bounds.

/** One export with a hostile document member or size, and the path its refusal must name. */
export interface HostileDocumentCase {
  id: string
  kind: 'member' | 'size'
  /** What was put, in a few words. */
  what: string
  /** The path the refusal names. */
  path: string
  fixture: string
  json: string
}

type Content = Record<string, unknown> & { datapack: Record<string, unknown> }

/** A change of an export's `content`; returns the path its refusal must name. */
type DocumentChange = (content: Content, model: DisplayModel) => string

const nested = (levels: number): unknown => (levels === 0 ? 'x' : [nested(levels - 1)])

const member =
  (name: string, value: unknown, below = ''): DocumentChange =>
  (content) => {
    content[name] = value
    return `content.${name}${below}`
  }

const datapackMember =
  (name: string, value: unknown, path: string): DocumentChange =>
  (content) => {
    content.datapack[name] = value
    return `content.datapack.${name}${path}`
  }

/** A frame command on the model's first part, in an animation of its own. */
const frame =
  (keyframes: string, command: (type: string) => string): DocumentChange =>
  (content, model) => {
    const animations = (content.datapack[keyframes] ?? {}) as Record<string, unknown>
    animations.hostile = { '0': [command(model.parts[0]!.type)] }
    content.datapack[keyframes] = animations
    return `content.datapack.${keyframes}.hostile.0[0]`
  }

const hitbox =
  (command: string): DocumentChange =>
  (content) => {
    const list = (content.hitbox ?? []) as string[]
    content.hitbox = [...list, command]
    return `content.hitbox[${list.length}]`
  }

const selector = (type: string) =>
  `@e[type=${type},tag=${PLACEHOLDER}_0,distance=..1,limit=1,sort=nearest]`
const sound = (rest: string) => `playsound minecraft:block.note_block.bell master ${rest}`

const DOCUMENT_CHANGES: ReadonlyArray<['member' | 'size', string, DocumentChange]> = [
  ['member', 'collidable true', member('collidable', true)],
  ['member', 'collidable as a string', member('collidable', 'false')],
  ['member', 'a vehicle', member('vehicle', { subsystems: [{ turretId: '../../x' }] })],
  ['member', 'an empty vehicle', member('vehicle', {})],
  ['member', 'a merge distance of 10^6', member('hitboxMergeDistance', 1e6)],
  ['member', 'a negative merge distance', member('hitboxMergeDistance', -1)],
  ['member', 'a scan threshold of 5', member('hitboxScanThreshold', 5)],
  ['member', 'a merge volume limit of 100', member('hitboxMergeVolumeLimit', 100)],
  ['member', 'a version with a command', member('version', '1.21.4 op @a')],
  ['member', 'a project id with a path', member('project_id', '../../x')],
  ['member', 'a type that is no word', member('type', 'boat;op')],
  ['member', 'meta with a long string', member('meta', { a: 'x'.repeat(257) }, '.a')],
  ['member', 'meta with a control character', member('meta', { a: { b: 'op @a\n' } }, '.a.b')],
  ['member', 'meta nested 9 deep', member('meta', { a: nested(9) }, `.a${'[0]'.repeat(7)}`)],
  ['member', 'an unknown member', member('commandBlock', 'op @a')],
  [
    'member',
    'a member named like one',
    (content) => {
      content['vehicle\u200b'] = {}
      return 'content["vehicle\\u200b"]'
    },
  ],
  [
    'member',
    "op in BlockDisplayCreator's animations",
    datapackMember('transformation_animations', { a: { '0': ['op attacker'] } }, '.a.0[0]'),
  ],
  [
    'member',
    "a loud sound in BlockDisplayCreator's",
    datapackMember('sound_animations', { s: { '0': [sound('@a ~ ~ ~ 1 1 1')] } }, '.s.0[0]'),
  ],
  ['member', 'an unknown datapack member', datapackMember('functions', {}, '')],
  [
    'size',
    'an interaction 10^6 wide',
    hitbox(`summon minecraft:interaction ~ ~ ~ {width:1000000f,height:1f}`),
  ],
  ['size', 'a hitbox at absolute coordinates', hitbox('summon minecraft:interaction 0 64 0')],
  ['size', 'a hitbox 16 blocks away', hitbox('summon minecraft:interaction ~16 ~ ~')],
  [
    'size',
    'a frame raising a width to 3.0E38',
    frame('anim_keyframes', (type) => `data merge entity ${selector(type)} {width:3.0E38f}`),
  ],
  [
    'size',
    'a frame with a negative height',
    frame('anim_keyframes', (type) => `data merge entity ${selector(type)} {height:-1f}`),
  ],
  [
    'size',
    'a sound to the whole dimension',
    frame('sound_keyframes', () => sound('@a ~ ~ ~ 1 1 1')),
  ],
  ['size', 'a sound at volume 100', frame('sound_keyframes', () => sound('@a ~ ~ ~ 100 1'))],
]

/**
 * `count` exports for `seed`, each a benign model from a fixture with one change of its
 * document from `DOCUMENT_CHANGES`, in turn: every one must be refused at the path it names.
 */
export function hostileDocuments({ seed, count, fixtures }: HostileOptions): HostileDocumentCase[] {
  const rng = prng(seed)
  const read = Object.entries(fixtures).map(([name, text]) => readFixture(name, text))
  return Array.from({ length: count }, (_, index) => {
    const [kind, what, change] = DOCUMENT_CHANGES[index % DOCUMENT_CHANGES.length]!
    const fixture = pick(rng, read)
    const model = buildModel(rng, fixture, null)
    const document = JSON.parse(exportText(model)) as { content: Content }
    const path = change(document.content, model)
    return {
      id: `${seed}/${index}`,
      kind,
      what,
      path,
      fixture: fixture.name,
      json: JSON.stringify(document),
    }
  })
}
