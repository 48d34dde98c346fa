/**
 * The display-model vocabulary as data: the entities a model is made of, the keys they may set,
 * and the limits of the commands that animate them. Entity keys follow the game's documentation
 * of display entities and interactions for Minecraft Java Edition 1.21.4, the version the editor
 * exports for. Everything not listed here is outside the vocabulary.
 */

/** The game's own limit on a command's length, in UTF-16 code units (a command block's). */
export const MAX_COMMAND_CHARS = 32_500

/** Deepest nesting of SNBT compounds and lists accepted in a checked string. */
export const MAX_SNBT_DEPTH = 64

/** The namespace an entity or sound id may leave out. */
export const DEFAULT_NAMESPACE = 'minecraft:'

/** The entities a model is made of: its parts (in `passengers`) and its hitboxes. */
export type PartType = 'block_display' | 'item_display' | 'text_display' | 'interaction'

/** Keys every part may set: generic entity data that changes how it looks, never what it runs. */
const COMMON_KEYS = [
  'Tags',
  'Rotation',
  'Glowing',
  'CustomName',
  'CustomNameVisible',
  'Silent',
  'NoGravity',
  'Invulnerable',
]

/** Keys of every display entity (block, item and text). */
const DISPLAY_KEYS = [
  ...COMMON_KEYS,
  'transformation',
  'billboard',
  'brightness',
  'glow_color_override',
  'view_range',
  'shadow_radius',
  'shadow_strength',
  'width',
  'height',
  'interpolation_duration',
  'start_interpolation',
  'teleport_duration',
]

/**
 * The keys each part may set through `data merge entity` (and in a summon). `Passengers` is not
 * among them: only a passenger compound may carry passengers (`PASSENGER_KEYS`).
 */
export const PART_KEYS: Readonly<Record<PartType, ReadonlySet<string>>> = {
  block_display: new Set([...DISPLAY_KEYS, 'block_state']),
  item_display: new Set([...DISPLAY_KEYS, 'item', 'item_display']),
  text_display: new Set([
    ...DISPLAY_KEYS,
    'text',
    'alignment',
    'background',
    'default_background',
    'line_width',
    'see_through',
    'shadow',
    'text_opacity',
  ]),
  interaction: new Set([...COMMON_KEYS, 'width', 'height', 'response']),
}

/** Keys a passenger compound may set besides its type's: its id and its own passengers. */
export const PASSENGER_KEYS: ReadonlySet<string> = new Set(['id', 'Passengers'])

/** The entity a hitbox summons. */
export const HITBOX_TYPE = 'interaction'

/** The sound sources of `playsound` (the game's sound categories). */
export const SOUND_SOURCES: ReadonlySet<string> = new Set([
  'master',
  'music',
  'record',
  'weather',
  'block',
  'hostile',
  'neutral',
  'player',
  'ambient',
  'voice',
])

/** Selector arguments a `data merge entity` target may use beside `type` and `tag`. */
export const SELECTOR_EXTRA_ARGUMENTS: ReadonlySet<string> = new Set(['distance', 'limit', 'sort'])

/** Values of the selector argument `sort`. */
export const SELECTOR_SORTS: ReadonlySet<string> = new Set([
  'nearest',
  'furthest',
  'random',
  'arbitrary',
])

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
