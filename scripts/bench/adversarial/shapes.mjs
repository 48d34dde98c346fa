/**
 * The adversarial publishes: display models of exactly 24 MiB, each built
 * to be slow for the display-model check, and the benign 24 MiB model they are timed against.
 * Every one is a model the check reads to its end (published `201` by the check of this
 * writing); a stricter check may refuse one sooner, which only makes it faster.
 *
 * - `benign`: 2,000 item displays, then frames of compact `data merge` transformations, as the
 *   editor writes them (the check's fast path);
 * - `deepText`: every command a `data merge` of a text display's `text`: JSON text of 10
 *   components, each nested 62 levels deep (arrays and objects; 64 is the limit), 7,171
 *   characters (a text is at most 8,192: `maxTextChars`);
 * - `selectors`: 9,000 tags on the parts (the limit is 10,000), every command's selector written
 *   once only (a distinct `distance`) and naming 20 of them: no selector is ever seen twice;
 * - `nearFastPath`: every command a compact transformation and 1,500 tags that the fast path's
 *   pattern follows to the last one, whose escaped quote sends the command to the full check;
 * - `brackets`: every command `Tags` of 2,500 strings of nested brackets, each read for a
 *   plugin reader's markers and its brackets' balance;
 * - `deepSnbt`: every command a `CustomName` written as SNBT text components nested 63 levels
 *   deep (compounds and lists), 12 of them (a text is at most 8,192 characters);
 * - `nestedPassengers` (24 MiB) and `nestedPassengersSmall` (the 1.9 MB passenger string alone,
 *   timed against `benignSmall`, a benign model of its size): block displays nested 30 deep by
 *   `Passengers`, around 1.9 MB of item displays, which a plugin's reader flattens level by
 *   level.
 */
const P = '[MODELSERVERTAG]'
const MiB = 1024 * 1024
/** Every shape's size, padded with spaces after the root object (JSON whitespace). */
export const SHAPE_BYTES = 24 * MiB
/** The size of the small nested shape and of the benign model it is timed against. */
export const SMALL_BYTES = 2_000_000

const matrix = (i) =>
  `[${Array.from({ length: 16 }, (_, k) => `${((i * 16 + k) % 997) / 1000}f`).join(',')}]`

/**
 * An export of exactly `bytes`: `passengers`, then frames of `perFrame` commands made by
 * `command(n)` until the size is reached.
 */
function model(passengers, command, perFrame = 100, bytes = SHAPE_BYTES) {
  const head = `{"content":{"passengers":${JSON.stringify(passengers)},"datapack":{"anim_keyframes":{"default":{`
  const tail = '}}},"project_id":"adversarial","type":"full","version":"1.21.4"}}'
  const encoder = new TextEncoder()
  const frames = []
  let size = encoder.encode(head + tail).length
  for (let frame = 0, n = 0; ; frame++) {
    const commands = Array.from({ length: perFrame }, () => JSON.stringify(command(n++)))
    const piece = `${frame === 0 ? '' : ','}"${frame}":[${commands.join(',')}]`
    const length = encoder.encode(piece).length
    if (size + length > bytes) break
    frames.push(piece)
    size += length
  }
  if (frames.length === 0) throw new Error('a frame is larger than the shape')
  const doc = head + frames.join('') + tail
  return encoder.encode(doc + ' '.repeat(bytes - encoder.encode(doc).length))
}

const itemDisplay = (i, more = '') =>
  `{id:"minecraft:item_display",item:{id:"minecraft:stone",Count:1},item_display:"none",transformation:${matrix(i)}${more},Tags:["${P}_${i}"]}`

const benignFrame = (n) => {
  const selector = `@e[type=item_display,tag=${P}_${n % 2000},distance=..1,limit=1,sort=nearest]`
  return `data merge entity ${selector} {transformation:${matrix(n)},interpolation_duration:2,start_interpolation:0}`
}

export function benign(bytes = SHAPE_BYTES) {
  const parts = Array.from({ length: 2000 }, (_, i) => itemDisplay(i)).join(',')
  return model([parts], benignFrame, 100, bytes)
}

export const benignSmall = () => benign(SMALL_BYTES)

/**
 * Block displays nested 30 deep by `Passengers`, the innermost carrying item displays to about
 * 1.9 MB as written; nested parts leave the namespace out (SuperBlocksDisplays cuts at
 * `},{id:"minecraft:`, blind to nesting).
 */
function nestedPassengerString() {
  const parts = []
  for (let i = 0, size = 0; size < 1_850_000; i++) {
    const part = `{id:"item_display",item:{id:"minecraft:stone",count:1},item_display:"none",transformation:${matrix(i)}}`
    parts.push(part)
    size += part.length + 5
  }
  let text = parts.join(',')
  for (let level = 30; level > 0; level--) {
    const id = level === 1 ? 'minecraft:block_display' : 'block_display'
    text = `{id:"${id}",Tags:["${P}_${level}"],Passengers:[${text}]}`
  }
  return text
}

export function nestedPassengers(bytes = SHAPE_BYTES) {
  // The frames move the one top-level item display, as the benign model's move its parts.
  return model([nestedPassengerString(), itemDisplay(0)], (n) => benignFrame(n * 2000), 100, bytes)
}

export const nestedPassengersSmall = () => nestedPassengers(SMALL_BYTES)

const TEXT = `{id:"minecraft:text_display",text:'"a"',Tags:["${P}_0"]}`
const textSelector = `@e[type=text_display,tag=${P}_0,distance=..1,limit=1,sort=nearest]`

export function deepText(bytes = SHAPE_BYTES) {
  // 31 objects with a list inside: 62 levels, inside the top-level list: 63.
  const deep = `${'{"text":"a","extra":['.repeat(31)}"b"${']}'.repeat(31)}`
  const text = `[${Array(10).fill(deep).join(',')}]`
  return model([TEXT], () => `data merge entity ${textSelector} {text:'${text}'}`, 10, bytes)
}

export function selectors(bytes = SHAPE_BYTES) {
  const tags = 9000
  const part = `{id:"minecraft:item_display",Tags:[${Array.from({ length: tags }, (_, i) => `"${P}_${i}"`).join(',')}]}`
  return model(
    [part],
    (n) => {
      const named = Array.from({ length: 20 }, (_, k) => `tag=${P}_${(n * 20 + k) % tags}`)
      const selector = `@e[type=item_display,${named.join(',')},distance=..${n + 1},limit=1]`
      return `data merge entity ${selector} {transformation:${matrix(n)},interpolation_duration:0}`
    },
    100,
    bytes,
  )
}

export function nearFastPath(bytes = SHAPE_BYTES) {
  const tags = Array.from({ length: 1500 }, (_, k) => `"t${k}"`).join(',')
  return model(
    [itemDisplay(0)],
    (n) => {
      const selector = `@e[type=item_display,tag=${P}_0,distance=..1,limit=1,sort=nearest]`
      // The escaped quote in the last string is what the fast path's pattern does not take.
      return `data merge entity ${selector} {transformation:${matrix(n)},Tags:[${tags},"a\\"b"]}`
    },
    10,
    bytes,
  )
}

export function brackets(bytes = SHAPE_BYTES) {
  const strings = Array.from({ length: 2500 }, (_, k) => `"[{[${k % 10}]}]"`).join(',')
  return model(
    [itemDisplay(0)],
    () => {
      const selector = `@e[type=item_display,tag=${P}_0,distance=..1,limit=1,sort=nearest]`
      return `data merge entity ${selector} {Tags:[${strings}]}`
    },
    10,
    bytes,
  )
}

export function deepSnbt(bytes = SHAPE_BYTES) {
  // Inside the command's compound and the list of lines (2 levels): a compound with a list
  // inside, 30 times, then one more compound: 63 levels in all.
  const deep = `${'{text:"a",extra:['.repeat(30)}{text:"b"}${']}'.repeat(30)}`
  return model(
    [itemDisplay(0)],
    () => {
      const selector = `@e[type=item_display,tag=${P}_0,distance=..1,limit=1,sort=nearest]`
      return `data merge entity ${selector} {CustomName:[${Array(12).fill(deep).join(',')}]}`
    },
    10,
    bytes,
  )
}

/** The slow shapes, by name, and the benign ones they are timed against. */
export const ADVERSARIAL_SHAPES = {
  deepText,
  selectors,
  nearFastPath,
  brackets,
  deepSnbt,
  nestedPassengers,
  nestedPassengersSmall,
}
export const BENIGN = 'benign'
export const BENIGN_SMALL = 'benignSmall'
/** The benign model each shape is timed against: one of its size. */
export const BENIGN_OF = { nestedPassengersSmall: BENIGN_SMALL }

/** Each shape by name as a function of its body's size (the 2 MB rows: of their 24 MiB shape). */
const SIZED = { [BENIGN]: benign, [BENIGN_SMALL]: benign, nestedPassengersSmall: nestedPassengers }

/**
 * The publish a shape's memory is measured after (memory.mjs): the same shape in a body of
 * `SMALL_BYTES` (for the 2 MB rows, their very body).
 */
export const warmUpOf = (name) => (SIZED[name] ?? ADVERSARIAL_SHAPES[name])(SMALL_BYTES)
