/**
 * Hostile exports for the per-version typing and the text rules, beside the generator of
 * hostile-exports.ts (which keeps its own cases): real display models from the fixtures,
 * declared for one game version from 1.19.4 to 1.21.5, each with one insertion of one kind:
 * - `click`: a click event (`clickEvent` in JSON text, `click_event` in SNBT text) that runs,
 *   suggests, opens or copies, at a text of a part, a frame or an item (names, lore, `with`,
 *   `extra`, inside a hover event);
 * - `text-boolean`: a style flag written as a string (`"bold":"true"`) in JSON text of a
 *   version whose codec fails on it (1.20.3 and later);
 * - `item-form`: an item in a form the declared version does not read (`tag` from 1.20.5,
 *   `count` or `components` up to 1.20.4, a component of another version), or a pre-1.20.5 `tag`
 *   holding what no display shows (a block entity's command, an entity, pages, world-reading text).
 * Every case must be refused with `expected`; each has a `twin`, the same model with the
 * insertion written as the declared version reads it, which must publish.
 *
 * Pure and seeded, like hostile-exports.ts.
 */
import {
  buildModel,
  exportText,
  pick,
  place,
  prng,
  readFixture,
  type DisplayModel,
  type FixtureParts,
  type HostilePlace,
  type Insertion,
  type Position,
  type Rng,
} from './hostile-exports'

export const VERSION_KINDS = ['click', 'text-boolean', 'item-form'] as const
export type VersionKind = (typeof VERSION_KINDS)[number]

/** One hostile export, what it must be refused for, and its benign twin. */
export interface VersionCase {
  id: string
  kind: VersionKind
  version: string
  place: HostilePlace
  /** The value position, e.g. `item_display.CustomName`. */
  position: string
  insertion: string
  fixture: string
  json: string
  /** The refusal it must get: its reason, and what it names (a click event, or a path). */
  expected: { reason: 'text' | 'type' | 'component'; found: string }
  /**
   * The same model with a value the declared version reads as written, which must publish (for
   * a string flag in a version before 1.20.5: the same insertion declared for 1.20.2, whose
   * reader took it for a boolean).
   */
  twin: string
}

/** Versions whose items are `Count` and `tag`, and those whose items are `components`. */
const LEGACY = ['1.19.4', '1.20', '1.20.1', '1.20.2', '1.20.3', '1.20.4']
const MODERN = ['1.20.5', '1.20.6', '1.21', '1.21.1', '1.21.3', '1.21.4', '1.21.5', '1.21.8']
/** Versions that read JSON text with a codec: a string is no boolean there. */
const CODEC_TEXT = ['1.20.3', '1.20.4', '1.20.5', '1.21.1', '1.21.4']
/** Versions whose JSON text Gson read: a string flag is a boolean there. */
const GSON_TEXT = ['1.19.4', '1.20.1', '1.20.2']

const isLegacy = (version: string) => LEGACY.includes(version)

const CLICK_ACTIONS = [
  'run_command',
  'suggest_command',
  'open_url',
  'copy_to_clipboard',
  'change_page',
]

/** A JSON text with a click event somewhere in it, and the text without it. */
function clickText(rng: Rng): { text: string; plain: string; found: string } {
  const action = pick(rng, CLICK_ACTIONS)
  const click = `"clickEvent":{"action":"${action}","value":"/op @s"}`
  const where = pick(rng, ['top', 'extra', 'with', 'hover', 'list'])
  const wrap = (inner: string) => {
    switch (where) {
      case 'top':
        return `{"text":"a"${inner}}`
      case 'extra':
        return `{"text":"a","extra":[{"text":"b"${inner}}]}`
      case 'with':
        return `{"translate":"%s","with":[100,{"text":"b"${inner}}]}`
      case 'hover':
        return `{"text":"a","hoverEvent":{"action":"show_text","contents":{"text":"b"${inner}}}}`
      default:
        return `[{"text":"a"},{"text":"b"${inner}}]`
    }
  }
  return { text: `'${wrap(`,${click}`)}'`, plain: `'${wrap('')}'`, found: 'clickEvent' }
}

/** The same in SNBT text (1.21.5): `click_event`. */
function snbtClickText(rng: Rng): { text: string; plain: string; found: string } {
  const click = `click_event:{action:"${pick(rng, CLICK_ACTIONS)}",command:"op @s"}`
  const wrap = (inner: string) =>
    pick(rng, [
      `{text:"a"${inner}}`,
      `{text:"a",extra:[{text:"b"${inner}}]}`,
      `{translate:"%s",with:[100,{text:"b"${inner}}]}`,
    ])
  const shape = wrap('%CLICK%')
  return {
    text: shape.replace('%CLICK%', `,${click}`),
    plain: shape.replace('%CLICK%', ''),
    found: 'click_event',
  }
}

interface Planned {
  position: Position
  put: string
  twin: string
  expected: VersionCase['expected']
}

/** A text (a name, a text display's text, an item's name or lore) at a part of the model. */
function textPosition(rng: Rng, type: string): { path: string[]; lore: boolean } {
  if (type === 'text_display' && rng() < 0.5) return { path: ['text'], lore: false }
  if (type === 'item_display' && rng() < 0.6) return { path: ['item'], lore: rng() < 0.5 }
  return { path: ['CustomName'], lore: false }
}

/** `text` where `path` says: as is, or inside an item of the version's form. */
function textValue(version: string, path: string[], lore: boolean, text: string): string {
  if (path[0] !== 'item') return text
  if (isLegacy(version)) {
    const display = lore ? `{Lore:[${text}]}` : `{Name:${text}}`
    return `{id:"minecraft:stone",Count:1b,tag:{display:${display}}}`
  }
  const component = lore ? `"minecraft:lore":[${text}]` : `"minecraft:custom_name":${text}`
  return `{id:"minecraft:stone",count:1,components:{${component}}}`
}

/** Where a text at `path` is named in a refusal. */
function textFound(version: string, path: string[], lore: boolean): string {
  if (path[0] !== 'item') return path[0]!
  if (isLegacy(version)) return lore ? 'item.tag.display.Lore[0]' : 'item.tag.display.Name'
  return lore ? 'item.components.minecraft:lore[0]' : 'item.components.minecraft:custom_name'
}

function plan(rng: Rng, kind: VersionKind, version: string, type: string, at: HostilePlace) {
  const position = (path: string[]): Position => ({ place: at, type, path })
  switch (kind) {
    case 'click': {
      const { path, lore } = textPosition(rng, type)
      const snbt = ['1.21.5', '1.21.8'].includes(version) && path[0] !== 'item' && rng() < 0.7
      const { text, plain, found } = snbt ? snbtClickText(rng) : clickText(rng)
      return {
        position: position(path),
        put: textValue(version, path, lore, text),
        twin: textValue(version, path, lore, plain),
        expected: { reason: 'text', found },
      } satisfies Planned
    }
    case 'text-boolean': {
      const { path, lore } = textPosition(rng, type)
      const flag = pick(rng, ['bold', 'italic', 'underlined', 'strikethrough', 'obfuscated'])
      const value = pick(rng, ['true', 'false'])
      return {
        position: position(path),
        put: textValue(version, path, lore, `'{"text":"a","${flag}":"${value}"}'`),
        twin: textValue(version, path, lore, `'{"text":"a","${flag}":${value}}'`),
        expected: { reason: 'type', found: textFound(version, path, lore) },
      } satisfies Planned
    }
    case 'item-form':
      return { position: position(['item']), ...itemForm(rng, version) } satisfies Planned
  }
}

/** An item the declared version does not read as written, and one it does. */
function itemForm(rng: Rng, version: string): Omit<Planned, 'position'> {
  if (isLegacy(version)) {
    const twin = pick(rng, [
      '{id:"minecraft:leather_helmet",Count:1b,tag:{display:{color:16711680},CustomModelData:3}}',
      '{id:"minecraft:player_head",Count:1b,tag:{SkullOwner:{Id:[I;1,2,3,4],Properties:{textures:[{Value:"e30="}]}}}}',
      '{id:"minecraft:white_banner",Count:1b,tag:{BlockEntityTag:{Patterns:[{Pattern:"bri",Color:14}]}}}',
    ])
    const [put, found] = pick(rng, [
      ['{id:"minecraft:stone",count:1,components:{"minecraft:custom_model_data":1}}', 'item.count'],
      ['{id:"minecraft:stone",Count:1b,components:{"minecraft:dyed_color":1}}', 'item.components'],
      [
        '{id:"minecraft:command_block",Count:1b,tag:{BlockEntityTag:{Command:"op @a",auto:1b}}}',
        'item.tag.BlockEntityTag.Command',
      ],
      [
        '{id:"minecraft:cow_spawn_egg",Count:1b,tag:{EntityTag:{id:"minecraft:tnt",Fuse:0}}}',
        'item.tag.EntityTag',
      ],
      [
        '{id:"minecraft:written_book",Count:1b,tag:{pages:[\'{"text":"x"}\'],author:"a"}}',
        'item.tag.pages',
      ],
      [
        '{id:"minecraft:player_head",Count:1b,tag:{SkullOwner:{Name:"x",Properties:{textures:[{Value:"e30=",Command:"op @a"}]}}}}',
        'item.tag.SkullOwner.Properties.textures[0].Command',
      ],
    ] as const)
    return { put, twin, expected: { reason: 'type', found } }
  }
  const numbers = version.split('.').map(Number)
  const minor = (numbers[1] ?? 0) * 100 + (numbers[2] ?? 0)
  const forms: Array<readonly [string, string]> = [
    ['{id:"minecraft:stone",Count:1b,tag:{CustomModelData:1}}', 'item.tag'],
    [
      '{id:"minecraft:stone",count:1,components:{"minecraft:block_entity_data":{id:"minecraft:command_block",Command:"op @a"}}}',
      'minecraft:block_entity_data',
    ],
  ]
  if (minor < 2102) {
    forms.push([
      '{id:"minecraft:stone",count:1,components:{"minecraft:item_model":"minecraft:diamond"}}',
      'item.components.minecraft:item_model',
    ])
  }
  forms.push(
    minor < 2104
      ? [
          '{id:"minecraft:stone",count:1,components:{"minecraft:custom_model_data":{floats:[1f]}}}',
          'item.components.minecraft:custom_model_data',
        ]
      : [
          '{id:"minecraft:stone",count:1,components:{"minecraft:custom_model_data":1}}',
          'item.components.minecraft:custom_model_data',
        ],
  )
  const [put, found] = pick(rng, forms)
  const cmd = minor < 2104 ? '1' : '{floats:[1f]}'
  const enchantments =
    minor < 2105 ? '{levels:{"minecraft:sharpness":1}}' : '{"minecraft:sharpness":1}'
  const twin = pick(rng, [
    `{id:"minecraft:stone",count:1,components:{"minecraft:custom_model_data":${cmd}}}`,
    `{id:"minecraft:diamond_sword",count:1,components:{"minecraft:enchantments":${enchantments}}}`,
    '{id:"minecraft:potion",count:1,components:{"minecraft:potion_contents":{potion:"minecraft:healing"}}}',
  ])
  return {
    put,
    twin,
    expected: { reason: found.startsWith('item.') ? 'type' : 'component', found },
  }
}

function copyModel(model: DisplayModel): DisplayModel {
  return {
    ...model,
    parts: model.parts.map((part) => ({ ...part })),
    frames: Object.fromEntries(Object.entries(model.frames).map(([k, v]) => [k, [...v]])),
  }
}

const PLACES: readonly HostilePlace[] = ['passenger', 'nested-passenger', 'frame']

/**
 * `count` cases for `seed`: the kinds in turn, each in a version of its own and at a place in
 * turn, on a model from a fixture the declared version reads as written (one without
 * `components` for a version before 1.20.5).
 */
export function versionHostileExports({
  seed,
  count,
  fixtures,
}: {
  seed: number
  count: number
  fixtures: Record<string, string>
}): VersionCase[] {
  const rng = prng(seed)
  const read = Object.entries(fixtures).map(([name, text]) => readFixture(name, text))
  const legacyFixtures = read.filter((f) => f.parts.every((p) => !p.snbt.includes('components')))
  const cases: VersionCase[] = []
  for (let index = 0; index < count; index++) {
    const kind = VERSION_KINDS[index % VERSION_KINDS.length]!
    const at = PLACES[Math.floor(index / VERSION_KINDS.length) % PLACES.length]!
    const version =
      kind === 'text-boolean' ? pick(rng, CODEC_TEXT) : pick(rng, rng() < 0.5 ? LEGACY : MODERN)
    const pool: FixtureParts[] = isLegacy(version) ? legacyFixtures : read
    const fixture = pick(rng, pool)
    const types = [...new Set(fixture.parts.map((part) => part.type))]
    const type = kind === 'item-form' ? 'item_display' : pick(rng, types)
    const model = buildModel(rng, fixture, fixture.parts.some((p) => p.type === type) ? type : null)
    model.version = version
    const planned = plan(rng, kind, version, type, at)
    const benign = copyModel(model)
    const put: Insertion = { form: 'plain', value: planned.put }
    const where = place(() => 0, model, planned.position, put)
    place(() => 0, benign, planned.position, { form: 'plain', value: planned.twin })
    const gsonTwin = kind === 'text-boolean' && isLegacy(version)
    cases.push({
      id: `${seed}/${index}`,
      kind,
      version,
      place: at,
      position: `${type}.${where}`,
      insertion: planned.put,
      fixture: fixture.name,
      json: exportText(model),
      expected: planned.expected,
      twin: gsonTwin ? exportText({ ...model, version: pick(rng, GSON_TEXT) }) : exportText(benign),
    })
  }
  return cases
}
