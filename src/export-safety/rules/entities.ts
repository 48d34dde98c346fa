/**
 * The entities of a model: its parts (display entities, in `passengers` and their nested
 * `Passengers`) and its hitboxes (interactions). An entity may set only its type's keys; each
 * value was checked against its key's type as it was read (`snbt.ts`); here the entity's type,
 * its keys and its tags.
 */
import {
  UnsafeContent,
  MAX_OWN_TAGS,
  PART_KEYS,
  PASSENGER_KEYS,
  partTypeOf,
  type PartType,
} from '../types/index.js'
import type { SnbtValue } from '../syntax/index.js'

type Compound = SnbtValue & { kind: 'compound' }

/** The key of the entity id, of nested passengers and of the tags the check collects. */
const ID = 'id'
const PASSENGERS = 'Passengers'
const TAGS = 'Tags'

/**
 * Checks a passenger compound once it closed (its own passengers were checked as they closed,
 * `snbt.ts`): a display entity with its type's keys. Adds its tags to `ownTags`.
 */
export function checkPassenger(compound: Compound, ownTags: Set<string>): PartType {
  const type = displayTypeOf(compound)
  for (const [name, value] of compound.members) {
    if (name === PASSENGERS) {
      if (value?.kind !== 'list') throw new UnsafeContent('key', PASSENGERS)
      for (const passenger of value.items) {
        if (passenger.kind !== 'compound') throw new UnsafeContent('key', PASSENGERS)
        checkPassenger(passenger, ownTags)
      }
    } else if (!PASSENGER_KEYS.has(name)) {
      checkKey(type, name, value, ownTags)
    }
  }
  return type
}

/**
 * Checks the data a command sets on a part of type `type` (a `data merge` or a summon's
 * compound): its type's keys only, neither an id nor passengers. Adds its tags to `ownTags`
 * when given.
 */
export function checkPartData(type: PartType, compound: Compound, ownTags: Set<string> | null) {
  for (const [name, value] of compound.members) checkKey(type, name, value, ownTags)
}

function checkKey(
  type: PartType,
  name: string,
  value: SnbtValue | null,
  ownTags: Set<string> | null,
): void {
  if (!PART_KEYS[type].has(name)) throw new UnsafeContent('key', name)
  if (name === TAGS && ownTags !== null && value?.kind === 'list') {
    for (const tag of value.items) if (tag.kind === 'text') addOwnTag(ownTags, tag.value)
  }
}

/** Adds `tag` to `ownTags`: the `count` refusal once they are more than `MAX_OWN_TAGS`. */
export function addOwnTag(ownTags: Set<string>, tag: string): void {
  ownTags.add(tag)
  if (ownTags.size > MAX_OWN_TAGS) throw new UnsafeContent('count', 'tags')
}

/** The display type of a passenger: every `id` it writes must name a display entity. */
function displayTypeOf(compound: Compound): PartType {
  let type: PartType | null = null
  for (const [name, value] of compound.members) {
    if (name !== ID) continue
    const id = value?.kind === 'text' ? value.value : '(not a name)'
    const named = partTypeOf(id)
    if (named === null || named === 'interaction') throw new UnsafeContent('entity', id)
    // The game keeps the last of repeated keys; every one of them was checked.
    type = named
  }
  if (type === null) throw new UnsafeContent('entity', 'no id')
  return type
}
