/**
 * The check of a whole export: find the fields a plugin runs, read them string by string from the
 * bytes, and hold each against the vocabulary. The first string outside it is the verdict.
 *
 * Order, so that every implementation names the same path when an export breaks the rules in
 * several places: `content.passengers`, `content.Passengers`, `content.hitbox` (their parts'
 * tags are what a `data merge` may target), then `content.commands`,
 * `content.datapack.anim_keyframes`, `content.datapack.sound_keyframes`; inside each, document
 * order, a repeated member counted at its first place with its last value.
 */
import { CommandCheck, checkOneLine, type CommandPlace } from './commands.js'
import { checkPassenger } from './entities.js'
import { JsonBytes } from './json-bytes.js'
import { elementPath, memberPath } from './json-path.js'
import { UnsafeContent, unsafeExport, type UnsafeExport } from './refusal.js'
import { forEachCompound } from './snbt.js'

/** The root member that holds the export (spec 2). */
const CONTENT = 'content'

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
    const root = json.root()
    if (json.typeAt(root) !== 'object') return null
    const content = json.members(root).get(CONTENT)
    if (content === undefined || json.typeAt(content) !== 'object') return null
    const fields = json.members(content)
    const at = (name: string) => ({ offset: fields.get(name), path: memberPath(CONTENT, name) })

    const passengers = at('passengers')
    const oldPassengers = at('Passengers')
    const hitbox = at('hitbox')
    const commands = at('commands')
    const datapack = at('datapack')
    return (
      this.strings(passengers.offset, passengers.path, (text) => this.passengers(text)) ??
      this.oldPassengers(oldPassengers.offset, oldPassengers.path) ??
      this.commands(hitbox.offset, hitbox.path, 'hitbox') ??
      this.commands(commands.offset, commands.path, 'frame') ??
      this.datapack(datapack.offset, datapack.path)
    )
  }

  /** Passengers as they go inside a summon's `Passengers:[...]`: display entities only. */
  private passengers(text: string): void {
    checkOneLine(text)
    forEachCompound(text, (compound) => checkPassenger(compound, this.ownTags))
  }

  /** `Passengers` of older exports: one string, or a list of them, as `passengers`. */
  private oldPassengers(offset: number | undefined, path: string): UnsafeExport | null {
    if (offset === undefined || this.json.typeAt(offset) !== 'string') {
      return this.strings(offset, path, (text) => this.passengers(text))
    }
    return this.checked(path, null, () => this.passengers(this.json.string(offset)))
  }

  private commands(offset: number | undefined, path: string, place: CommandPlace) {
    return this.strings(offset, path, (command) => this.command.check(command, place))
  }

  /** `datapack.anim_keyframes` and `datapack.sound_keyframes`: animation → frame → commands. */
  private datapack(offset: number | undefined, path: string): UnsafeExport | null {
    if (offset === undefined) return null
    const json = this.json
    if (json.typeAt(offset) !== 'object') return this.shape(offset, path)
    const members = json.members(offset)
    for (const name of ['anim_keyframes', 'sound_keyframes']) {
      const keyframes = members.get(name)
      if (keyframes === undefined) continue
      const verdict = this.keyframes(keyframes, memberPath(path, name))
      if (verdict !== null) return verdict
    }
    return null
  }

  private keyframes(offset: number, path: string): UnsafeExport | null {
    const json = this.json
    if (json.typeAt(offset) !== 'object') return this.shape(offset, path)
    for (const [animation, frames] of json.members(offset)) {
      const animationPath = memberPath(path, animation)
      if (json.typeAt(frames) !== 'object') return this.shape(frames, animationPath)
      for (const [frame, commands] of json.members(frames)) {
        const verdict = this.commands(commands, memberPath(animationPath, frame), 'frame')
        if (verdict !== null) return verdict
      }
    }
    return null
  }

  /** Checks each string of the list at `offset` (absent: nothing to check). */
  private strings(
    offset: number | undefined,
    path: string,
    check: (text: string) => void,
  ): UnsafeExport | null {
    if (offset === undefined) return null
    const json = this.json
    if (json.typeAt(offset) !== 'array') return this.shape(offset, path)
    const elements = json.elements(offset)
    for (let index = 0; index < elements.length / 2; index++) {
      const start = elements[2 * index]!
      if (json.typeAt(start) !== 'string') return this.shape(start, elementPath(path, index))
      const text = json.string(start, elements[2 * index + 1])
      const verdict = this.checked(path, index, () => check(text))
      if (verdict !== null) return verdict
    }
    return null
  }

  /** Runs `check` on the string at `path` (element `index` of it, when not null). */
  private checked(path: string, index: number | null, check: () => void): UnsafeExport | null {
    try {
      check()
      return null
    } catch (error) {
      if (!(error instanceof UnsafeContent)) throw error
      return unsafeExport(index === null ? path : elementPath(path, index), error)
    }
  }

  private shape(offset: number, path: string): UnsafeExport {
    return unsafeExport(path, new UnsafeContent('shape', this.json.typeAt(offset)))
  }
}
