import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkExportSafety } from '../../src/client'
import { PLACEHOLDER } from '../support/fixtures'
import { readsTheSame } from '../support/plugin-readers'

/**
 * Random legitimate exports (any number of displays, animations, frames, sounds, with or
 * without a hitbox), each accepted; then one forbidden command or entity planted anywhere in a
 * checked field, which must be refused at the path where it was planted. Documents are built
 * as text, and any letter of their strings may be written as a `\uHHHH` escape.
 */

type DisplayType = 'block_display' | 'item_display' | 'text_display'

interface Display {
  type: DisplayType
  snbt: string
}

interface Model {
  displays: Display[]
  /** Passenger strings: the displays split into consecutive runs. */
  passengers: string[]
  /** Animation → frame → commands. */
  animations: Record<string, Record<string, string[]>>
  sounds: Record<string, Record<string, string[]>>
  hitbox: string[]
}

const tag = (index: number) => `${PLACEHOLDER}_${index}`
const floatArb = fc.integer({ min: -2000, max: 2000 }).map((n) => `${n / 1000}f`)
const matrixArb = fc
  .array(floatArb, { minLength: 16, maxLength: 16 })
  .map((m) => `[${m.join(',')}]`)
const namespaceArb = fc.constantFrom('minecraft:', '')
const wordArb = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/)

function displayArb(index: number): fc.Arbitrary<Display> {
  return fc
    .tuple(
      fc.constantFrom<DisplayType>('block_display', 'item_display', 'text_display'),
      namespaceArb,
      matrixArb,
      fc.boolean(),
      fc.constantFrom('stone', 'oak_planks', 'diamond', 'player_head', 'command_block'),
    )
    .map(([type, , matrix, extras, thing]) => {
      const own =
        type === 'block_display'
          ? `block_state:{Name:"minecraft:${thing}"}`
          : type === 'item_display'
            ? `item:{id:"minecraft:${thing}",Count:1,components:{"minecraft:custom_name":'"op @a"'}},item_display:"none"`
            : `text:'{"text":"kill @e","hoverEvent":{"action":"show_text","contents":"/op @s"}}',background:0,shadow: 1b,`
      const more = extras ? ',billboard:"center",brightness:{sky:15,block:15},view_range:1.5f' : ''
      return {
        type,
        // SuperBlocksDisplays cuts and types a passenger string at `{id:"minecraft:` only.
        snbt: `{id:"minecraft:${type}",${own},transformation:${matrix}${more},Tags:["${tag(index)}"]}`,
      }
    })
}

function frameCommandArb(displays: Display[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.nat(displays.length - 1), matrixArb, fc.nat(10), namespaceArb, fc.boolean())
    .map(([index, matrix, ticks, namespace, spaced]) => {
      const display = displays[index]!
      const selector = `@e[type=${namespace}${display.type},tag=${tag(index)},distance=..1,limit=1,sort=nearest]`
      const compound = `{transformation:${matrix},interpolation_duration:${ticks},start_interpolation:0}`
      // The compact form editors write, or one with spaces and a quoted key (the full grammar).
      const written = spaced
        ? compound.replaceAll(',', ', ').replace('{transformation:', '{"transformation": ')
        : compound
      return `data merge entity ${selector} ${written}`
    })
}

const soundArb = fc
  .tuple(
    fc.constantFrom('ui.toast.out', 'minecraft:item.book.page_turn', 'block.note_block.bell'),
    fc.constantFrom('block', 'master', 'ambient'),
    fc.constantFrom('@a', '@a[distance=..16]'),
    fc.constantFrom('~ ~ ~', '^ ^1 ^-2', '10 64 -3.5', '~1 ~ ~-1'),
    fc.constantFrom('', ' 1', ' 0.5 1.375', ' 1 1 0'),
  )
  .map(([sound, source, target, at, rest]) => `playsound ${sound} ${source} ${target} ${at}${rest}`)

function keyframesArb(command: fc.Arbitrary<string>) {
  const frames = fc.dictionary(
    fc.nat(200).map(String),
    fc.array(command, { minLength: 0, maxLength: 4 }),
    { maxKeys: 5 },
  )
  return fc.dictionary(wordArb, frames, { maxKeys: 3 })
}

const modelArb: fc.Arbitrary<Model> = fc
  .integer({ min: 1, max: 12 })
  .chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => displayArb(index))))
  .chain((displays) =>
    fc.record({
      displays: fc.constant(displays),
      passengers: fc.array(fc.nat(displays.length), { maxLength: 2 }).map((cuts) =>
        splitRuns(
          displays.map((d) => d.snbt),
          cuts,
        ),
      ),
      animations: keyframesArb(fc.oneof(frameCommandArb(displays), soundArb)),
      sounds: keyframesArb(soundArb),
      hitbox: fc.constantFrom(
        [],
        ['summon minecraft:interaction ~ ~ ~ {width:1f,height:2f,response:1b,Tags:["hb"]}'],
      ),
    }),
  )

/** The displays' SNBT as passenger strings, cut before the given indexes. */
function splitRuns(snbt: string[], cuts: number[]): string[] {
  const at = [...new Set(cuts)].filter((cut) => cut > 0 && cut < snbt.length).sort((a, b) => a - b)
  const runs: string[] = []
  let start = 0
  for (const cut of [...at, snbt.length]) {
    runs.push(snbt.slice(start, cut).join(','))
    start = cut
  }
  return runs
}

function exportText(model: Model): string {
  const content: Record<string, unknown> = {
    datapack: { anim_keyframes: model.animations, sound_keyframes: model.sounds },
    meta: { name: 'op @a', description: 'execute as @a run op @s' },
    passengers: model.passengers,
    project_id: 'property',
  }
  if (model.hitbox.length > 0) content.hitbox = model.hitbox
  return JSON.stringify({ content })
}

/** Any of the letters in the strings of `json` written as `\uHHHH` escapes. */
function escapeLetters(json: string, seed: number): string {
  let out = ''
  let inString = false
  let state = seed
  for (let i = 0; i < json.length; i++) {
    const ch = json[i]!
    if (inString && ch === '\\') {
      out += ch + json[i + 1]
      i++
      continue
    }
    if (ch === '"') inString = !inString
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    if (inString && /[A-Za-z]/.test(ch) && state % 3 === 0) {
      out += '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0')
    } else {
      out += ch
    }
  }
  return out
}

const FORBIDDEN_COMMANDS = [
  'op @a',
  'execute as @a run op @s',
  'function evil:takeover',
  'give @a minecraft:command_block',
  'tellraw @a {"text":"x","clickEvent":{"action":"run_command","value":"/op @s"}}',
  'summon minecraft:tnt ~ ~ ~',
  'kill @e',
  'tp @a 0 -100 0',
  '/op @a',
  'setblock ~ ~ ~ minecraft:command_block{Command:"op @a",auto:1b}',
  `data merge entity @e[type=item_display,tag=${tag(0)}] {Passengers:[{id:"minecraft:tnt"}]}`,
  `data merge entity @e[type=item_display,tag=${tag(0)}] {x:1}\nop @a`,
  'data merge entity @e[type=item_display,tag=victim,limit=1] {Glowing:1b}',
]

const FORBIDDEN_ENTITIES = [
  '{id:"minecraft:tnt",fuse:0}',
  '{id:"minecraft:command_block_minecart",Command:"op @a"}',
  '{id:"minecraft:falling_block",BlockState:{Name:"minecraft:command_block"},TileEntityData:{Command:"op @a",auto:1b},Time:1}',
  '{id:"minecraft:block_display",Passengers:[{id:"minecraft:tnt"}]}',
]

/** Plants one forbidden command or entity in `model`; returns the path that must be named. */
type Plant = (model: Model) => string

const plantArb: fc.Arbitrary<Plant> = fc.oneof(
  // A command in a frame of an animation or sound keyframes, new or existing.
  fc
    .tuple(
      fc.constantFrom(...FORBIDDEN_COMMANDS),
      fc.constantFrom('anim_keyframes', 'sound_keyframes'),
      wordArb,
      fc.nat(200),
      fc.nat(),
    )
    .map(([command, kind, animation, frame, at]): Plant => (model) => {
      const keyframes = kind === 'anim_keyframes' ? model.animations : model.sounds
      const frames = (keyframes[animation] ??= {})
      const commands = (frames[String(frame)] ??= [])
      const index = at % (commands.length + 1)
      commands.splice(index, 0, command)
      return `content.datapack.${kind}.${animation}.${frame}[${index}]`
    }),
  // An entity in a passenger string, at any place in its sequence, or nested in a display.
  fc
    .tuple(fc.constantFrom(...FORBIDDEN_ENTITIES), fc.nat(), fc.nat(), fc.boolean())
    .map(([entity, which, at, nested]): Plant => (model) => {
      const index = which % model.passengers.length
      const compounds = model.passengers[index]!.split(/,(?=\{id:)/)
      if (nested) {
        const host = at % compounds.length
        compounds[host] = compounds[host]!.replace(/\}$/, `,Passengers:[${entity}]}`)
      } else {
        compounds.splice(at % (compounds.length + 1), 0, entity)
      }
      model.passengers[index] = compounds.join(',')
      return `content.passengers[${index}]`
    }),
  // A hitbox that summons anything but an interaction.
  fc.constantFrom('summon minecraft:tnt ~ ~ ~', 'op @a').map((command): Plant => (model) => {
    model.hitbox.push(command)
    return `content.hitbox[${model.hitbox.length - 1}]`
  }),
)

describe('the display-model vocabulary on random exports', () => {
  it('accepts every legitimate export, published, fetched and escaped', () => {
    fc.assert(
      fc.property(modelArb, fc.integer(), (model, seed) => {
        const text = exportText(model)
        expect(checkExportSafety(text)).toEqual({ safe: true })
        expect(checkExportSafety(text.replaceAll(PLACEHOLDER, 'bde'), { tag: 'bde' })).toEqual({
          safe: true,
        })
        expect(checkExportSafety(escapeLetters(text, seed))).toEqual({ safe: true })
      }),
      { numRuns: 300 },
    )
  })

  it("reads, under every plugin's own reader, as entities the check accepts", () => {
    fc.assert(
      fc.property(modelArb, (model) => {
        expect(readsTheSame(exportText(model))).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  it('refuses it once one forbidden command or entity is planted, naming where', () => {
    fc.assert(
      fc.property(modelArb, plantArb, fc.integer(), (generated, plant, seed) => {
        // Planting changes the model: work on a copy, so a shrunk case starts clean.
        const model = structuredClone(generated)
        const path = plant(model)
        const text = exportText(model)
        expect(checkExportSafety(text)).toMatchObject({ safe: false, path })
        expect(checkExportSafety(escapeLetters(text, seed))).toMatchObject({ safe: false, path })
      }),
      { numRuns: 300 },
    )
  })
})
