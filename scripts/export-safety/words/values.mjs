/** Values of the vocabulary's types, in SNBT: one each type reads, and one none of them does. */
import { P } from './exports.mjs'

/** A value of the type `ref` of `types` (a name or an inline type), in SNBT. */
export function sampleOf(types, ref, depth = 0) {
  const type = typeof ref === 'string' ? types[ref] : ref
  if (typeof type === 'string') return sampleOf(types, type, depth)
  switch (type.kind) {
    case 'number': {
      const value = type.min ?? 1
      if (type.integer) return `${value}${type.suffixes[0]}`
      return `${value}.5${type.suffixes.includes('f') ? 'f' : type.suffixes[0]}`
    }
    case 'boolean':
      return '1b'
    case 'string':
      if (type.placeholder) return `"${P}_0"`
      return type.pattern === undefined ||
        new RegExp(`^(?:${type.pattern})$`).test('minecraft:stone')
        ? '"minecraft:stone"'
        : '"x"'
    case 'enum':
      return `"${type.values[0]}"`
    case 'list':
      return `[${Array.from({ length: type.length ?? 1 }, () => sampleOf(types, type.of, depth + 1)).join(',')}]`
    case 'array':
      return `[${type.prefix};${Array.from({ length: type.length ?? 1 }, () => '1').join(',')}]`
    case 'compound': {
      const names = Object.keys(type.members).slice(0, depth < 2 ? undefined : 1)
      const name = (n) => (/^[A-Za-z0-9_]+$/.test(n) ? n : `"${n}"`)
      return `{${names.map((n) => `${name(n)}:${sampleOf(types, type.members[n], depth + 1)}`).join(',')}}`
    }
    case 'oneOf':
      return sampleOf(types, type.of[0], depth)
    case 'text':
      return `'{"text":"x","bold":true}'`
  }
  throw new Error(`no sample of ${JSON.stringify(type)}`)
}

/** A value of another shape than any the type `ref` reads. */
export function wrongOf(types, ref) {
  const type = typeof ref === 'string' ? types[ref] : ref
  if (typeof type === 'string') return wrongOf(types, type)
  const kinds =
    type.kind === 'oneOf'
      ? type.of.map((t) => (typeof t === 'string' ? types[t] : t).kind)
      : [type.kind]
  return kinds.some((kind) => ['number', 'boolean', 'enum'].includes(kind)) ? '{}' : '1b'
}
