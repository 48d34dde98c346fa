/**
 * The check of a whole export: read the fields a plugin runs from the bytes in one pass (their
 * offsets only), then hold each of their strings against the vocabulary, decoding one at a time.
 * The first string outside it is the verdict.
 *
 * Order, so that every implementation names the same path when an export breaks the rules in
 * several places: `content.passengers`, `content.Passengers`, `content.hitbox` (their parts'
 * tags are what a `data merge` may target), then `content.commands`,
 * `content.datapack.anim_keyframes`, `content.datapack.sound_keyframes`; inside each, document
 * order, a repeated member counted at its first place with its last value.
 */
import { CommandCheck, checkOneLine, type CommandPlace } from './commands.js'
import { checkPassenger } from './entities.js'
import { JsonBytes, type JsonNode, type JsonType, type Reading } from './json-bytes.js'
import { elementPath, memberPath } from './json-path.js'
import { UnsafeContent, unsafeExport, type UnsafeExport } from './refusal.js'
import { forEachCompound } from './snbt.js'

/** The root member that holds the export (spec 2). */
const CONTENT = 'content'

/** The members of `datapack` that hold commands: animation → frame → commands. */
const KEYFRAMES = ['anim_keyframes', 'sound_keyframes']

/** The members of `content` that hold strings a plugin runs, or lists of them. */
const LISTS = ['passengers', 'Passengers', 'hitbox', 'commands']

const STRINGS: Reading = { elements: true }
const FRAMES: Reading = { members: () => STRINGS }
const ANIMATIONS: Reading = { members: () => FRAMES }
const DATAPACK: Reading = { members: (name) => (KEYFRAMES.includes(name) ? ANIMATIONS : null) }
const CHECKED_FIELDS: Reading = {
  members: (name) => (name === 'datapack' ? DATAPACK : LISTS.includes(name) ? STRINGS : null),
}
/** What the check reads of a document: the checked fields of `content`, nothing else. */
const DOCUMENT: Reading = { members: (name) => (name === CONTENT ? CHECKED_FIELDS : null) }

/**
 * The first place where the export `document` (valid JSON, its bytes) is outside the
 * display-model vocabulary, or null when all of it is inside. A document that is not of the form
 * `{"content": {...}}` holds nothing a plugin runs: null.
 */
export function findUnsafeExport(document: Uint8Array): UnsafeExport | null {
  return new ExportCheck(new JsonBytes(document)).run()
}

class ExportCheck {
  private readonly json: JsonBytes
  /** The tags the model's parts carry: what a `data merge` may target. */
  private readonly ownTags = new Set<string>()
  private readonly command = new CommandCheck(this.ownTags)

  constructor(json: JsonBytes) {
    this.json = json
  }

  run(): UnsafeExport | null {
    const json = this.json
    const content = json.read(json.root(), DOCUMENT).members?.get(CONTENT)
    const fields = content?.members
    if (fields === undefined) return null
    const field = (name: string) => fields.get(name)
    const path = (name: string) => memberPath(CONTENT, name)
    return (
      this.strings(field('passengers'), path('passengers'), (text) => this.passengers(text)) ??
      this.oldPassengers(field('Passengers'), path('Passengers')) ??
      this.commands(field('hitbox'), path('hitbox'), 'hitbox') ??
      this.commands(field('commands'), path('commands'), 'frame') ??
      this.datapack(field('datapack'), path('datapack'))
    )
  }

  /** Passengers as they go inside a summon's `Passengers:[...]`: display entities only. */
  private passengers(text: string): void {
    checkOneLine(text)
    forEachCompound(text, (compound) => checkPassenger(compound, this.ownTags))
  }

  /** `Passengers` of older exports: one string, or a list of them, as `passengers`. */
  private oldPassengers(node: JsonNode | undefined, path: string): UnsafeExport | null {
    if (node?.type !== 'string') return this.strings(node, path, (text) => this.passengers(text))
    try {
      this.passengers(this.json.string(node.start, node.end))
      return null
    } catch (error) {
      if (!(error instanceof UnsafeContent)) throw error
      return unsafeExport(path, error)
    }
  }

  private commands(node: JsonNode | undefined, path: string, place: CommandPlace) {
    const check = (command: string) => this.command.check(command, place)
    return this.strings(node, path, check, place === 'frame')
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

  /** `datapack.anim_keyframes` and `datapack.sound_keyframes`: animation → frame → commands. */
  private datapack(node: JsonNode | undefined, path: string): UnsafeExport | null {
    if (node === undefined) return null
    if (node.members === undefined) return shape(node.type, path)
    for (const name of KEYFRAMES) {
      const verdict = this.keyframes(node.members.get(name), memberPath(path, name))
      if (verdict !== null) return verdict
    }
    return null
  }

  private keyframes(node: JsonNode | undefined, path: string): UnsafeExport | null {
    if (node === undefined) return null
    if (node.members === undefined) return shape(node.type, path)
    for (const [animation, frames] of node.members) {
      const animationPath = memberPath(path, animation)
      if (frames.members === undefined) return shape(frames.type, animationPath)
      for (const [frame, commands] of frames.members) {
        const verdict = this.commands(commands, memberPath(animationPath, frame), 'frame')
        if (verdict !== null) return verdict
      }
    }
    return null
  }

  /**
   * Checks each string of the array `node` (absent: nothing to check); in a frame, one that
   * `isPlainDataMerge` accepts is not decoded.
   */
  private strings(
    node: JsonNode | undefined,
    path: string,
    check: (text: string) => void,
    frame = false,
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
      if (frame && this.isPlainDataMerge(start, end)) continue
      try {
        check(json.string(start, end))
      } catch (error) {
        if (!(error instanceof UnsafeContent)) throw error
        return unsafeExport(elementPath(path, index), error)
      }
    }
    return null
  }
}

/** The refusal of a checked field of another JSON type than exports write. */
function shape(type: JsonType, path: string): UnsafeExport {
  return unsafeExport(path, new UnsafeContent('shape', type))
}
