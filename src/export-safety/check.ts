/**
 * The check of a whole export: read the fields a plugin runs from the bytes (their offsets
 * only), then hold each of their strings against the vocabulary, decoding one at a time. The
 * first place outside it is the verdict.
 *
 * Order, so that every implementation names the same path when an export breaks the rules in
 * several places (docs/export-safety.md, "Order"): the root's member names, then `content`'s,
 * then `content.passengers`, `content.Passengers`, `content.hitbox` (their parts' tags are what
 * a `data merge` may target), `content.commands`, `content.datapack` (its member names, then
 * `anim_keyframes`, then `sound_keyframes`). In `content` and `datapack` a repeated member counts
 * at its first place with its last value; inside `anim_keyframes` and `sound_keyframes` every
 * member is checked where it stands, repeated ones included (so whichever a reader keeps was
 * checked), and nothing of them is held beyond the frame being checked.
 */
import { CommandCheck, checkOneLine, type CommandPlace } from './commands.js'
import { checkPassenger } from './entities.js'
import { JsonBytes, type JsonNode, type JsonType, type Reading } from './json-bytes.js'
import { elementPath, memberPath, spellName } from './json-path.js'
import { UnsafeContent, unsafeExport, type UnsafeExport } from './refusal.js'
import { checkPassengerReaders, type GrammarCompound } from './readers/index.js'
import { forEachCompound } from './snbt.js'
import {
  CHECKED_NAMES,
  MAX_NAME_CHARS,
  MAX_PASSENGER_BYTES,
  PLACEHOLDER,
  fetchedLength,
  placeholderGrowth,
  visiblePart,
  type PartType,
} from './vocabulary.js'

/** The root member that holds the export (docs/api.md#the-body). */
const CONTENT = 'content'

const DATAPACK = 'datapack'
const STRINGS: Reading = { elements: true }
/** What `strings` checks in a passengers list. */
const PASSENGERS = 'passengers'
const EXTENT: Reading = { extent: true }
/** The members of `content` that hold strings a plugin runs, or lists of them. */
const LISTS = ['passengers', 'Passengers', 'hitbox', 'commands']
/** The checked names of the objects read inside the root and `content`. */
const INNER_NAMES: Readonly<Record<string, readonly string[]>> = {
  [CONTENT]: CHECKED_NAMES.content,
  [DATAPACK]: CHECKED_NAMES.datapack,
}

/**
 * Numbers kept of keyframes read in the first pass (4 a frame): real models have a few hundred
 * frames; keyframes with more are read again, a frame at a time, when checked.
 */
const KEYFRAME_RECORD_BUDGET = 1 << 16

/** An object read by `readObject`. */
interface CheckedObject {
  /** Its checked members (a repeated one: first place, last value). */
  members: Map<string, JsonNode>
  /** Those of them read as checked objects themselves (the last value, when an object). */
  objects: Map<string, CheckedObject>
  /** Keyframes read with their parts' offsets (`recordKeyframes`; the last value). */
  records: Map<string, number[]>
  /** The first of its member names refused, in document order. */
  refusal: UnsafeExport | null
  /** The offset just after it. */
  end: number
}

/**
 * The first place where the export `document` (valid JSON, its bytes) is outside the
 * display-model vocabulary, or null when all of it is inside. `modelTag`: what every selector's
 * tag begins with (the placeholder in the published form; the caller's tag in a fetched one;
 * null: read from the parts' tags, `CommandCheck`). A
 * document that is not of the form `{"content": {...}}` holds nothing a plugin runs: null, once
 * its root names are checked.
 */
export function findUnsafeExport(
  document: Uint8Array,
  modelTag: string | null = PLACEHOLDER,
): UnsafeExport | null {
  return new ExportCheck(new JsonBytes(document), modelTag).run()
}

/**
 * The refusal of a member `name` of the object at `parent` unless it is one of `checked` or
 * has nothing to do with them: a name that differs from a checked one only by characters a
 * reader does not see is `member` (`found` the name spelled as in a path, `spellName`); a name longer than `MAX_NAME_CHARS` is `length` at `parent`.
 * With `only`, every name but the checked ones is `member`.
 */
function checkName(
  parent: string,
  name: string,
  checked: readonly string[],
  only = false,
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

class ExportCheck {
  private readonly json: JsonBytes
  /** The tags the model's parts carry: what a `data merge` may target. */
  private readonly ownTags = new Set<string>()
  private readonly command: CommandCheck
  private verdict: UnsafeExport | null = null
  /** Bytes of the passenger strings read so far, as written. */
  private passengerBytes = 0

  constructor(json: JsonBytes, modelTag: string | null) {
    this.json = json
    this.command = new CommandCheck(this.ownTags, modelTag)
  }

  run(): UnsafeExport | null {
    const json = this.json
    const root = json.root()
    if (json.typeAt(root) !== 'object') return null
    // One pass reads the root, `content` and `datapack`, their names checked on the way; a
    // name's refusal is named in its turn (the root's first, then content's, then datapack's).
    const document = this.readObject(root, '', CHECKED_NAMES.root, true)
    if (document.refusal !== null) return document.refusal
    const content = document.objects.get(CONTENT)
    if (content === undefined) return null
    if (content.refusal !== null) return content.refusal
    const field = (name: string) => content.members.get(name)
    const path = (name: string) => memberPath(CONTENT, name)
    return (
      this.strings(field('passengers'), path('passengers'), PASSENGERS) ??
      this.oldPassengers(field('Passengers'), path('Passengers')) ??
      this.commands(field('hitbox'), path('hitbox'), 'hitbox') ??
      this.commands(field('commands'), path('commands'), 'frame') ??
      this.datapack(field(DATAPACK), content.objects.get(DATAPACK), path(DATAPACK))
    )
  }

  /**
   * Reads the object at `offset` (at `path`) in one pass: every member name checked
   * (`checkName` against `checked`, the first refusal kept), the checked members kept (a
   * repeated one at its first place with its last value): `content` and `datapack` read the
   * same way into `objects` (when they are objects), the lists of `content` by elements.
   */
  private readObject(
    offset: number,
    path: string,
    checked: readonly string[],
    only = false,
  ): CheckedObject {
    const json = this.json
    const read: CheckedObject = {
      members: new Map(),
      objects: new Map(),
      records: new Map(),
      refusal: null,
      end: 0,
    }
    read.end = json.forEachMember(offset, (name, at) => {
      if (read.refusal === null) read.refusal = checkName(path, name, checked, only)
      if (!checked.includes(name)) return json.skip(at)
      const inner = INNER_NAMES[name]
      if (inner !== undefined && json.typeAt(at) === 'object') {
        const object = this.readObject(at, memberPath(path, name), inner)
        read.objects.set(name, object)
        read.members.set(name, { type: 'object', start: at, end: object.end })
        return object.end
      }
      read.objects.delete(name)
      if (CHECKED_NAMES.datapack.includes(name) && json.typeAt(at) === 'object') {
        const { end, records } = json.recordKeyframes(at, KEYFRAME_RECORD_BUDGET)
        read.members.set(name, { type: 'object', start: at, end })
        if (records === null) read.records.delete(name)
        else read.records.set(name, records)
        return end
      }
      read.records.delete(name)
      const node = json.read(at, LISTS.includes(name) ? STRINGS : EXTENT)
      read.members.set(name, node)
      return node.end
    })
    return read
  }

  /**
   * The passenger string at `[start, end)`, as it goes inside a summon's `Passengers:[...]`:
   * display entities only. The one that brings the passenger strings over
   * `MAX_PASSENGER_BYTES` as written is refused before it is decoded.
   */
  private passengerString(start: number, end: number): void {
    this.passengerBytes += end - start - 2
    if (this.passengerBytes > MAX_PASSENGER_BYTES) {
      throw new UnsafeContent('length', String(this.passengerBytes), 'passengers')
    }
    const text = this.json.string(start, end, true)
    // Each placeholder counted as the longest tag it may become when fetched.
    this.passengerBytes += placeholderGrowth(text)
    if (this.passengerBytes > MAX_PASSENGER_BYTES) {
      throw new UnsafeContent('length', String(this.passengerBytes), 'passengers')
    }
    checkOneLine(text)
    const compounds: GrammarCompound[] = []
    const types: PartType[] = []
    forEachCompound(text, (compound, from, to) => {
      const type = checkPassenger(compound, this.ownTags)
      types.push(type)
      if (from >= 0) compounds.push({ start: from, end: to, type })
    })
    checkPassengerReaders(text, compounds, types)
  }

  /** `Passengers` of older exports: one string, or a list of them, as `passengers`. */
  private oldPassengers(node: JsonNode | undefined, path: string): UnsafeExport | null {
    if (node?.type !== 'string') return this.strings(node, path, PASSENGERS)
    try {
      this.passengerString(node.start, node.end)
      return null
    } catch (error) {
      if (!(error instanceof UnsafeContent)) throw error
      return unsafeExport(path, error)
    }
  }

  private commands(node: JsonNode | undefined, path: string, place: CommandPlace) {
    return this.strings(node, path, place)
  }

  /**
   * Whether the string at `[start, end)` is a `data merge` the vocabulary allows, read as the
   * document spells it: most of every export, accepted without a string of its own.
   */
  private isPlainDataMerge(start: number, end: number): boolean {
    const text = this.json.asciiText(start, end)
    if (text === null) return false
    const offset = this.json.textStart()
    return this.command.isPlainDataMerge(text, start + 1 - offset, end - 1 - offset)
  }

  /** `datapack`: its member names, then `anim_keyframes` and `sound_keyframes`. */
  private datapack(
    node: JsonNode | undefined,
    datapack: CheckedObject | undefined,
    path: string,
  ): UnsafeExport | null {
    if (node === undefined) return null
    if (datapack === undefined) return shape(node.type, path)
    if (datapack.refusal !== null) return datapack.refusal
    for (const name of CHECKED_NAMES.datapack) {
      const keyframesPath = memberPath(path, name)
      const records = datapack.records.get(name)
      const verdict =
        records === undefined
          ? this.keyframes(datapack.members.get(name), keyframesPath)
          : this.recordedKeyframes(records, keyframesPath)
      if (verdict !== null) return verdict
    }
    return null
  }

  /** `keyframes`, from the offsets the first pass kept: the same checks in the same order. */
  private recordedKeyframes(records: number[], path: string): UnsafeExport | null {
    const json = this.json
    for (let at = 0; at < records.length;) {
      const animation = json.string(records[at]!)
      const animationValue = records[at + 1]!
      const frames = records[at + 2]!
      at += 3
      if (nameLength(animation) > MAX_NAME_CHARS) return this.lengthOfName(path, animation)
      const animationPath = memberPath(path, animation)
      if (frames < 0) return shape(json.typeAt(animationValue), animationPath)
      for (let frame = 0; frame < frames; frame++, at += 4) {
        const name = json.string(records[at]!)
        if (nameLength(name) > MAX_NAME_CHARS) return this.lengthOfName(animationPath, name)
        const value = records[at + 1]!
        const first = records[at + 2]!
        const node: JsonNode =
          first < 0
            ? { type: json.typeAt(value), start: value, end: value }
            : {
                type: 'array',
                start: value,
                end: value,
                elements: json.elementsAt(first, records[at + 3]!),
              }
        const verdict = this.commands(node, memberPath(animationPath, name), 'frame')
        if (verdict !== null) return verdict
      }
    }
    return null
  }

  private lengthOfName(path: string, name: string): UnsafeExport {
    return unsafeExport(path, new UnsafeContent('length', String(nameLength(name)), 'name'))
  }

  /** Animation → frame → commands, streamed: every member where it stands. */
  private keyframes(node: JsonNode | undefined, path: string): UnsafeExport | null {
    if (node === undefined) return null
    if (node.type !== 'object') return shape(node.type, path)
    const json = this.json
    this.verdict = null
    json.forEachMember(node.start, (animation, frames) => {
      if (nameLength(animation) > MAX_NAME_CHARS) return this.stop(path, animation)
      const animationPath = memberPath(path, animation)
      const type = json.typeAt(frames)
      if (type !== 'object') return this.refuse(shape(type, animationPath))
      return json.forEachMember(frames, (frame, commands) => {
        if (nameLength(frame) > MAX_NAME_CHARS) return this.stop(animationPath, frame)
        const mark = json.mark()
        const read = json.read(commands, STRINGS)
        const verdict = this.commands(read, memberPath(animationPath, frame), 'frame')
        json.release(mark)
        return verdict === null ? read.end : this.refuse(verdict)
      })
    })
    return this.verdict
  }

  /** The `length` refusal of a member name too long, at its object's `path`. */
  private stop(path: string, name: string): number {
    return this.refuse(this.lengthOfName(path, name))
  }

  private refuse(verdict: UnsafeExport): number {
    this.verdict = verdict
    return -1
  }

  /**
   * Checks each string of the array `node` (absent: nothing to check) as `what` says; in a
   * frame, one that `isPlainDataMerge` accepts is not decoded.
   */
  private strings(
    node: JsonNode | undefined,
    path: string,
    what: CommandPlace | typeof PASSENGERS,
  ): UnsafeExport | null {
    if (node === undefined) return null
    const elements = node.elements
    if (elements === undefined) return shape(node.type, path)
    const json = this.json
    for (let index = 0; index < elements.length / 2; index++) {
      const start = elements[2 * index]!
      const end = elements[2 * index + 1]!
      const type = json.typeAt(start)
      if (type !== 'string') return shape(type, elementPath(path, index))
      if (what === 'frame' && this.isPlainDataMerge(start, end)) continue
      try {
        if (what === PASSENGERS) this.passengerString(start, end)
        else this.command.check(json.string(start, end), what)
      } catch (error) {
        if (!(error instanceof UnsafeContent)) throw error
        return unsafeExport(elementPath(path, index), error)
      }
    }
    return null
  }
}

/** A member name's length, each placeholder counted as the longest tag it may become. */
function nameLength(name: string): number {
  return fetchedLength(name, MAX_NAME_CHARS)
}

/** The refusal of a checked field of another JSON type than exports write. */
function shape(type: JsonType, path: string): UnsafeExport {
  return unsafeExport(path, new UnsafeContent('shape', type))
}
