/**
 * The display-model vocabulary, read from `vocabulary.json`: the one data file that the
 * TypeScript check uses and the Java client's tests compare their own tables with, so a word
 * added or dropped on one side fails the other's tests. Entity keys follow the game's
 * documentation of display entities and interactions for Minecraft Java Edition 1.21.4, the
 * version the editor exports for. Everything not listed there is outside the vocabulary.
 */
import data from './vocabulary.json' with { type: 'json' }

/** The game's own limit on a command's length, in UTF-16 code units (a command block's). */
export const MAX_COMMAND_CHARS: number = data.limits.maxCommandChars

/** Deepest nesting of SNBT compounds and lists accepted in a checked string. */
export const MAX_SNBT_DEPTH: number = data.limits.maxSnbtDepth

/** Longest member name (UTF-16 code units) in a checked object: an animation's, a frame's. */
export const MAX_NAME_CHARS: number = data.limits.maxNameChars

/**
 * Longest text (a text display's `text`, a `CustomName`, an item's name or lore line), in UTF-16
 * code units: a quoted one as decoded, one written as SNBT as written. The longest real one is
 * 304 (a styled JSON board); this is some 27 times that.
 */
export const MAX_TEXT_CHARS: number = data.limits.maxTextChars

/**
 * Most bytes of passenger strings (`passengers` and `Passengers` together), as the document
 * spells them between their quotes: the largest real export has 62,293 for 80 displays (780 a
 * display), so this holds some 2,700 displays, 20 times the largest real model (136). Each
 * string is decoded whole before its SNBT is read; this bounds what decoding and reading all of
 * them cost.
 */
export const MAX_PASSENGER_BYTES: number = data.limits.maxPassengerBytes

/** Most distinct tags a model's parts may carry (the largest real model carries 136). */
export const MAX_OWN_TAGS: number = data.limits.maxOwnTags

/** Longest `found` of a refusal, in UTF-16 code units; a longer one is cut and ends in `…`. */
export const MAX_FOUND_CHARS: number = data.limits.maxFoundChars

/** Longest path a refusal's message repeats (the `path` member stays whole). */
export const MAX_MESSAGE_PATH_CHARS: number = data.limits.maxMessagePathChars

/** The tag placeholder of the published form; a fetched export holds the caller's tag there. */
export const PLACEHOLDER: string = data.placeholder

/**
 * What a placeholder may add to a text when fetched: the longest tag a caller may ask for
 * (`maxTagChars`) less the placeholder's own length. Lengths are counted with it, so that an
 * export accepted as published is accepted as fetched with any tag.
 */
export const PLACEHOLDER_GROWTH: number = data.limits.maxTagChars - data.placeholder.length

/** What the placeholders in `text` may add to it when fetched (`PLACEHOLDER_GROWTH` each). */
export function placeholderGrowth(text: string): number {
  let growth = 0
  for (let at = text.indexOf(PLACEHOLDER); at >= 0; at = text.indexOf(PLACEHOLDER, at + 1)) {
    growth += PLACEHOLDER_GROWTH
  }
  return growth
}

/**
 * The length of `text` counting each placeholder as the longest tag it may become, as far as
 * `limit` is concerned: a text too short for any placeholder to bring it over `limit` is not
 * searched.
 */
export function fetchedLength(text: string, limit: number): number {
  // Each placeholder grows at most (16 + growth) / 16 times: a shorter text stays in bounds.
  if (text.length * (1 + PLACEHOLDER_GROWTH / PLACEHOLDER.length) <= limit) return text.length
  return text.length + placeholderGrowth(text)
}

/** The namespace an entity or sound id may leave out. */
export const DEFAULT_NAMESPACE: string = data.defaultNamespace

/** The member names the check reads, by the object they sit in. */
export const CHECKED_NAMES = {
  root: data.names.root,
  content: data.names.content,
  datapack: data.names.datapack,
} as const

/** How a member of `content` that no plugin runs is typed (`vocabulary.json`'s `members`). */
export type MemberRule =
  | { json: 'string'; pattern: RegExp }
  | { json: 'number'; min: number; max: number }
  | { json: 'boolean'; only: boolean }
  | { json: 'data' }

/** The members of `content` read as data, not run: each one's JSON type and bounds. */
export const MEMBER_RULES: ReadonlyMap<string, MemberRule> = new Map(
  Object.entries(data.members).map(([name, rule]): [string, MemberRule] => {
    if ('pattern' in rule)
      return [name, { json: 'string', pattern: new RegExp(`^(?:${rule.pattern})$`) }]
    if ('min' in rule) return [name, { json: 'number', min: rule.min, max: rule.max }]
    if ('only' in rule) return [name, { json: 'boolean', only: rule.only }]
    return [name, { json: 'data' }]
  }),
)

/** Bounds of the plain data a `data` member holds: its nesting below it, each string's length. */
export const DATA_LIMITS = {
  maxDepth: data.data.maxDepth,
  maxStringChars: data.data.maxStringChars,
} as const

/** The entities a model is made of: its parts (in `passengers`) and its hitboxes. */
export type PartType = 'block_display' | 'item_display' | 'text_display' | 'interaction'

/**
 * The keys each part may set through `data merge entity` (and in a summon). `Passengers` is not
 * among them: only a passenger compound may carry passengers (`PASSENGER_KEYS`).
 */
export const PART_KEYS: Readonly<Record<PartType, ReadonlySet<string>>> = {
  block_display: new Set(data.entities.block_display.keys),
  item_display: new Set(data.entities.item_display.keys),
  text_display: new Set(data.entities.text_display.keys),
  interaction: new Set(data.entities.interaction.keys),
}

/** Keys a passenger compound may set besides its type's: its id and its own passengers. */
export const PASSENGER_KEYS: ReadonlySet<string> = new Set(data.passengerKeys)

/** The entity a hitbox summons. */
export const HITBOX_TYPE = 'interaction'

/**
 * The loudest a frame's `playsound` may be: its volume (16 blocks per 1.0 of it) and its minimum
 * volume, which plays the sound to every targeted player however far (0: only within range).
 */
export const SOUND_LIMITS = data.sound

/** The sound sources of `playsound` (the game's sound categories). */
export const SOUND_SOURCES: ReadonlySet<string> = new Set(data.soundSources)

/** Selector arguments a `data merge entity` target may use beside `type` and `tag`. */
export const SELECTOR_EXTRA_ARGUMENTS: ReadonlySet<string> = new Set(
  data.selectorArguments.filter((name) => name !== 'type' && name !== 'tag'),
)

/** Values of the selector argument `sort`. */
export const SELECTOR_SORTS: ReadonlySet<string> = new Set(data.selectorSorts)

/** The word patterns of commands, each matching a whole word. */
export const PATTERNS: Readonly<Record<keyof typeof data.patterns, RegExp>> = Object.fromEntries(
  Object.entries(data.patterns).map(([name, source]) => [name, new RegExp(`^${source}$`)]),
) as Record<keyof typeof data.patterns, RegExp>

/** JSON text components that read the world when the game resolves them. */
export const WORLD_READING_KINDS: readonly string[] = data.text.worldReadingKinds

/** The members of a text component that act when a player clicks it (run, suggest, open). */
export const CLICK_KINDS: readonly string[] = data.text.clickKinds

/** The members a text may not hold anywhere: world-reading kinds, then click events. */
export const REFUSED_TEXT_MEMBERS: readonly string[] = [...WORLD_READING_KINDS, ...CLICK_KINDS]

/** What a plugin's own passenger reader takes for an entity's start (docs: the readers). */
export const READER_MARKERS: readonly string[] = data.readerMarkers

/** Code points a reader does not see (format characters, a BOM, fillers, variation selectors). */
const INVISIBLE: ReadonlyArray<readonly [number, number]> = data.invisible.map(
  ([from, to]) => [parseInt(from!, 16), parseInt(to!, 16)] as const,
)

/** Whether the code point `code` is one a reader does not see. */
export function isInvisible(code: number): boolean {
  for (const [from, to] of INVISIBLE) if (code >= from && code <= to) return true
  return false
}

/** `name` without the code points a reader does not see. */
export function visiblePart(name: string): string {
  let visible = ''
  for (const char of name) if (!isInvisible(char.codePointAt(0)!)) visible += char
  return visible
}

/** The part type an entity id names (namespace optional), or null when it names none. */
export function partTypeOf(id: string): PartType | null {
  const name = id.startsWith(DEFAULT_NAMESPACE) ? id.slice(DEFAULT_NAMESPACE.length) : id
  return name === 'block_display' ||
    name === 'item_display' ||
    name === 'text_display' ||
    name === 'interaction'
    ? name
    : null
}
