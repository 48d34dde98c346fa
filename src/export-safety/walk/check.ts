/**
 * The check of a whole export: read the fields a plugin runs from the bytes (their offsets
 * only), then hold each of their strings against the vocabulary, decoding one at a time. The
 * first place outside it is the verdict.
 *
 * Order, so that every implementation names the same path when an export breaks the rules in
 * several places (docs/export-safety.md, "Order"): the root's member names, then `content`'s,
 * then `content.passengers`, `content.Passengers`, `content.hitbox` (their parts' tags are what
 * a `data merge` may target), `content.commands`, `content.datapack` (its member names, then
 * `anim_keyframes`, `sound_keyframes`, BlockDisplayCreator's two), then `content`'s typed members
 * (`MEMBER_RULES`). In `content` and `datapack` a repeated member counts
 * at its first place with its last value; inside `anim_keyframes` and `sound_keyframes` every
 * member is checked where it stands, repeated ones included (so whichever a reader keeps was
 * checked), and nothing of them is held beyond the frame being checked.
 */
import { JsonScanner, JsonStrings, type JsonKind, type JsonObserver } from '../../json/index.js'
import {
  CommandCheck,
  checkOneLine,
  type CommandPlace,
  checkPassenger,
  checkPassengerReaders,
  GrammarPassengers,
} from '../rules/index.js'
import {
  CONTENT,
  DATAPACK,
  ExportReading,
  nameLength,
  type CheckedObject,
  type JsonNode,
  type Offsets,
} from './export-reading.js'
import { elementPath, memberPath } from './json-path.js'
import {
  UnsafeContent,
  unsafeExport,
  type UnsafeExport,
  keyTypesOf,
  type KeyTypes,
  CHECKED_NAMES,
  MAX_NAME_CHARS,
  MAX_PASSENGER_BYTES,
  MEMBER_RULES,
  PLACEHOLDER,
  placeholderGrowth,
} from '../types/index.js'
import { forEachCompound } from '../syntax/index.js'

/** The bytes a JSON number is written with. */
const NUMBER_BYTES = new Uint8Array(256)
for (const char of '0123456789+-.eE') NUMBER_BYTES[char.charCodeAt(0)] = 1

/** What `strings` checks in a passengers list. */
const PASSENGERS = 'passengers'
/** The member of `content` that names the game version the export is for. */
const VERSION = 'version'

/**
 * The first place where the export `document` (valid JSON, its bytes) is outside the
 * display-model vocabulary, or null when all of it is inside. `modelTag`: what every selector's
 * tag begins with (the placeholder in the published form; the caller's tag in a fetched one;
 * null: read from the parts' tags, `CommandCheck`). A
 * document that is not of the form `{"content": {...}}` holds nothing a plugin runs: null, once
 * its root names are checked. One pass of the JSON scanner reads it; bytes that are not JSON
 * throw its `MalformedExportError`.
 */
export function findUnsafeExport(
  document: Uint8Array,
  modelTag: string | null = PLACEHOLDER,
): UnsafeExport | null {
  const check = startExportCheck(document, modelTag)
  new JsonScanner({ grammar: 'strict', observer: check.observer }).scanWhole(document)
  return check.verdict()
}

/** The check of one export, read in a scan someone else runs (`startExportCheck`). */
export interface ExportCheckPass {
  /** To give the scanner of the document: it gathers what the check reads. */
  observer: JsonObserver
  /** The verdict, once the scanner has read the whole document (`findUnsafeExport`'s). */
  verdict(): UnsafeExport | null
}

/**
 * The check of `document`, to run in a scan of it that another reader runs (the publish
 * validator's): its observer watches what the check reads while the scan validates, so the
 * bytes are read once. `verdict` only after the scan accepted the whole document.
 */
export function startExportCheck(
  document: Uint8Array,
  modelTag: string | null = PLACEHOLDER,
): ExportCheckPass {
  const strings = new JsonStrings(document)
  const reading = new ExportReading(strings)
  return {
    observer: reading,
    verdict: () => new ExportCheck(document, strings, reading, modelTag).run(),
  }
}

/**
 * `content.version` when it is a string, read once the scan is done: the version every SNBT value
 * of the export is typed as (`keyTypesOf`; absent or not a string, the default version).
 */
function declaredVersion(reading: ExportReading, json: JsonStrings): string | null {
  const version = reading.document?.objects.get(CONTENT)?.members.get(VERSION)
  return version?.type === 'string' ? json.string(version.start, version.end) : null
}

/** Thrown inside a scan of keyframes to end it at the first refusal. */
const STOP = Symbol('stop')

class ExportCheck {
  private readonly document: Uint8Array
  /** `document`, read four bytes at a time by the fast path (`isPlainDataMerge`). */
  private readonly view: DataView
  private readonly json: JsonStrings
  private readonly reading: ExportReading
  /** The tags the model's parts carry: what a `data merge` may target. */
  private readonly ownTags = new Set<string>()
  private readonly command: CommandCheck
  /** The key types of the export's declared version: every SNBT value is typed as it reads it. */
  private readonly keyTypes: KeyTypes
  /** Bytes of the passenger strings read so far, as written. */
  private passengerBytes = 0

  constructor(
    document: Uint8Array,
    json: JsonStrings,
    reading: ExportReading,
    modelTag: string | null,
  ) {
    this.document = document
    this.view = new DataView(document.buffer, document.byteOffset, document.byteLength)
    this.json = json
    this.reading = reading
    this.keyTypes = keyTypesOf(declaredVersion(reading, json))
    this.command = new CommandCheck(this.ownTags, modelTag, this.keyTypes)
  }

  run(): UnsafeExport | null {
    // The scan read the root, `content` and `datapack`, their names checked on the way; a
    // name's refusal is named in its turn (the root's first, then content's, then datapack's).
    const document = this.reading.document
    if (document === null) return null
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
      this.datapack(field(DATAPACK), content.objects.get(DATAPACK), path(DATAPACK)) ??
      this.typedMembers(content)
    )
  }

  /**
   * The members of `content` read as data, not run (`MEMBER_RULES`), each at its first place
   * with its last value: of its JSON type (`shape`) and within its bounds (`value`).
   */
  private typedMembers(content: CheckedObject): UnsafeExport | null {
    for (const [name, node] of content.members) {
      const rule = MEMBER_RULES.get(name)
      if (rule === undefined) continue
      const path = memberPath(CONTENT, name)
      if (rule.json === 'data') {
        const refusal = content.data.get(name)?.refusal ?? null
        if (refusal !== null) return refusal
        continue
      }
      if (node.type !== rule.json) return shape(node.type, path)
      let inBounds: boolean
      if (rule.json === 'string')
        inBounds = rule.pattern.test(this.json.string(node.start, node.end))
      else if (rule.json === 'boolean')
        inBounds = (this.document[node.start] === 0x74) === rule.only
      else {
        const value = this.numberAt(node.start)
        inBounds = value >= rule.min && value <= rule.max
      }
      if (!inBounds) return unsafeExport(path, new UnsafeContent('value', name))
    }
    return null
  }

  /** The JSON number that begins at byte `start`. */
  private numberAt(start: number): number {
    let end = start
    while (end < this.document.length && NUMBER_BYTES[this.document[end]!] === 1) end++
    return Number(new TextDecoder().decode(this.document.subarray(start, end)))
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
    const grammar = new GrammarPassengers(text)
    forEachCompound(text, this.keyTypes, (compound, from, to, nested) => {
      grammar.add(compound, from, to, nested, checkPassenger(compound, this.ownTags))
    })
    checkPassengerReaders(text, grammar, this.keyTypes)
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
    return this.command.isPlainDataMerge(
      text,
      start + 1 - offset,
      end - 1 - offset,
      this.view,
      offset,
    )
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

  /** `keyframes`, from the offsets the scan kept: the same checks in the same order. */
  private recordedKeyframes(records: number[], path: string): UnsafeExport | null {
    const json = this.json
    const offsets = this.reading.offsets
    for (let at = 0; at < records.length;) {
      const animation = json.string(records[at]!, records[at + 1]!)
      const animationValue = records[at + 2]!
      const frames = records[at + 3]!
      at += 4
      if (nameLength(animation) > MAX_NAME_CHARS) return lengthOfName(path, animation)
      const animationPath = memberPath(path, animation)
      if (frames < 0) return shape(json.kindAt(animationValue), animationPath)
      for (let frame = 0; frame < frames; frame++, at += 5) {
        const name = json.string(records[at]!, records[at + 1]!)
        if (nameLength(name) > MAX_NAME_CHARS) return lengthOfName(animationPath, name)
        const value = records[at + 2]!
        const first = records[at + 3]!
        const node: JsonNode =
          first < 0
            ? { type: json.kindAt(value), start: value, end: value }
            : {
                type: 'array',
                start: value,
                end: value,
                elements: offsets.at(first, records[at + 4]!),
              }
        const verdict = this.commands(node, memberPath(animationPath, name), 'frame')
        if (verdict !== null) return verdict
      }
    }
    return null
  }

  /**
   * Animation → frame → commands, streamed (keyframes too many to keep their offsets): the
   * scanner passes over them once more, and each frame is checked as it ends, every member where
   * it stands; nothing is kept beyond the frame being checked.
   */
  private keyframes(node: JsonNode | undefined, path: string): UnsafeExport | null {
    if (node === undefined) return null
    if (node.type !== 'object') return shape(node.type, path)
    const stream = new KeyframeStream(this.json, this.reading.offsets, path, (frame, framePath) =>
      this.commands(frame, framePath, 'frame'),
    )
    const scanner = new JsonScanner({ grammar: 'strict', observer: stream })
    scanner.position = node.start
    try {
      scanner.scanWhole(this.document.subarray(node.start, node.end))
    } catch (error) {
      if (error !== STOP) throw error
    }
    return stream.verdict
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
      const type = json.kindAt(start)
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

/** The refusal of a checked field of another JSON type than exports write. */
function shape(type: JsonKind, path: string): UnsafeExport {
  return unsafeExport(path, new UnsafeContent('shape', type))
}

/**
 * Keyframes read by the scanner as a document of their own, each frame handed to `check` as it
 * ends; the first refusal (a name too long, an animation not an object, a frame's verdict) ends
 * the scan (`STOP`).
 */
class KeyframeStream implements JsonObserver {
  verdict: UnsafeExport | null = null
  private readonly json: JsonStrings
  private readonly offsets: Offsets
  private readonly path: string
  private readonly check: (frame: JsonNode, path: string) => UnsafeExport | null
  /** 1 in the keyframes object, 2 in an animation, 3 in a frame. */
  private depth = 0
  private animationPath = ''
  private framePath = ''
  private frameStart = 0
  private mark = 0

  constructor(
    json: JsonStrings,
    offsets: Offsets,
    path: string,
    check: (frame: JsonNode, path: string) => UnsafeExport | null,
  ) {
    this.json = json
    this.offsets = offsets
    this.path = path
    this.check = check
  }

  root(): boolean {
    this.depth = 1
    return true
  }

  member(nameStart: number, nameEnd: number, kind: JsonKind, offset: number): boolean {
    const name = this.json.string(nameStart, nameEnd)
    if (this.depth === 1) {
      if (nameLength(name) > MAX_NAME_CHARS) this.stop(lengthOfName(this.path, name))
      this.animationPath = memberPath(this.path, name)
      if (kind !== 'object') this.stop(shape(kind, this.animationPath))
      this.depth = 2
      return true
    }
    if (nameLength(name) > MAX_NAME_CHARS) this.stop(lengthOfName(this.animationPath, name))
    this.framePath = memberPath(this.animationPath, name)
    if (kind !== 'array') {
      const verdict = this.check({ type: kind, start: offset, end: offset }, this.framePath)
      if (verdict !== null) this.stop(verdict)
      return false
    }
    this.depth = 3
    this.frameStart = offset
    this.mark = this.offsets.count
    return true
  }

  element(kind: JsonKind, offset: number): boolean {
    return this.offsets.element(kind, offset)
  }

  end(offset: number): void {
    if (this.offsets.stringEnd(offset)) return
    if (this.depth === 3) {
      const frame: JsonNode = {
        type: 'array',
        start: this.frameStart,
        end: offset,
        elements: this.offsets.since(this.mark),
      }
      const verdict = this.check(frame, this.framePath)
      this.offsets.count = this.mark
      if (verdict !== null) this.stop(verdict)
    }
    this.depth--
  }

  private stop(verdict: UnsafeExport): never {
    this.verdict = verdict
    throw STOP
  }
}

/** The `length` refusal of a member name too long, at its object's `path`. */
function lengthOfName(path: string, name: string): UnsafeExport {
  return unsafeExport(path, new UnsafeContent('length', String(nameLength(name)), 'name'))
}
