/**
 * One allowed and one refused export per word of src/export-safety/vocabulary.json (every
 * entity, key, command, selector argument, sort, sound source, pattern, text key, reader
 * marker, checked name, invisible range and limit), written to
 * test/vectors/export-safety/words.json for the TypeScript and the Java checks alike.
 * `node scripts/export-safety/write-words.mjs` rewrites the file; a test fails when it is stale.
 */
const P = '[MODELSERVERTAG]'
const PARTS = [
  ['block_display', `${P}_0`],
  ['item_display', `${P}_1`],
  ['text_display', `${P}_2`],
]
const HITBOX_TAG = `${P}_3`
const tagOf = (type) => (type === 'interaction' ? HITBOX_TAG : PARTS.find(([t]) => t === type)[1])
const part = ([type, tag], extra = '') => `{id:"minecraft:${type}",Tags:["${tag}"]${extra}}`
const FRAME_PATH = 'content.datapack.anim_keyframes.w.0[0]'
const PASSENGER_PATH = 'content.passengers[0]'
const swapCase = (word) =>
  (word[0] === word[0].toUpperCase() ? word[0].toLowerCase() : word[0].toUpperCase()) +
  word.slice(1)

/** An export: passengers (one string), frame commands (animation `w`, frame `0`), a hitbox. */
function exportOf({ passengers, frame, animations, contentExtra = '', rootPrefix = '' }) {
  const content = {
    datapack: {
      anim_keyframes: animations ?? {
        w: { 0: frame ?? [dataMerge('block_display', '{interpolation_duration:0}')] },
      },
    },
    hitbox: [`summon minecraft:interaction ~ ~ ~ {Tags:["${HITBOX_TAG}"]}`],
    passengers: [passengers ?? PARTS.map((p) => part(p)).join(',')],
    project_id: 'words',
  }
  const text = JSON.stringify(content)
  return `{${rootPrefix}"content":${text.slice(0, -1)}${contentExtra}}}`
}

function dataMerge(type, compound, selector = `@e[type=${type},tag=${tagOf(type)}]`) {
  return `data merge entity ${selector} ${compound}`
}

const playsound = (args) => `playsound ${args}`

/** A value of the type `ref` of `types` (a name or an inline type), in SNBT. */
function sampleOf(types, ref, depth = 0) {
  const type = typeof ref === 'string' ? types[ref] : ref
  if (typeof type === 'string') return sampleOf(types, type, depth)
  switch (type.kind) {
    case 'number': {
      const value = type.min ?? 1
      if (type.integer) return `${value}${type.suffixes[0]}`
      return `${value}.5${type.suffixes.includes('f') ? 'f' : type.suffixes[0]}`
    }
    case 'boolean':
      return '1b'
    case 'string':
      if (type.placeholder) return `"${P}_0"`
      return type.pattern === undefined ||
        new RegExp(`^(?:${type.pattern})$`).test('minecraft:stone')
        ? '"minecraft:stone"'
        : '"x"'
    case 'enum':
      return `"${type.values[0]}"`
    case 'list':
      return `[${Array.from({ length: type.length ?? 1 }, () => sampleOf(types, type.of, depth + 1)).join(',')}]`
    case 'array':
      return `[${type.prefix};${Array.from({ length: type.length ?? 1 }, () => '1').join(',')}]`
    case 'compound': {
      const names = Object.keys(type.members).slice(0, depth < 2 ? undefined : 1)
      const name = (n) => (/^[A-Za-z0-9_]+$/.test(n) ? n : `"${n}"`)
      return `{${names.map((n) => `${name(n)}:${sampleOf(types, type.members[n], depth + 1)}`).join(',')}}`
    }
    case 'oneOf':
      return sampleOf(types, type.of[0], depth)
    case 'text':
      return `'{"text":"x","bold":true}'`
  }
  throw new Error(`no sample of ${JSON.stringify(type)}`)
}

/** A value of another shape than any the type `ref` reads. */
function wrongOf(types, ref) {
  const type = typeof ref === 'string' ? types[ref] : ref
  if (typeof type === 'string') return wrongOf(types, type)
  const kinds =
    type.kind === 'oneOf'
      ? type.of.map((t) => (typeof t === 'string' ? types[t] : t).kind)
      : [type.kind]
  return kinds.some((kind) => ['number', 'boolean', 'enum'].includes(kind)) ? '{}' : '1b'
}

let vocabularyTypes = {}

/** A value each key accepts: of its type. */
function valueOf(key, type) {
  if (key === 'Tags') return `["${tagOf(type)}"]`
  return sampleOf(vocabularyTypes, vocabularyKeyTypes[key])
}

let vocabularyKeyTypes = {}

export function wordVectors(vocabulary) {
  vocabularyTypes = vocabulary.types
  vocabularyKeyTypes = vocabulary.keyTypes
  const words = []
  const add = (kind, word, allowed, refused, reason, path, found) =>
    words.push({ kind, word, allowed, refused, reason, path, found })

  for (const [type, { keys }] of Object.entries(vocabulary.entities)) {
    const wrong = `minecraft:${swapCase(type)}`
    if (type === 'interaction') {
      add(
        'entity',
        type,
        exportOf({ frame: [`playsound a.b block @a ~ ~ ~`] }),
        exportOf({}).replace(`summon minecraft:interaction`, `summon ${wrong}`),
        'entity',
        'content.hitbox[0]',
        wrong,
      )
    } else {
      add(
        'entity',
        type,
        exportOf({
          passengers: part([type, tagOf(type)]),
          frame: [dataMerge(type, '{Glowing:1b}')],
        }),
        exportOf({ passengers: `{id:"${wrong}"}` }),
        'entity',
        PASSENGER_PATH,
        wrong,
      )
    }
    for (const key of keys) {
      const other = swapCase(key)
      if (keys.includes(other)) throw new Error(`${other} is a key of ${type}`)
      add(
        `key of ${type}`,
        key,
        exportOf({ frame: [dataMerge(type, `{${key}:${valueOf(key, type)}}`)] }),
        exportOf({ frame: [dataMerge(type, `{${other}:${valueOf(key, type)}}`)] }),
        'key',
        FRAME_PATH,
        other,
      )
    }
  }
  for (const key of vocabulary.passengerKeys) {
    const nested = part(PARTS[0], `,Passengers:[${part(PARTS[1])}]`)
    if (key === 'id') {
      add(
        'passenger key',
        key,
        exportOf({ passengers: nested }),
        exportOf({ passengers: `{ID:"minecraft:block_display"}` }),
        'entity',
        PASSENGER_PATH,
        'no id',
      )
    } else {
      add(
        'passenger key',
        key,
        exportOf({ passengers: nested }),
        exportOf({ passengers: part(PARTS[0], `,passengers:[${part(PARTS[1])}]`) }),
        'key',
        PASSENGER_PATH,
        'passengers',
      )
    }
  }
  for (const command of vocabulary.commands.frame) {
    const allowed =
      command === 'playsound'
        ? playsound('a.b block @a ~ ~ ~')
        : dataMerge('block_display', '{Glowing:1b}')
    const first = allowed.split(' ')[0]
    add(
      'frame command',
      command,
      exportOf({ frame: [allowed] }),
      exportOf({ frame: [swapCase(first) + allowed.slice(first.length)] }),
      'command',
      FRAME_PATH,
      swapCase(first),
    )
  }
  for (const command of vocabulary.commands.hitbox) {
    add(
      'hitbox command',
      command,
      exportOf({}),
      exportOf({}).replace(
        '"summon minecraft:interaction',
        `"${swapCase(command)} minecraft:interaction`,
      ),
      'command',
      'content.hitbox[0]',
      swapCase(command),
    )
  }
  const argumentValue = {
    type: 'block_display',
    tag: `${P}_0`,
    distance: '..1',
    limit: '1',
    sort: 'nearest',
  }
  for (const argument of vocabulary.selectorArguments) {
    const others = Object.entries(argumentValue).filter(([name]) => name !== argument)
    const selector = (name) =>
      `@e[${[[name, argumentValue[argument]], ...others].map(([n, v]) => `${n}=${v}`).join(',')}]`
    add(
      'selector argument',
      argument,
      exportOf({ frame: [dataMerge('block_display', '{Glowing:1b}', selector(argument))] }),
      exportOf({
        frame: [dataMerge('block_display', '{Glowing:1b}', selector(swapCase(argument)))],
      }),
      'selector',
      FRAME_PATH,
      `${swapCase(argument)}=${argumentValue[argument]}`,
    )
  }
  for (const sort of vocabulary.selectorSorts) {
    const selector = (value) => `@e[type=block_display,tag=${P}_0,sort=${value}]`
    add(
      'selector sort',
      sort,
      exportOf({ frame: [dataMerge('block_display', '{Glowing:1b}', selector(sort))] }),
      exportOf({ frame: [dataMerge('block_display', '{Glowing:1b}', selector(swapCase(sort)))] }),
      'selector',
      FRAME_PATH,
      `sort=${swapCase(sort)}`,
    )
  }
  for (const source of vocabulary.soundSources) {
    add(
      'sound source',
      source,
      exportOf({ frame: [playsound(`a.b ${source} @a ~ ~ ~`)] }),
      exportOf({ frame: [playsound(`a.b ${swapCase(source)} @a ~ ~ ~`)] }),
      'syntax',
      FRAME_PATH,
      swapCase(source),
    )
  }
  const samples = {
    number: ['a.b block @a ~ ~ ~ 1.5', 'a.b block @a ~ ~ ~ 1,5', 'syntax', '1,5'],
    coordinate: ['a.b block @a ^1 -2.5 ~.5', 'a.b block @a ~~ ~ ~', 'syntax', '~~'],
    soundId: [
      'minecraft:block.note_block.harp block @a ~ ~ ~',
      'Block.harp block @a ~ ~ ~',
      'syntax',
      'Block.harp',
    ],
    playsoundTargets: ['a.b block @a[distance=..5] ~ ~ ~', 'a.b block @e ~ ~ ~', 'selector', '@e'],
  }
  for (const [name, [allowed, refused, reason, found]] of Object.entries(samples)) {
    add(
      'pattern',
      name,
      exportOf({ frame: [playsound(allowed)] }),
      exportOf({ frame: [playsound(refused)] }),
      reason,
      FRAME_PATH,
      found,
    )
  }
  for (const [name, good, bad] of [
    ['distance', '0.5..2', '1..2..3'],
    ['limit', '3', '-1'],
  ]) {
    const selector = (value) => `@e[type=block_display,tag=${P}_0,${name}=${value}]`
    add(
      'pattern',
      name,
      exportOf({ frame: [dataMerge('block_display', '{Glowing:1b}', selector(good))] }),
      exportOf({ frame: [dataMerge('block_display', '{Glowing:1b}', selector(bad))] }),
      'selector',
      FRAME_PATH,
      `${name}=${bad}`,
    )
  }
  const reading = (kind) => `{"${kind}":"@s"}`
  for (const kind of vocabulary.text.worldReadingKinds) {
    add(
      'world-reading text',
      kind,
      exportOf({ frame: [dataMerge('text_display', `{text:'${reading('text')}'}`)] }),
      exportOf({ frame: [dataMerge('text_display', `{text:'${reading(kind)}'}`)] }),
      'text',
      FRAME_PATH,
      kind,
    )
  }
  for (const key of Object.keys(vocabulary.keyTypes).filter(
    (k) => vocabulary.keyTypes[k] === 'text',
  )) {
    add(
      'text key',
      key,
      exportOf({ frame: [dataMerge('text_display', `{${key}:'${reading('text')}'}`)] }),
      exportOf({ frame: [dataMerge('text_display', `{${key}:'${reading('selector')}'}`)] }),
      'text',
      FRAME_PATH,
      'selector',
    )
  }
  for (const [key, ref] of Object.entries(vocabulary.keyTypes)) {
    const type =
      PARTS.map(([t]) => t).find((t) => vocabulary.entities[t].keys.includes(key)) ?? 'interaction'
    if (key === 'Tags') continue
    add(
      'key type',
      key,
      exportOf({ frame: [dataMerge(type, `{${key}:${sampleOf(vocabulary.types, ref)}}`)] }),
      exportOf({ frame: [dataMerge(type, `{${key}:${wrongOf(vocabulary.types, ref)}}`)] }),
      'type',
      FRAME_PATH,
      key,
    )
  }
  const components = vocabulary.types.components
  const item = (name, value) => `{item:{id:"minecraft:stone",components:{"${name}":${value}}}}`
  for (const [name, ref] of Object.entries(components.members)) {
    add(
      'item component',
      name,
      exportOf({ frame: [dataMerge('item_display', item(name, sampleOf(vocabulary.types, ref)))] }),
      exportOf({
        frame: [dataMerge('item_display', item(`${name}_`, sampleOf(vocabulary.types, ref)))],
      }),
      'component',
      FRAME_PATH,
      `${name}_`,
    )
  }
  for (const name of Object.keys(vocabulary.refusedComponents)) {
    add(
      'refused component',
      name,
      exportOf({
        frame: [dataMerge('item_display', item('minecraft:item_model', '"minecraft:stone"'))],
      }),
      exportOf({ frame: [dataMerge('item_display', item(name, '{}'))] }),
      'component',
      FRAME_PATH,
      name,
    )
  }
  for (const letter of ['x', 'u', 'U', 'N', 'b', 's', 't', 'n', 'f', 'r', '"']) {
    const name = (text) => `{CustomName:'"${text}"'}`
    add(
      'escape',
      letter,
      exportOf({ frame: [dataMerge('block_display', name("it\\'s"))] }),
      exportOf({ frame: [dataMerge('block_display', name(`\\${letter}73`))] }),
      'escape',
      FRAME_PATH,
      `\\${letter}`,
    )
  }
  add(
    'placeholder',
    P,
    exportOf({}),
    exportOf({ frame: [dataMerge('block_display', `{CustomName:'"${P}_0"'}`)] }),
    'placeholder',
    FRAME_PATH,
    'CustomName',
  )
  for (const marker of vocabulary.readerMarkers) {
    // A JSON string cannot hold a bare `"`: that marker stands in a JSON text object.
    const inObject = marker.includes('"')
    const harmless = inObject
      ? '{"italic":true}'
      : `"${marker.slice(0, -1)}${marker.startsWith('{') ? '}' : ''}"`
    const holding = inObject ? `${marker}1}` : `"${marker}${marker.startsWith('{') ? '}' : ''}"`
    const name = (text) => part(PARTS[0], `,CustomName:'${text}'`)
    add(
      'reader marker',
      marker,
      exportOf({ passengers: name(harmless) }),
      exportOf({ passengers: name(holding) }),
      'reader',
      PASSENGER_PATH,
      marker,
    )
  }
  for (const [place, names] of Object.entries(vocabulary.names)) {
    for (const name of names) {
      const hidden = `\u200b${name}`
      const path =
        place === 'root'
          ? '["\\u200bcontent"]'
          : `${place === 'content' ? 'content' : 'content.datapack'}["\\u200b${name}"]`
      const refused =
        place === 'root'
          ? exportOf({ rootPrefix: `${JSON.stringify(hidden)}:{},` })
          : place === 'content'
            ? exportOf({ contentExtra: `,${JSON.stringify(hidden)}:[]` })
            : exportOf({}).replace('"datapack":{', `"datapack":{${JSON.stringify(hidden)}:{},`)
      add(`${place} name`, name, exportOf({}), refused, 'member', path, `\\u200b${name}`)
    }
  }
  for (const [from] of vocabulary.invisible) {
    const char = String.fromCodePoint(parseInt(from, 16))
    const spelled =
      [...char].length &&
      Array.from(
        { length: char.length },
        (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`,
      ).join('')
    add(
      'invisible',
      from,
      exportOf({ contentExtra: `,"meta":{${JSON.stringify(`note${char}`)}:1}` }),
      exportOf({ contentExtra: `,${JSON.stringify(`hit${char}box`)}:1` }),
      'member',
      `content["hit${spelled}box"]`,
      `hit${spelled}box`,
    )
  }
  const limits = vocabulary.limits
  // A command of `length` as counted: its placeholder as the longest tag it may become. Its
  // length is an item's lore lines, each a text of at most `maxTextChars`, so that only the
  // command's own length counts.
  const growth = limits.maxTagChars - vocabulary.placeholder.length
  const commandOf = (length) => {
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
  add(
    'limit',
    'maxCommandChars',
    exportOf({ frame: [commandOf(limits.maxCommandChars)] }),
    exportOf({ frame: [commandOf(limits.maxCommandChars + 1)] }),
    'length',
    FRAME_PATH,
    String(limits.maxCommandChars + 1),
  )
  const nested = (depth) =>
    `{id:"minecraft:block_display",CustomName:${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`
  add(
    'limit',
    'maxSnbtDepth',
    exportOf({ passengers: `${part(PARTS[0])},${nested(limits.maxSnbtDepth)}` }),
    exportOf({ passengers: `${part(PARTS[0])},${nested(limits.maxSnbtDepth + 1)}` }),
    'depth',
    PASSENGER_PATH,
    '[',
  )
  const animation = (length) => ({
    ['a'.repeat(length)]: { 0: [dataMerge('block_display', '{Glowing:1b}')] },
  })
  add(
    'limit',
    'maxNameChars',
    exportOf({ animations: animation(limits.maxNameChars) }),
    exportOf({ animations: animation(limits.maxNameChars + 1) }),
    'length',
    'content.datapack.anim_keyframes',
    String(limits.maxNameChars + 1),
  )
  // A part's name: JSON text of `length` characters, `{"text":"x..."}`.
  const named = (length) =>
    `${PARTS.map((p, i) => part(p, i === 0 ? `,CustomName:'{"text":"${'x'.repeat(length - 11)}"}'` : '')).join(',')}`
  add(
    'limit',
    'maxTextChars',
    exportOf({ passengers: named(limits.maxTextChars) }),
    exportOf({ passengers: named(limits.maxTextChars + 1) }),
    'length',
    PASSENGER_PATH,
    'CustomName',
  )
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
  add(
    'limit',
    'maxOwnTags',
    exportOf({ passengers: tags(limits.maxOwnTags - 4) }),
    exportOf({ passengers: tags(limits.maxOwnTags - 2) }),
    'count',
    PASSENGER_PATH,
    'tags',
  )
  const longId = (length) => `{id:"${'x'.repeat(length)}"}`
  add(
    'limit',
    'maxFoundChars',
    exportOf({}),
    exportOf({ passengers: longId(limits.maxFoundChars + 1) }),
    'entity',
    PASSENGER_PATH,
    `${'x'.repeat(limits.maxFoundChars - 1)}\u2026`,
  )
  add(
    'placeholder',
    vocabulary.placeholder,
    exportOf({}),
    exportOf({
      passengers: `${PARTS.map((p) => part(p)).join(',')},{id:"minecraft:block_display",Tags:["x_0"]}`,
      frame: [dataMerge('block_display', '{Glowing:1b}', '@e[type=block_display,tag=x_0]')],
    }),
    'selector',
    FRAME_PATH,
    'tag=x_0',
  )
  add(
    'namespace',
    vocabulary.defaultNamespace,
    exportOf({
      passengers: `${part(PARTS[0], `,Passengers:[{id:"block_display",Tags:["${P}_4"]}]`)},${PARTS.slice(
        1,
      )
        .map((p) => part(p))
        .join(',')}`,
    }),
    exportOf({ passengers: `{id:"minecraft2:block_display"}` }),
    'entity',
    PASSENGER_PATH,
    'minecraft2:block_display',
  )
  return words
}
