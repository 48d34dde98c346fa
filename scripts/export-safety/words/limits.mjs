/** Vectors of the limits: an export at each limit, and one a step past it. */
import { FRAME_PATH, PARTS, PASSENGER_PATH, dataMerge, exportOf, part, vector } from './exports.mjs'

const ANIMATIONS_PATH = 'content.datapack.anim_keyframes'

/** Passengers: a part, and one whose name is a list nested `depth` deep. */
const nested = (depth) =>
  `${part(PARTS[0])},{id:"minecraft:block_display",CustomName:${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`
/** Animations: one whose name is `length` characters long. */
const animation = (length) => ({
  ['a'.repeat(length)]: { 0: [dataMerge('block_display', '{Glowing:1b}')] },
})
/** Passengers: the three parts, the first named with JSON text of `length` characters. */
const named = (length) =>
  `${PARTS.map((p, i) => part(p, i === 0 ? `,CustomName:'{"text":"${'x'.repeat(length - 11)}"}'` : '')).join(',')}`
/** Passengers: n tags of a nested part, the three parts' and (allowed only) the hitbox's. */
const tags = (n) =>
  part(
    PARTS[0],
    `,Passengers:[{id:"block_display",Tags:[${Array.from({ length: n }, (_, i) => `"t${i}"`).join(',')}]}]`,
  ) +
  ',' +
  PARTS.slice(1)
    .map((p) => part(p))
    .join(',')

/**
 * The longest command, the deepest SNBT, the longest animation name and the longest text, each
 * at its limit and one past it; the most tags of a part; the longest `found` a refusal quotes.
 */
export function limitVectors(vocabulary) {
  const limits = vocabulary.limits
  const commandOf = commandOfLength(vocabulary)
  const past = (name) => String(limits[name] + 1)
  // Each: the limit, what holds `n` of it, then the refusal's reason, path and what it found.
  const onePast = [
    ['maxCommandChars', (n) => ({ frame: [commandOf(n)] }), 'length', FRAME_PATH, past],
    ['maxSnbtDepth', (n) => ({ passengers: nested(n) }), 'depth', PASSENGER_PATH, () => '['],
    ['maxNameChars', (n) => ({ animations: animation(n) }), 'length', ANIMATIONS_PATH, past],
    [
      'maxTextChars',
      (n) => ({ passengers: named(n) }),
      'length',
      PASSENGER_PATH,
      () => 'CustomName',
    ],
  ].map(([name, holding, reason, path, found]) =>
    vector(
      'limit',
      name,
      exportOf(holding(limits[name])),
      exportOf(holding(limits[name] + 1)),
      reason,
      path,
      found(name),
    ),
  )
  return [
    ...onePast,
    vector(
      'limit',
      'maxOwnTags',
      exportOf({ passengers: tags(limits.maxOwnTags - 4) }),
      exportOf({ passengers: tags(limits.maxOwnTags - 2) }),
      'count',
      PASSENGER_PATH,
      'tags',
    ),
    vector(
      'limit',
      'maxFoundChars',
      exportOf({}),
      exportOf({ passengers: `{id:"${'x'.repeat(limits.maxFoundChars + 1)}"}` }),
      'entity',
      PASSENGER_PATH,
      `${'x'.repeat(limits.maxFoundChars - 1)}\u2026`,
    ),
  ]
}

/**
 * A command of `length` as counted: its placeholder as the longest tag it may become. Its length
 * is an item's lore lines, each a text of at most `maxTextChars`, so that only the command's own
 * length counts.
 */
function commandOfLength(vocabulary) {
  const limits = vocabulary.limits
  const growth = limits.maxTagChars - vocabulary.placeholder.length
  return (length) => {
    const head = dataMerge('item_display', '{item:{id:"minecraft:stone",count:1,components:{lore:[')
    const tail = ']}}}'
    const lines = []
    let left = length - growth - head.length - tail.length
    while (left > 0) {
      // A line is `'"x..."'` (4 more than its x's) and a comma before all but the first; the
      // last but one leaves the last at least one x.
      const extra = lines.length === 0 ? 4 : 5
      let xs = Math.min(limits.maxTextChars - 2, left - extra)
      if (left - extra - xs > 0 && left - extra - xs < 6) xs -= 6
      lines.push(`'"${'x'.repeat(xs)}"'`)
      left -= extra + xs
    }
    return head + lines.join(',') + tail
  }
}
