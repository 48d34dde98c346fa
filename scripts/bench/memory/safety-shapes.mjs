/**
 * The four export shapes the display-model check must read within the publish bound (25 MiB of
 * body, memory at most a KV put's plus the body's): each a valid display model just under
 * 25 MiB, built as text.
 * - `tinyFrames`: 800,000 frames, every other one holding one short command;
 * - `dataMerges`: 400,000 `data merge` commands in one frame;
 * - `compounds`: one passenger string of a million tiny compounds (19 MB: refused, over the
 *   2 MiB passenger strings may hold; `REFUSED_SHAPES`);
 * - `deepNesting`: `data merge` commands whose `CustomName` is SNBT text components nested as
 *   deep as SNBT may go (64 levels with the command's compound), repeated to 25 MiB. A value of
 *   another type (a list of lists in `response`) is refused as `type` since values are typed.
 */
const P = '[MODELSERVERTAG]'
const MiB = 1024 * 1024
const LIMIT = 25 * MiB - 1024
const PART = `{id:"minecraft:item_display",Tags:["${P}"]}`

const HITBOX = `summon minecraft:interaction ~ ~ ~ {Tags:["${P}"]}`

function document({ passengers = [PART], keyframes = '{}' }) {
  return `{"content":{"datapack":{"anim_keyframes":${keyframes}},"hitbox":${JSON.stringify([HITBOX])},"passengers":${JSON.stringify(passengers)},"project_id":"shape"}}`
}

export function tinyFrames(count = 800_000) {
  const frames = []
  for (let i = 0; i < count; i++) {
    frames.push(i % 2 === 0 ? `"${i}":["playsound a block @a 0 0 0"]` : `"${i}":[]`)
  }
  return checked(document({ keyframes: `{"a":{${frames.join(',')}}}` }))
}

export function dataMerges(count = 400_000) {
  const command = JSON.stringify(`data merge entity @e[type=interaction,tag=${P}] {}`)
  return checked(document({ keyframes: `{"a":{"0":[${Array(count).fill(command).join(',')}]}}` }))
}

export function compounds(count = 1_000_000) {
  return checked(
    document({ passengers: [`${PART},${Array(count).fill('{id:block_display}').join(',')}`] }),
  )
}

export function deepNesting() {
  // The command's compound, then a compound with a list inside 31 times, then one more: 64.
  const value = `${'{text:"a",extra:['.repeat(31)}{text:"b"}${']}'.repeat(31)}`
  const command = JSON.stringify(
    `data merge entity @e[type=interaction,tag=${P}] {CustomName:${value}}`,
  )
  const perFrame = 1000
  const frames = []
  const count = Math.floor((LIMIT - 300) / (perFrame * (command.length + 1) + 12))
  const frame = `[${Array(perFrame).fill(command).join(',')}]`
  for (let i = 0; i < count; i++) frames.push(`"${i}":${frame}`)
  return checked(document({ keyframes: `{"a":{${frames.join(',')}}}` }))
}

/** The shapes refused (400 unsafe_export) rather than published. */
export const REFUSED_SHAPES = new Set(['compounds'])

function checked(text) {
  if (text.length > 25 * MiB) throw new Error(`a shape of ${text.length} bytes is over 25 MiB`)
  return text
}

export const SHAPES = { tinyFrames, dataMerges, compounds, deepNesting }
