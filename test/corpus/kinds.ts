/**
 * What each part kind looks like in an export: how the coverage test checks that an entry holds
 * the kinds its manifest entry claims, so a claim cannot stand in for a missing shape.
 */

/** The parts of a published document the kinds are read from. */
interface Parts {
  /** Every passenger string and frame command, decoded, joined: a frame may change a part's item. */
  passengers: string
  /** The value of every `text:` key of the passengers, as written. */
  texts: string[]
  hitbox: string[]
  animations: number
  soundFrames: number
}

function partsOf(text: string): Parts {
  const content = (JSON.parse(text) as { content: Record<string, unknown> }).content
  const passengers = (content.passengers as string[] | undefined) ?? []
  const datapack = (content.datapack ?? {}) as Record<string, Record<string, object> | undefined>
  const frames = [datapack.anim_keyframes, datapack.sound_keyframes].flatMap((animations) =>
    Object.values(animations ?? {}).flatMap((animation) =>
      Object.values(animation as Record<string, string[]>).flat(),
    ),
  )
  const joined = [...passengers, ...frames].join(',')
  return {
    passengers: joined,
    texts: [...joined.matchAll(TEXT_VALUE)].map((match) => match[1]!),
    hitbox: (content.hitbox as string[] | undefined) ?? [],
    animations: Object.keys(datapack.anim_keyframes ?? {}).length,
    soundFrames: Object.values(datapack.sound_keyframes ?? {}).reduce(
      (frames, animation) => frames + Object.keys(animation).length,
      0,
    ),
  }
}

/** A text display's `text:` value: JSON in a single-quoted string, or an SNBT list or compound. */
const TEXT_VALUE = /[{,]text:('(?:[^'\\]|\\.)*'|\[\{[^\]]*\]|\{[^}]*\})/g

const STYLE = '(?:bold|italic|underlined|strikethrough|obfuscated)'

/** Each kind's test on an export's parts. */
const KIND_TESTS: Record<string, (parts: Parts) => boolean> = {
  block: (p) => p.passengers.includes('id:"minecraft:block_display"'),
  item: (p) => p.passengers.includes('id:"minecraft:item_display"'),
  'item-head-skullowner': (p) => /tag:\{SkullOwner:\{Id:/.test(p.passengers),
  'item-head-profile': (p) => /"minecraft:profile":\{[^{}]*properties:/.test(p.passengers),
  'item-head-name': (p) =>
    /SkullOwner:"|"minecraft:profile":(?:"|\{name:"[^"]*"\})/.test(p.passengers),
  'item-dyed': (p) => /display:\{color:|"minecraft:dyed_color":/.test(p.passengers),
  'item-enchanted': (p) =>
    /Enchantments:\[|"minecraft:(?:stored_)?enchantments":|"minecraft:enchantment_glint_override":/.test(
      p.passengers,
    ),
  'item-banner': (p) =>
    /BlockEntityTag:\{Patterns:|"minecraft:banner_patterns":/.test(p.passengers),
  'item-potion': (p) => /tag:\{Potion:|"minecraft:potion_contents":/.test(p.passengers),
  'item-firework': (p) =>
    /Explosion:\{|"minecraft:firework_explosion":|"minecraft:fireworks":/.test(p.passengers),
  'item-custom-model-data': (p) =>
    /CustomModelData:|"minecraft:custom_model_data":/.test(p.passengers),
  text: (p) => p.passengers.includes('id:"minecraft:text_display"'),
  'text-json': (p) => p.texts.some((text) => /^'\[?\{"/.test(text)),
  'text-snbt': (p) => p.texts.some((text) => /^\[?\{text:/.test(text)),
  'text-styled': (p) =>
    p.texts.some((text) => new RegExp(`"?(?:${STYLE}"?:(?:true|"true"|1b)|color"?:)`).test(text)),
  'text-string-booleans': (p) =>
    p.texts.some((text) => new RegExp(`"${STYLE}":"(?:true|false)"`).test(text)),
  interaction: (p) =>
    p.hitbox.some((command) => /^summon (?:minecraft:)?interaction /.test(command)),
  animation: (p) => p.animations > 0,
  sound: (p) => p.soundFrames > 0,
}

/** The kinds an export holds, in CORPUS_KINDS order. */
export function kindsOf(text: string, kinds: readonly string[]): string[] {
  const parts = partsOf(text)
  return kinds.filter((kind) => {
    const test = KIND_TESTS[kind]
    if (test === undefined) throw new Error(`no test for the part kind ${kind}`)
    return test(parts)
  })
}
