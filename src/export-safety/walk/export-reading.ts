/**
 * What the check reads of an export, gathered while the JSON scanner (src/json/) passes over it
 * once: at publish in the validator's own pass, elsewhere in a pass of the check's. As a
 * `JsonObserver`, it watches only the root, `content`, `datapack`, the lists of strings and the
 * keyframes (animation → frame → strings), and keeps their member names' refusals and their
 * values' offsets, never a string: the check decodes one string at a time afterwards. Everything
 * else the scanner passes over unwatched, at its own speed.
 */
import type { JsonKind, JsonObserver, JsonStrings } from '../../json/index.js'
import { elementPath, memberPath, spellName } from './json-path.js'
import {
  UnsafeContent,
  unsafeExport,
  type UnsafeExport,
  CHECKED_NAMES,
  DATA_LIMITS,
  MAX_NAME_CHARS,
  MEMBER_RULES,
  fetchedLength,
  visiblePart,
} from '../types/index.js'

/** A value as read: where it is, and, for a list of strings, where each element is. */
export interface JsonNode {
  type: JsonKind
  /** Its first byte. */
  start: number
  /** Just after its last byte; its first byte for a value of an unchecked shape. */
  end: number
  /** A list read by elements: each element's start and end, two numbers each. */
  elements?: Uint32Array
}

/** An object read with its members' names checked. */
export interface CheckedObject {
  /** Its checked members (a repeated one: first place, last value). */
  members: Map<string, JsonNode>
  /** Those of them read as checked objects themselves (the last value, when an object). */
  objects: Map<string, CheckedObject>
  /** Keyframes read with their parts' offsets (the last value; absent when over the budget). */
  records: Map<string, number[]>
  /** The first of its member names refused, in document order. */
  refusal: UnsafeExport | null
  /** Its members read as plain data (`MEMBER_RULES`): the first refusal in the last value. */
  data: Map<string, DataReading>
}

/** What the reading of one plain-data member found: its first refusal, or null. */
export interface DataReading {
  refusal: UnsafeExport | null
}

/** The root member that holds the export (docs/api.md#the-body). */
export const CONTENT = 'content'
export const DATAPACK = 'datapack'
/** The members of `content` that hold strings a plugin runs, or lists of them. */
const LISTS = ['passengers', 'Passengers', 'hitbox', 'commands']
/** The checked names of the objects read inside the root and `content`. */
const INNER_NAMES: Readonly<Record<string, readonly string[]>> = {
  [CONTENT]: CHECKED_NAMES.content,
  [DATAPACK]: CHECKED_NAMES.datapack,
}

/**
 * Numbers kept of keyframes (4 an animation, 5 a frame): real models have a few hundred
 * frames; keyframes with more are read again, a frame at a time, when checked (`KeyframeStream`).
 */
const KEYFRAME_RECORD_BUDGET = 1 << 16

/**
 * Element offsets, outside the JavaScript heap, so that a model's many frames add no objects for
 * the collector to copy. A full store is replaced by a larger one: the lists read before keep
 * their views of it.
 */
export class Offsets {
  private store = new Uint32Array(1024)
  count = 0
  /** The slot of the end of the string element being read; -1 when none is. */
  private pending = -1

  /**
   * An element of a list read by elements begins at `offset` (an observer's `element`): kept,
   * and watched when a string, whose end `stringEnd` takes.
   */
  element(kind: JsonKind, offset: number): boolean {
    if (this.count + 2 > this.store.length) {
      const larger = new Uint32Array(this.store.length * 2)
      larger.set(this.store)
      this.store = larger
    }
    this.store[this.count++] = offset
    this.store[this.count++] = offset
    if (kind !== 'string') return false
    this.pending = this.count - 1
    return true
  }

  /** Takes `offset` as the end of the string element being read; false when none is. */
  stringEnd(offset: number): boolean {
    if (this.pending < 0) return false
    this.store[this.pending] = offset
    this.pending = -1
    return true
  }

  /** The elements pushed since index `first`, as a view. */
  since(first: number): Uint32Array {
    return this.store.subarray(first, this.count)
  }

  /** `count` elements from index `first`. */
  at(first: number, count: number): Uint32Array {
    return this.store.subarray(first, first + 2 * count)
  }
}

/** A watched level of the document, innermost last on the reading's stack. */
type Level =
  | {
      kind: 'object'
      read: CheckedObject
      path: string
      checked: readonly string[]
      /** Every name but the checked ones is refused (the root). */
      only: boolean
      parent: CheckedObject | null
      name: string
      start: number
    }
  | {
      kind: 'keyframes'
      parent: CheckedObject
      name: string
      start: number
      records: number[] | null
      mark: number
    }
  | { kind: 'animation'; keyframes: Level & { kind: 'keyframes' }; head: number }
  | { kind: 'list'; parent: CheckedObject; name: string; start: number; first: number }
  | {
      kind: 'data'
      reading: DataReading
      member: string
      path: string
      depth: number
      index: number
    }
  | {
      kind: 'frame'
      keyframes: Level & { kind: 'keyframes' }
      nameStart: number
      nameEnd: number
      start: number
      first: number
    }

/**
 * Reads, as the scanner reports, the root object, `content` and `datapack` (their names checked
 * on the way: `checkName`), the lists of `content` by elements, and keyframes with their parts'
 * offsets (per animation its name's start and end, its value's offset and its frame count, -1:
 * not an object; then per frame its name's start and end, its value's offset, and the index and
 * count of its elements in `offsets`, -1: not an array).
 */
export class ExportReading implements JsonObserver {
  /** The root object once read; null when the root is another value. */
  document: CheckedObject | null = null
  readonly offsets = new Offsets()
  private readonly strings: JsonStrings
  private readonly levels: Level[] = []
  /** The member whose string is being read. */
  private pendingMember: { parent: CheckedObject; name: string; start: number } | null = null
  /** The string of plain data being read. */
  private pendingData: {
    reading: DataReading
    member: string
    path: string
    start: number
  } | null = null

  constructor(strings: JsonStrings) {
    this.strings = strings
  }

  /** The root: read when it is an object (what the check reads of any other is nothing). */
  root(kind: JsonKind, offset: number): boolean {
    if (kind !== 'object') return false
    this.levels.push(objectLevel('', CHECKED_NAMES.root, true, null, '', offset))
    return true
  }

  member(nameStart: number, nameEnd: number, kind: JsonKind, offset: number): boolean {
    const level = this.levels[this.levels.length - 1]!
    if (level.kind === 'object') return this.objectMember(level, nameStart, nameEnd, kind, offset)
    if (level.kind === 'data') {
      if (level.reading.refusal !== null) return false
      const name = this.strings.name(nameStart, nameEnd)
      if (nameLength(name) > MAX_NAME_CHARS) {
        level.reading.refusal = unsafeExport(
          level.path,
          new UnsafeContent('length', String(nameLength(name)), 'name'),
        )
        return false
      }
      return this.dataValue(level, memberPath(level.path, name), kind, offset)
    }
    if (level.kind === 'keyframes') {
      const records = level.records
      if (records === null) return false
      if (kind !== 'object') {
        records.push(nameStart, nameEnd, offset, -1)
        return false
      }
      this.levels.push({ kind: 'animation', keyframes: level, head: records.length })
      records.push(nameStart, nameEnd, offset, 0)
      return true
    }
    // A frame of an animation.
    if (level.kind !== 'animation') return false
    const keyframes = level.keyframes
    const records = keyframes.records
    if (records === null) return false
    if (records.length > KEYFRAME_RECORD_BUDGET) {
      keyframes.records = null
      this.offsets.count = keyframes.mark
      return false
    }
    records[level.head + 3]!++
    if (kind !== 'array') {
      records.push(nameStart, nameEnd, offset, -1, 0)
      return false
    }
    this.levels.push({
      kind: 'frame',
      keyframes,
      nameStart,
      nameEnd,
      start: offset,
      first: this.offsets.count,
    })
    return true
  }

  element(kind: JsonKind, offset: number): boolean {
    const level = this.levels[this.levels.length - 1]
    if (level?.kind === 'data') {
      const path = elementPath(level.path, level.index++)
      return level.reading.refusal === null && this.dataValue(level, path, kind, offset)
    }
    return this.offsets.element(kind, offset)
  }

  /**
   * A value of plain data at `path`, inside `level` (null: the member itself): a container
   * nested deeper than the limit is refused, a string is read to its end.
   */
  private dataValue(
    level: (Level & { kind: 'data' }) | { reading: DataReading; member: string; depth: number },
    path: string,
    kind: JsonKind,
    offset: number,
  ): boolean {
    const { reading, member } = level
    if (kind === 'object' || kind === 'array') {
      if (level.depth >= DATA_LIMITS.maxDepth) {
        reading.refusal = unsafeExport(path, new UnsafeContent('value', member))
        return false
      }
      const index = kind === 'array' ? 0 : -1
      this.levels.push({ kind: 'data', reading, member, path, depth: level.depth + 1, index })
      return true
    }
    if (kind !== 'string') return false
    this.pendingData = { reading, member, path, start: offset }
    return true
  }

  end(offset: number): void {
    if (this.offsets.stringEnd(offset)) return
    const data = this.pendingData
    if (data !== null) {
      this.pendingData = null
      if (!isPlainString(this.strings.string(data.start, offset))) {
        data.reading.refusal = unsafeExport(data.path, new UnsafeContent('value', data.member))
      }
      return
    }
    const pending = this.pendingMember
    if (pending !== null) {
      pending.parent.members.set(pending.name, {
        type: 'string',
        start: pending.start,
        end: offset,
      })
      this.pendingMember = null
      return
    }
    const level = this.levels.pop()!
    switch (level.kind) {
      case 'object':
        if (level.parent === null) this.document = level.read
        else {
          level.parent.objects.set(level.name, level.read)
          level.parent.members.set(level.name, { type: 'object', start: level.start, end: offset })
        }
        return
      case 'keyframes':
        level.parent.members.set(level.name, { type: 'object', start: level.start, end: offset })
        if (level.records === null) level.parent.records.delete(level.name)
        else level.parent.records.set(level.name, level.records)
        return
      case 'list':
        level.parent.members.set(level.name, {
          type: 'array',
          start: level.start,
          end: offset,
          elements: this.offsets.since(level.first),
        })
        return
      case 'data':
        return
      case 'frame':
        level.keyframes.records?.push(
          level.nameStart,
          level.nameEnd,
          level.start,
          level.first,
          (this.offsets.count - level.first) / 2,
        )
        return
      default:
    }
  }

  /**
   * A member of the root, `content` or `datapack`: its name checked, and, when it is one the
   * check reads, its value watched (a repeated one at its first place with its last value).
   */
  private objectMember(
    level: Level & { kind: 'object' },
    nameStart: number,
    nameEnd: number,
    kind: JsonKind,
    offset: number,
  ): boolean {
    const read = level.read
    const name = this.strings.name(nameStart, nameEnd)
    if (read.refusal === null) read.refusal = checkName(level.path, name, level.checked, level.only)
    if (!level.checked.includes(name)) return false
    const inner = INNER_NAMES[name]
    if (inner !== undefined && kind === 'object') {
      this.levels.push(objectLevel(memberPath(level.path, name), inner, true, read, name, offset))
      return true
    }
    if (level.parent !== null && MEMBER_RULES.get(name)?.json === 'data') {
      // Its last value is the one read: a repeated member's earlier values count for nothing.
      const reading: DataReading = { refusal: null }
      read.data.set(name, reading)
      read.members.set(name, { type: kind, start: offset, end: offset })
      return this.dataValue(
        { reading, member: name, depth: 0 },
        memberPath(level.path, name),
        kind,
        offset,
      )
    }
    read.objects.delete(name)
    if (CHECKED_NAMES.datapack.includes(name) && kind === 'object') {
      const mark = this.offsets.count
      this.levels.push({ kind: 'keyframes', parent: read, name, start: offset, records: [], mark })
      return true
    }
    read.records.delete(name)
    if (LISTS.includes(name) && kind === 'array') {
      this.levels.push({
        kind: 'list',
        parent: read,
        name,
        start: offset,
        first: this.offsets.count,
      })
      return true
    }
    if (kind === 'string') {
      this.pendingMember = { parent: read, name, start: offset }
      return true
    }
    read.members.set(name, { type: kind, start: offset, end: offset })
    return false
  }
}

function objectLevel(
  path: string,
  checked: readonly string[],
  only: boolean,
  parent: CheckedObject | null,
  name: string,
  start: number,
): Level {
  const read: CheckedObject = {
    members: new Map(),
    objects: new Map(),
    records: new Map(),
    refusal: null,
    data: new Map(),
  }
  return { kind: 'object', read, path, checked, only, parent, name, start }
}

/**
 * Whether a string of plain data is one a display model's own data holds: at most
 * `DATA_LIMITS.maxStringChars` code units, no control character (C0, DEL, C1).
 */
function isPlainString(text: string): boolean {
  if (text.length > DATA_LIMITS.maxStringChars) return false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return false
  }
  return true
}

/** A member name's length, each placeholder counted as the longest tag it may become. */
export function nameLength(name: string): number {
  return fetchedLength(name, MAX_NAME_CHARS)
}

/**
 * The refusal of a member `name` of the object at `parent` unless it is one of `checked` or
 * has nothing to do with them: a name that differs from a checked one only by characters a
 * reader does not see is `member` (`found` the name spelled as in a path, `spellName`); a name
 * longer than `MAX_NAME_CHARS` is `length` at `parent`. With `only`, every name but the checked
 * ones is `member`.
 */
function checkName(
  parent: string,
  name: string,
  checked: readonly string[],
  only: boolean,
): UnsafeExport | null {
  if (checked.includes(name)) return null
  if (nameLength(name) > MAX_NAME_CHARS) {
    return unsafeExport(parent, new UnsafeContent('length', String(nameLength(name)), 'name'))
  }
  if (only || checked.includes(visiblePart(name))) {
    return unsafeExport(memberPath(parent, name), new UnsafeContent('member', spellName(name)))
  }
  return null
}
