/**
 * The types room's face: the vocabulary per version (vocabulary.json read once, the value types
 * its keys have, the key types an export's declared version reads), what a typed value may hold,
 * and the refusal the vocabulary's reasons name. Every other room of the check stands on it; it
 * imports none of them.
 */
export {
  UNSAFE_REASONS,
  UnsafeContent,
  unsafeExport,
  type UnsafeExport,
  type UnsafeReason,
} from './refusal.js'
export {
  jsonNumberMatches,
  jsonTextMatches,
  memberTypeOf,
  textFacts,
  type TextFacts,
  wordOrStringMatches,
} from './typed-tree.js'
export {
  acceptsShape,
  type CompoundType,
  type KeyTypes,
  isBooleanWord,
  isNumberWord,
  isStringWord,
  KEY_TYPES,
  pick,
  type Shape,
  type StringType,
  type ValueType,
} from './types.js'
export { keyTypesOf } from './versions.js'
export {
  CHECKED_NAMES,
  CLICK_KINDS,
  DATA_LIMITS,
  fetchedLength,
  HITBOX_TYPE,
  isInvisible,
  MAX_COMMAND_CHARS,
  MAX_NAME_CHARS,
  MAX_OWN_TAGS,
  MAX_PASSENGER_BYTES,
  MAX_SNBT_DEPTH,
  MAX_TEXT_CHARS,
  MEMBER_RULES,
  PART_KEYS,
  type PartType,
  partTypeOf,
  PASSENGER_KEYS,
  PATTERNS,
  PLACEHOLDER,
  PLACEHOLDER_GROWTH,
  placeholderGrowth,
  READER_MARKERS,
  REFUSED_TEXT_MEMBERS,
  SELECTOR_EXTRA_ARGUMENTS,
  SELECTOR_SORTS,
  SOUND_LIMITS,
  SOUND_SOURCES,
  visiblePart,
  WORLD_READING_KINDS,
} from './vocabulary.js'
