/**
 * A JSON Schema (2020-12) checker for the subset the OpenAPI document uses, enough to hold real
 * responses against it. A keyword it does not know is an error rather than silently ignored, so
 * the document cannot start relying on one that is never checked.
 */

type Schema = Record<string, unknown>

const ANNOTATIONS = new Set(['description', 'default', 'example', 'examples', 'title', 'format'])
const TYPE_OF: Record<string, (value: unknown) => boolean> = {
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  array: Array.isArray,
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number',
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
}

/** Every way `value` fails `schema`, as `path: problem` lines; empty when it conforms. */
export function schemaErrors(value: unknown, schema: Schema, root: unknown, path = '$'): string[] {
  const errors: string[] = []
  const fail = (problem: string) => errors.push(`${path}: ${problem}`)
  for (const [keyword, arg] of Object.entries(schema)) {
    switch (keyword) {
      case '$ref':
        errors.push(...schemaErrors(value, resolveRef(root, arg as string), root, path))
        break
      case 'type': {
        const types = Array.isArray(arg) ? (arg as string[]) : [arg as string]
        if (!types.some((t) => TYPE_OF[t]?.(value))) fail(`expected ${types.join('|')}`)
        break
      }
      case 'const':
        if (JSON.stringify(value) !== JSON.stringify(arg)) fail(`expected ${JSON.stringify(arg)}`)
        break
      case 'enum':
        if (!(arg as unknown[]).some((v) => JSON.stringify(v) === JSON.stringify(value))) {
          fail(`expected one of ${JSON.stringify(arg)}, got ${JSON.stringify(value)}`)
        }
        break
      case 'allOf':
        for (const sub of arg as Schema[]) errors.push(...schemaErrors(value, sub, root, path))
        break
      case 'anyOf':
      case 'oneOf': {
        const passing = (arg as Schema[]).filter(
          (sub) => schemaErrors(value, sub, root, path).length === 0,
        ).length
        if (keyword === 'anyOf' ? passing === 0 : passing !== 1) {
          fail(`${passing} of the ${keyword} alternatives match`)
        }
        break
      }
      case 'properties':
        if (!TYPE_OF.object!(value)) break
        for (const [name, sub] of Object.entries(arg as Record<string, Schema>)) {
          const field = (value as Record<string, unknown>)[name]
          if (field !== undefined) errors.push(...schemaErrors(field, sub, root, `${path}.${name}`))
        }
        break
      case 'required':
        if (!TYPE_OF.object!(value)) break
        for (const name of arg as string[]) {
          if (!(name in (value as object))) fail(`missing required "${name}"`)
        }
        break
      case 'additionalProperties': {
        if (!TYPE_OF.object!(value)) break
        const known = new Set(Object.keys((schema.properties as object | undefined) ?? {}))
        for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
          if (known.has(name)) continue
          if (arg === false) fail(`unexpected "${name}"`)
          else if (typeof arg === 'object') {
            errors.push(...schemaErrors(field, arg as Schema, root, `${path}.${name}`))
          }
        }
        break
      }
      case 'items':
        if (Array.isArray(value)) {
          value.forEach((item, i) =>
            errors.push(...schemaErrors(item, arg as Schema, root, `${path}[${i}]`)),
          )
        }
        break
      case 'minimum':
        if (typeof value === 'number' && value < (arg as number)) fail(`below ${String(arg)}`)
        break
      case 'maximum':
        if (typeof value === 'number' && value > (arg as number)) fail(`above ${String(arg)}`)
        break
      case 'pattern':
        if (typeof value === 'string' && !new RegExp(arg as string, 'u').test(value)) {
          fail(`${JSON.stringify(value)} does not match /${String(arg)}/`)
        }
        break
      default:
        if (!ANNOTATIONS.has(keyword)) fail(`the checker does not support "${keyword}"`)
    }
  }
  return errors
}

/** The target of a local reference such as `#/components/schemas/Export`. */
export function resolveRef(root: unknown, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`only local references are supported: ${ref}`)
  let at: unknown = root
  for (const part of ref.slice(2).split('/')) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~')
    at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined
  }
  if (typeof at !== 'object' || at === null) throw new Error(`unresolved reference ${ref}`)
  return at as Schema
}
