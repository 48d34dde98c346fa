/**
 * How a refusal spells where it is: JavaScript's property access, from the root object. A member
 * whose name is a plain word (ASCII letters, digits, `_`, `-`; not empty) is `.name`, any other
 * `["name"]` with the name spelled by `spellName`; an element is `[index]`. So
 * `content.datapack.anim_keyframes.open.7[2]`, `content.passengers[0]`,
 * `content.datapack.anim_keyframes["walk cycle"].3[0]`, `content["\ufeffpassengers"]`.
 */
import { isInvisible } from '../types/index.js'

const PLAIN_NAME = /^[A-Za-z0-9_-]+$/

/** The path of member `name` of the value at `parent` (`''` for the root object). */
export function memberPath(parent: string, name: string): string {
  if (PLAIN_NAME.test(name)) return parent === '' ? name : `${parent}.${name}`
  return `${parent}["${spellName(name)}"]`
}

/** The path of element `index` of the array at `parent`. */
export function elementPath(parent: string, index: number): string {
  return `${parent}[${index}]`
}

/**
 * A name as a JSON string spells it between its quotes (`JSON.stringify`), and then every code
 * point that is unprintable or that a reader does not see (U+007F-U+009F, U+2028, U+2029, the
 * vocabulary's `invisible` list) as `\uXXXX`, lower-case hex, a code point above U+FFFF as its
 * two surrogates: a path reads the same in a log, an error body and a terminal.
 */
export function spellName(name: string): string {
  const json = JSON.stringify(name)
  let spelled = ''
  for (const char of json.slice(1, -1)) {
    const code = char.codePointAt(0)!
    if ((code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 || isInvisible(code)) {
      for (let i = 0; i < char.length; i++) {
        spelled += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`
      }
    } else spelled += char
  }
  return spelled
}
