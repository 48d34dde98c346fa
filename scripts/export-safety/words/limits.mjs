/** Vectors of the limits: an export at each limit, and one a step past it. */
import { FRAME_PATH, PARTS, PASSENGER_PATH, dataMerge, exportOf, part, vector } from './exports.mjs'

/**
 * The longest command, the deepest SNBT, the longest animation name, the longest text, the most
 * tags of a part, and the longest `found` a refusal quotes.
 */
export function limitVectors(vocabulary) {
  const limits = vocabulary.limits
  const commandOf = commandOfLength(vocabulary)
  const nested = (depth) =>
    `{id:"minecraft:block_display",CustomName:${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`
  const animation = (length) => ({
    ['a'.repeat(length)]: { 0: [dataMerge('block_display', '{Glowing:1b}')] },
  })
  // A part's name: JSON text of `length` characters, `{"text":"x..."}`.
  const named = (length) =>
    `${PARTS.map((p, i) => part(p, i === 0 ? `,CustomName:'{"text":"${'x'.repeat(length - 11)}"}'` : '')).join(',')}`
  // n tags of a nested part, the three parts' and (allowed only) the hitbox's.
  const tags = (n) =>
    part(
      PARTS[0],
      `,Passengers:[{id:"block_display",Tags:[${Array.from({ length: n }, (_, i) => `"t${i}"`).join(',')}]}]`,
    ) +
    ',' +
    PARTS.slice(1)
      .map((p) => part(p))
      .join(',')
  const longId = (length) => `{id:"${'x'.repeat(length)}"}`
  return [
    vector(
      'limit',
      'maxCommandChars',
      exportOf({ frame: [commandOf(limits.maxCommandChars)] }),
      exportOf({ frame: [commandOf(limits.maxCommandChars + 1)] }),
      'length',
      FRAME_PATH,
      String(limits.maxCommandChars + 1),
    ),
    vector(
      'limit',
      'maxSnbtDepth',
      exportOf({ passengers: `${part(PARTS[0])},${nested(limits.maxSnbtDepth)}` }),
      exportOf({ passengers: `${part(PARTS[0])},${nested(limits.maxSnbtDepth + 1)}` }),
      'depth',
      PASSENGER_PATH,
      '[',
    ),
    vector(
      'limit',
      'maxNameChars',
      exportOf({ animations: animation(limits.maxNameChars) }),
      exportOf({ animations: animation(limits.maxNameChars + 1) }),
      'length',
      'content.datapack.anim_keyframes',
      String(limits.maxNameChars + 1),
    ),
    vector(
      'limit',
      'maxTextChars',
      exportOf({ passengers: named(limits.maxTextChars) }),
      exportOf({ passengers: named(limits.maxTextChars + 1) }),
      'length',
      PASSENGER_PATH,
      'CustomName',
    ),
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
      exportOf({ passengers: longId(limits.maxFoundChars + 1) }),
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
