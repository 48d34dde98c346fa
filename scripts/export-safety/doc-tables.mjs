/**
 * The tables of docs/export-safety.md that src/export-safety/types/vocabulary.json decides, written
 * from it: the keys each part may set and their types, the types, the item components. They sit
 * in the page between `<!-- vocabulary:NAME -->` and `<!-- /vocabulary:NAME -->`;
 * `node scripts/export-safety/write-doc-tables.mjs` rewrites them, and a test fails when the
 * page is stale.
 */
import { code, markdownTable } from '../lib/markdown-table.mjs'

/** A type reference in words: a name of `types` as a code span, an inline type described. */
function typeName(ref, types) {
  return typeof ref === 'string' ? code(ref) : describe(ref, types)
}

/** What a type accepts, in a few words. */
function describe(type, types) {
  switch (type.kind) {
    case 'number': {
      const what = type.integer ? 'integer' : 'number'
      const suffixes = type.suffixes.map((suffix) => (suffix === '' ? 'none' : code(suffix)))
      const range = type.min !== undefined ? `, ${type.min} to ${type.max}` : ''
      return `${what}${range}; suffix ${suffixes.join(', ')}`
    }
    case 'boolean':
      return 'boolean: `true`, `false`, `0b`, `1b` (`B` too, `-0b`)'
    case 'string': {
      const parts = ['quoted string']
      if (type.pattern !== undefined) parts.push(`matching ${code(type.pattern)}`)
      if (type.placeholder === 'prefix') parts.push('the placeholder only at its start')
      if (type.words !== undefined) {
        parts.push(
          `or a word matching ${code(type.words)} (not \`true\` nor \`false\`, in any case)`,
        )
      }
      return parts.join(', ')
    }
    case 'enum':
      return `one of ${type.values.map(code).join(', ')}`
    case 'list': {
      const length = type.length === undefined ? 'list' : `list of ${type.length}`
      return `${length}: ${typeName(type.of, types)}`
    }
    case 'array':
      return `${code(`[${type.prefix};...]`)}${type.length === undefined ? '' : ` of ${type.length}`}: ${typeName(type.of, types)}`
    case 'compound': {
      const members = Object.entries(type.members).map(
        ([name, ref]) => `${code(name)} ${typeName(ref, types)}`,
      )
      if (type.others !== undefined) members.push(`any other name: ${typeName(type.others, types)}`)
      if (type.unknown === 'component') return 'compound of the item components below'
      return `compound: ${members.length === 0 ? 'empty' : members.join('; ')}`
    }
    case 'oneOf':
      return type.of.map((ref) => typeName(ref, types)).join(' or ')
    case 'text':
      return `JSON text (below) of ${typeName(type.of, types)}`
    case 'none':
      return 'nothing: a value there is refused'
  }
  throw new Error(`no description of ${JSON.stringify(type)}`)
}

/** Every table, by its marker's name. */
export function docTables(vocabulary) {
  const { types, keyTypes, entities } = vocabulary
  const holders = (key) =>
    Object.entries(entities)
      .filter(([, entity]) => entity.keys.includes(key))
      .map(([name]) => name)
  const everyOne = Object.keys(entities)
  return {
    keys: markdownTable(
      ['key', 'type', 'on'],
      Object.entries(keyTypes).map(([key, ref]) => {
        const on = holders(key)
        return [
          code(key),
          typeName(ref, types),
          on.length === everyOne.length ? 'every part' : on.map(code).join(', '),
        ]
      }),
    ),
    types: markdownTable(
      ['type', 'accepts'],
      Object.entries(types)
        .filter(([name]) => name !== 'components')
        .map(([name, type]) => [
          code(name),
          typeof type === 'string' ? code(type) : describe(type, types),
        ]),
    ),
    components: markdownTable(
      ['component', 'type'],
      Object.entries(types.components.members).map(([name, ref]) => [
        code(name),
        typeName(ref, types),
      ]),
    ),
    versions: markdownTable(
      ['game versions', 'read otherwise than the types below'],
      vocabulary.versions.eras.map((era, index, eras) => {
        const next = eras[index + 1]
        const span =
          next === undefined ? `${era.from} and later` : `${era.from} to before ${next.from}`
        const replaced = Object.entries(era.types).map(
          ([name, ref]) => `${code(name)} is ${typeName(ref, types)}`,
        )
        const isDefault = era.from === vocabulary.versions.default ? ' (the default)' : ''
        return [`${span}${isDefault}`, replaced.length === 0 ? 'none' : replaced.join('; ')]
      }),
    ),
    members: markdownTable(
      ['member of `content`', 'JSON type', 'accepted'],
      Object.entries(vocabulary.members).map(([name, rule]) => [
        code(name),
        rule.json === 'data' ? 'any' : rule.json,
        rule.pattern !== undefined
          ? `matching ${code(rule.pattern)}`
          : rule.min !== undefined
            ? `${rule.min} to ${rule.max}`
            : rule.only !== undefined
              ? `only ${code(String(rule.only))}`
              : `plain data: nested at most ${vocabulary.data.maxDepth} deep, strings of at most ${vocabulary.data.maxStringChars} characters without control characters`,
      ]),
    ),
    'reader-members': Object.entries(vocabulary.readerMembers)
      .map(([reader, rows]) =>
        [
          `**${reader}**`,
          '',
          markdownTable(
            ['member', 'what the plugin does with it', 'what the check accepts'],
            rows.map(([member, does, accepts]) => [code(member), does, accepts]),
          ),
        ].join('\n'),
      )
      .join('\n\n'),
    'refused-components': markdownTable(
      ['component', 'refused: it holds'],
      Object.entries(vocabulary.refusedComponents).map(([name, why]) => [code(name), why]),
    ),
  }
}

/** `page` with every marked table replaced by the one `vocabulary` gives. */
export function withDocTables(page, vocabulary) {
  let out = page
  for (const [name, text] of Object.entries(docTables(vocabulary))) {
    const open = `<!-- vocabulary:${name} -->`
    const close = `<!-- /vocabulary:${name} -->`
    const start = out.indexOf(open)
    const end = out.indexOf(close)
    if (start < 0 || end < start)
      throw new Error(`docs/export-safety.md has no ${open} ... ${close}`)
    out = `${out.slice(0, start + open.length)}\n\n${text}\n\n${out.slice(end)}`
  }
  return out
}
