/**
 * How a refusal spells where it is: JavaScript's property access, from the root object. A member
 * whose name is a plain word (ASCII letters, digits, `_`, `-`; not empty) is `.name`, any other
 * `["name"]` with the name written as JSON writes a string (`JSON.stringify`); an element is
 * `[index]`. So `content.datapack.anim_keyframes.open.7[2]`, `content.passengers[0]`,
 * `content.datapack.anim_keyframes["walk cycle"].3[0]`.
 */

const PLAIN_NAME = /^[A-Za-z0-9_-]+$/

/** The path of member `name` of the value at `parent` (`''` for the root object). */
export function memberPath(parent: string, name: string): string {
  if (PLAIN_NAME.test(name)) return parent === '' ? name : `${parent}.${name}`
  return `${parent}[${JSON.stringify(name)}]`
}

/** The path of element `index` of the array at `parent`. */
export function elementPath(parent: string, index: number): string {
  return `${parent}[${index}]`
}
