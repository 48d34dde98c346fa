// The differential test's cases: seeded mutations of the fixtures and the export-safety vectors,
// each with the TypeScript check's verdict, one JSON line per case. The Java test
// (DifferentialTest) runs the Java check on each and reports every case where the two differ.
//
// node clients/java/src/test/differential/cases.mjs --seed 20261126 --count 6000 --out FILE
//   [--hostile-seed 41 --hostile-count 5000]
//
// Or, each run one set of cases instead of the mutations:
//   --hostile-seed 41 --hostile-count 5000: the hostile generator's (test/support/
//     hostile-exports.ts), each export as published and as fetched with each tag that completes
//     its insertion (substituted by the service's own substitution);
//   --versions-seed 48 --versions-count 1500: test/support/version-hostile-exports.ts's (click
//     events, string style flags, item forms by game version), each with its benign twin;
//   --documents-seed 41 --documents-count 520: `hostileDocuments`' (members a reader acts on and
//     sizes out of their bounds);
//   --corpus all: the must-accept corpus (test/corpus/manifest.json), each export as published
//     and as fetched with two tags.
//
// The TypeScript check is bundled from src/export-safety with esbuild (a dev dependency), so this
// runs the service's own code. Deterministic: the same seed gives the same cases, byte for byte.
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..')
const options = parseArguments(process.argv.slice(2))
const seed = Number(options.seed ?? 20261126)
const count = Number(options.count ?? 6000)
const out = resolve(options.out ?? join(root, 'clients/java/target/differential/cases.jsonl'))

let check
let random
let vocabulary

function parseArguments(args) {
  const parsed = {}
  for (let i = 0; i < args.length; i += 2) parsed[args[i].replace(/^--/, '')] = args[i + 1]
  return parsed
}

async function loadCheck() {
  const bundle = join(dirname(out), 'export-safety.mjs')
  mkdirSync(dirname(bundle), { recursive: true })
  await build({
    // `--check DIR`: the check of another checkout (a port in progress); the cases stay this one's.
    entryPoints: [join(resolve(options.check ?? root), 'src/export-safety/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    outfile: bundle,
    logLevel: 'error',
  })
  return import(pathToFileURL(bundle).href)
}

/** The hostile generator and the service's substitution, bundled from this checkout. */
async function loadHostile() {
  const entry = join(dirname(out), 'hostile-entry.mjs')
  const bundle = join(dirname(out), 'hostile.mjs')
  mkdirSync(dirname(bundle), { recursive: true })
  writeFileSync(
    entry,
    [
      `export { hostileDocuments, hostileExports } from ${JSON.stringify(join(root, 'test/support/hostile-exports.ts'))}`,
      `export { versionHostileExports } from ${JSON.stringify(join(root, 'test/support/version-hostile-exports.ts'))}`,
      `export { substitution } from ${JSON.stringify(join(root, 'src/substitution/index.ts'))}`,
    ].join('\n'),
  )
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: bundle,
    logLevel: 'error',
  })
  return import(pathToFileURL(bundle).href)
}

/** `json` as the service serves it fetched with `tag`. */
function fetchedWith(hostile, json, tag) {
  const engine = hostile.substitution(tag, { escapedPlaceholders: true })
  const parts = [engine.push(new TextEncoder().encode(json)), engine.finish()]
  return Buffer.concat(parts.map((part) => Buffer.from(part))).toString('utf8')
}

/** One case as a JSON line: what it is, how it was made, its text, its tag and the verdict. */
function caseLine(name, how, text, tag = null) {
  return JSON.stringify({ case: name, how, text, tag, verdict: verdictOf(text, tag) })
}

/** The cases of `json`: as published, then as served fetched with each of `tags`. */
function publishedAndFetched(hostile, name, how, json, tags) {
  const forms = [[json, null], ...tags.map((tag) => [fetchedWith(hostile, json, tag), tag])]
  return forms.map(([text, tag]) =>
    caseLine(`${name}${tag === null ? '' : ` tag=${tag}`}`, how, text, tag),
  )
}

/** The hostile generator's cases: each export as published, then as fetched with each tag. */
async function hostileCases() {
  const hostile = await loadHostile()
  const exports = generate(hostile.hostileExports, 'hostile', 41)
  const lines = exports.flatMap((hostileCase) =>
    publishedAndFetched(
      hostile,
      hostileCase.id,
      `${hostileCase.kind} ${hostileCase.form} ${hostileCase.position}`,
      hostileCase.json,
      hostileCase.fetchTags,
    ),
  )
  return { lines, exports: exports.length }
}

/** A generator of test/support, run on the fixtures with `--NAME-seed` and `--NAME-count`. */
function generate(generator, name, seed) {
  return generator({
    seed: Number(options[`${name}-seed`] ?? seed),
    count: Number(options[`${name}-count`]),
    fixtures: fixtureTexts(),
  })
}

/** The fixtures by name, as the generators of test/support read them. */
function fixtureTexts() {
  const names = readdirSync(join(root, 'fixtures'))
    .filter((file) => file.endsWith('.json'))
    .sort()
  return Object.fromEntries(
    names.map((file) => [
      file.replace(/\.json$/, ''),
      readFileSync(join(root, 'fixtures', file), 'utf8'),
    ]),
  )
}

/**
 * The generator of versions and texts (test/support/version-hostile-exports.ts, as
 * version-hostile.test.ts runs it): each hostile export and its benign twin, as published.
 */
async function versionCases() {
  const hostile = await loadHostile()
  const versioned = generate(hostile.versionHostileExports, 'versions', 48)
  const lines = versioned.flatMap((versionCase) => {
    const how = `${versionCase.kind} ${versionCase.version} ${versionCase.position}`
    return [
      caseLine(`version ${versionCase.id}`, how, versionCase.json),
      caseLine(`version ${versionCase.id} twin`, how, versionCase.twin),
    ]
  })
  return { lines, exports: versioned.length }
}

/**
 * The generator of the document (`hostileDocuments`, as hostile-generator.test.ts runs it):
 * members a reader acts on and sizes out of their bounds, as published.
 */
async function documentCases() {
  const hostile = await loadHostile()
  const documents = generate(hostile.hostileDocuments, 'documents', 41)
  const lines = documents.map((documentCase) =>
    caseLine(
      `document ${documentCase.id}`,
      `${documentCase.kind} ${documentCase.what}`,
      documentCase.json,
    ),
  )
  return { lines, exports: documents.length }
}

/** The tags the corpus is fetched with (as test/corpus/roundtrip.test.ts fetches it). */
const CORPUS_TAGS = ['bde', 'Corpus-Tag_9']

/**
 * The must-accept corpus (test/corpus/manifest.json): each export as published, and as served
 * fetched with each of `CORPUS_TAGS` (substituted by the service's own substitution).
 */
async function corpusCases() {
  const hostile = await loadHostile()
  const manifest = JSON.parse(readFileSync(join(root, 'test/corpus/manifest.json'), 'utf8'))
  const lines = manifest.flatMap((entry) =>
    publishedAndFetched(
      hostile,
      entry.file,
      `corpus ${entry.version} ${entry.kinds.join(',')}`,
      readFileSync(join(root, entry.file), 'utf8'),
      CORPUS_TAGS,
    ),
  )
  return { lines, exports: manifest.length }
}

/** What the TypeScript check says: its verdict, or the kind of error it threw. */
function verdictOf(text, tag) {
  try {
    const verdict =
      tag === null ? check.checkExportSafety(text) : check.checkExportSafety(text, { tag })
    if (verdict.safe) return { safe: true }
    return {
      safe: false,
      reason: verdict.reason,
      path: verdict.path,
      found: verdict.found,
      message: verdict.message,
    }
  } catch (error) {
    return {
      threw: error instanceof SyntaxError ? 'SyntaxError' : `${error.name}: ${error.message}`,
    }
  }
}

function mulberry32(state) {
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function pick(items) {
  return items[Math.floor(random() * items.length)]
}

function between(low, high) {
  return low + Math.floor(random() * (high - low + 1))
}

/** The words a check reads, so that mutations land on and near them. */
function words() {
  return [
    // entities and their keys
    'block_display',
    'item_display',
    'text_display',
    'interaction',
    'minecraft:block_display',
    'minecraft:item_display',
    'minecraft:text_display',
    'minecraft:interaction',
    'minecraft:marker',
    'minecraft:falling_block',
    'minecraft:command_block_minecart',
    'minecraft:tnt',
    'armor_stand',
    'Tags',
    'Rotation',
    'Glowing',
    'CustomName',
    'CustomNameVisible',
    'Silent',
    'NoGravity',
    'Invulnerable',
    'transformation',
    'billboard',
    'brightness',
    'glow_color_override',
    'view_range',
    'shadow_radius',
    'shadow_strength',
    'width',
    'height',
    'interpolation_duration',
    'start_interpolation',
    'teleport_duration',
    'block_state',
    'item',
    'text',
    'alignment',
    'background',
    'default_background',
    'line_width',
    'see_through',
    'shadow',
    'text_opacity',
    'response',
    'id',
    'Passengers',
    'Command',
    'TileEntityData',
    'BlockState',
    'Motion',
    'Pos',
    // commands, selectors, sources
    'data',
    'merge',
    'entity',
    'block',
    'modify',
    'playsound',
    'summon',
    'execute',
    'op',
    'function',
    'kill',
    'tp',
    'say',
    'tellraw',
    '/data',
    'type',
    'tag',
    'distance',
    'limit',
    'sort',
    'nearest',
    'furthest',
    'random',
    'arbitrary',
    'x',
    'name',
    'scores',
    'master',
    'music',
    'record',
    'weather',
    'hostile',
    'neutral',
    'player',
    'ambient',
    'voice',
    'ui',
    '@a',
    '@e',
    '@s',
    '@p',
    '@r',
    '@n',
    '[MODELSERVERTAG]',
    'gate_2',
    'bde_0',
  ]
}

/** Text a mutation inserts: the grammar's own characters, invisible ones, and attacks' pieces. */
const PIECES = [
  '"',
  '\\',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  ';',
  ' ',
  '  ',
  "'",
  '=',
  '!',
  '@',
  '.',
  '_',
  '-',
  '~',
  '^',
  '0',
  '1',
  'b',
  'f',
  '\n',
  '\r',
  '\t',
  '\u0000',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u00e9',
  '\ufeff',
  '\u200b',
  '\u200d',
  '\u2028',
  '\u2060',
  '\u202e',
  '\ud83d\ude00',
  '\\"',
  "\\'",
  '\\\\',
  ',,',
  ',{}',
  '{}',
  '[]',
  '[B;1b]',
  '[I;1,2]',
  '1b',
  '0.5f',
  '..1',
  '..',
  'tag=!x',
  'tag=',
  ',tag=bde_0',
  ',tag=[MODELSERVERTAG]_0',
  'op @a',
  'execute run op @a',
  '},{id:"minecraft:falling_block"',
  '},{id:"minecraft:falling_block",BlockState:{Name:"minecraft:repeating_command_block"},TileEntityData:{Command:"op @a",auto:1b},Time:1},{id:"minecraft:block_display",CustomNameVisible:',
  ',Passengers:[{id:"minecraft:item_display"}]',
  ',Passengers:[{id:"minecraft:tnt"}]',
  ',Tags:["x"]',
  ',Tags:["[MODELSERVERTAG]_9"]',
  ',CustomName:\'"hi"\'',
  ',CustomName:\'{"selector":"@a"}\'',
  'text:\'[{"nbt":"Pos","entity":"@a"}]\'',
  '{"selector":"@a"}',
  '{"nbt":"Inventory","entity":"@a"}',
  '{"score":{"name":"@a","objective":"x"}}',
  '{"translate":"block.minecraft.stone"}',
  '{"keybind":"key.jump"}',
  '{"text":"x","bold":true}',
]

const MUTATIONS = [
  { name: 'insert', apply: (text) => insertText(text, pick(PIECES)) },
  { name: 'insert-word', apply: (text) => insertText(text, pick(vocabulary)) },
  { name: 'delete', apply: (text) => deleteText(text) },
  { name: 'replace', apply: (text) => replaceText(text) },
  { name: 'string-insert', apply: (text) => inString(text, (s) => insertAt(s, pick(PIECES))) },
  { name: 'string-word', apply: (text) => inString(text, (s) => insertAt(s, pick(vocabulary))) },
  { name: 'string-swap-word', apply: (text) => inString(text, swapWord) },
  { name: 'string-delete', apply: (text) => inString(text, deleteAt) },
  {
    name: 'string-cut',
    apply: (text) => inString(text, (s) => s.slice(0, Math.floor(random() * s.length))),
  },
  { name: 'name-change', apply: (text) => inTree(text, renameMember) },
  { name: 'duplicate-member', apply: (text) => inTree(text, duplicateMember) },
  { name: 'shape-swap', apply: (text) => inTree(text, swapShape) },
  { name: 'root-member', apply: (text) => inTree(text, addRootMember) },
  { name: 'escapes', apply: (text) => reserialize(text, 0.2) },
  { name: 'raw-bom', apply: (text) => insertText(text, '\ufeff', nextTo(text, '"')) },
  { name: 'raw-bom-name', apply: (text) => inTree(text, (tree) => renameMember(tree, '\ufeff')) },
  { name: 'long', apply: (text) => inString(text, lengthen) },
  { name: 'deep', apply: (text) => inString(text, deepen) },
  { name: 'long-name', apply: (text) => inTree(text, longName) },
  { name: 'text', apply: (text) => inString(text, withText) },
  { name: 'item-text', apply: (text) => inString(text, withItemText) },
  { name: 'text', apply: (text) => inString(text, withText) },
  { name: 'string-insert', apply: (text) => inString(text, (s) => insertAt(s, pick(PIECES))) },
  { name: 'string-swap-word', apply: (text) => inString(text, swapWord) },
  { name: 'document-member', apply: (text) => inTree(text, addDocumentMember) },
  { name: 'size', apply: (text) => inString(text, withSize) },
]

/** `levels` arrays nested in an object: plain data `levels + 1` deep. */
const nest = (levels) => ({ a: JSON.parse('['.repeat(levels) + ']'.repeat(levels)) })

/** Members of `content` a reader reads or acts on, in their bounds and out of them, and others. */
const CONTENT_MEMBERS = [
  ['collidable', false],
  ['collidable', true],
  ['collidable', 'false'],
  ['vehicle', { type: 'minecart', subsystems: [{ turretId: '../x' }] }],
  ['vehicle', null],
  ['hitboxScanThreshold', 0.5],
  ['hitboxScanThreshold', 2],
  ['hitboxMergeDistance', 16],
  ['hitboxMergeDistance', 1e6],
  ['hitboxMergeVolumeLimit', 1.5],
  ['hitboxMergeVolumeLimit', 0.5],
  ['hitboxMergeVolumeLimit', '1.5'],
  ['version', '1.20.4'],
  ['version', '1.21.4 op'],
  ['version', 1.21],
  ['type', 'full'],
  ['type', 'Full'],
  ['project_id', 'a-1'],
  ['project_id', '../x'],
  ['meta', { a: 'x'.repeat(256) }],
  ['meta', { a: 'x'.repeat(257) }],
  ['meta', { a: 'op @a\u0007' }],
  ['meta', { a: '\u0085' }],
  ['meta', nest(7)],
  ['meta', nest(8)],
  ['meta', [1, 'op @a', null, true, { Tags: ['[MODELSERVERTAG]_0'] }]],
  ['cmd', 'op @a'],
  ['Vehicle', {}],
  ['vehicle\u200b', {}],
]

/** Members of `datapack`: BlockDisplayCreator's animations, clean and not, and others. */
const DATAPACK_MEMBERS = [
  ['transformation_animations', { a: { 0: ['op attacker'] } }],
  ['transformation_animations', { a: { 0: [] } }],
  ['sound_animations', { s: { 0: ['playsound minecraft:x master @a ~ ~ ~ 1 1 1'] } }],
  ['sound_animations', { s: { 0: ['playsound minecraft:x master @a ~ ~ ~ 0.5 1'] } }],
  ['sound_animations', []],
  ['other', {}],
]

/** A member of `content` or of its `datapack` put at any place among the others. */
function addDocumentMember(tree) {
  const content = tree?.members?.find(([name]) => name === 'content')?.[1]
  if (content?.members === undefined) return false
  const datapack = content.members.find(([name]) => name === 'datapack')?.[1]
  const [owner, [name, value]] =
    datapack?.members !== undefined && random() < 0.3
      ? [datapack, pick(DATAPACK_MEMBERS)]
      : [content, pick(CONTENT_MEMBERS)]
  owner.members.splice(between(0, owner.members.length), 0, [name, toTree(value)])
  return true
}

/** Sizes and audiences, in bounds and out: widths, hitbox coordinates, sound volumes. */
const SIZES = [
  [/width:[^,}]*/, ['width:1.5f', 'width:16f', 'width:16.01f', 'width:1000000f', 'width:3.0E38f']],
  [/height:[^,}]*/, ['height:2f', 'height:0', 'height:-1f', 'height:1e3f']],
  [
    /interaction ~ ~ ~/,
    [
      'interaction ~ ~1 ~',
      'interaction ~15.9 ~ ~',
      'interaction ~16 ~ ~',
      'interaction 0 64 0',
      'interaction ^ ^ ^-2',
    ],
  ],
  [
    /@a ~ ~ ~.*$/,
    [
      '@a ~ ~ ~ 1 1',
      '@a ~ ~ ~ 2 1 0',
      '@a ~ ~ ~ 2.5 1',
      '@a ~ ~ ~ 1 1 1',
      '@a ~ ~ ~ 1 1 0.0',
      '@a ~ ~ ~ 1 99 0',
    ],
  ],
]

/** A size or audience of a string changed where it has one (else a width added to a compound). */
function withSize(s) {
  const [pattern, values] = pick(SIZES.filter(([pattern]) => pattern.test(s)).concat([SIZES[0]]))
  if (pattern.test(s)) return s.replace(pattern, pick(values))
  const at = s.indexOf('{id:')
  return at < 0 ? s : s.slice(0, at + 1) + `${pick(values)},` + s.slice(at + 1)
}

/** JSON texts: plain, styled, world-reading at some depth, JavaScript's key order, not JSON. */
const TEXTS = [
  '"plain"',
  '{"text":"x"}',
  '[{"text":"a"},{"translate":"b"}]',
  '{"selector":"@a"}',
  '[{"text":"x","extra":[{"nbt":"Pos","entity":"@a"}]}]',
  '{"score":{"name":"@a","objective":"o"}}',
  '{"b":{"nbt":"x"},"0":{"score":1}}',
  '{"a":{"nbt":1},"a":2}',
  '{"a":1,"a":{"selector":"@s"}}',
  '{bad',
  '[1,]',
  '{"text":"x"',
  '[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]',
  '"\\u0041"',
  '[]',
  '{}',
  '{"keybind":"key.jump","bold":true}',
  '{"text":"","with":[{"selector":"@p"}]}',
  '{"4294967294":{"nbt":1},"x":{"score":1}}',
  '{"4294967295":{"nbt":1},"x":{"score":1}}',
  '1e999999999999',
  '{"text":"a","extra":["b",{"score":{}}]}',
  '['.repeat(64) + '1' + ']'.repeat(64),
  '['.repeat(65) + '{"nbt":1}' + ']'.repeat(65),
  '{"a":'.repeat(66) + '{"score":1}' + '}'.repeat(66),
  '[{"score":1},' + '['.repeat(70) + ']'.repeat(70) + ']',
  // The text grammar: repeated members of other types, JavaScript's own names, faults after depth.
  '['.repeat(70) + ']'.repeat(70) + 'x',
  '{"text":"a","text":1}',
  '{"extra":[],"extra":[{"selector":"@a"}]}',
  '{"text":"x","__proto__":{"nbt":1}}',
  '{"text":"x","__proto__":1}',
  '{"text":"x","color":"red","bold":1b}',
  '{"text":"x","shadow_color":[1,0.5,0,1]}',
  '{"translate":"a","with":[{"text":"b"},"c",[]]}',
  '{"text":"x","hoverEvent":{"action":"show_text","contents":{"nbt":"x"}}}',
]

/** A JSON text put where a part's CustomName (or a text display's text) goes. */
function withText(s) {
  const text = pick(TEXTS)
  const quoted = pick([
    `'${text}'`,
    `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`,
    text.startsWith('{') ? text.replaceAll('"', '') : `'${text}'`,
  ])
  const key = pick(['CustomName', 'text', 'CustomName'])
  const at = s.search(/\{(?:id|transformation|item|text|block_state|Tags|width)/)
  if (at < 0) return insertAt(s, `${key}:${quoted},`)
  return s.slice(0, at + 1) + `${key}:${quoted},` + s.slice(at + 1)
}

/** An item whose names or lore hold JSON text. */
function withItemText(s) {
  const key = pick(['custom_name', 'minecraft:lore', 'Lore', 'item_name', 'Name', 'other'])
  const text = pick(TEXTS)
  const value = key.toLowerCase().includes('lore') ? `['${text}']` : `'${text}'`
  const item = `item:{id:"minecraft:stone",count:1,components:{"${key}":${value}}}`
  const at = s.search(/\{(?:id|transformation)/)
  if (at < 0) return insertAt(s, `${item},`)
  return s.slice(0, at + 1) + `${item},` + s.slice(at + 1)
}

/**
 * `content.passengers` as several strings whose bytes as written add up to about the limit
 * (2 MiB): multi-byte characters in their tags, so that bytes and characters differ.
 */
function aroundThePassengerLimit(tree) {
  const content = tree?.members?.find(([name]) => name === 'content')?.[1]
  if (content?.members === undefined) return false
  const unit = pick([
    '{id:"minecraft:block_display",Tags:["[MODELSERVERTAG]_0"],transformation:[1f,0f,0f,0f,0f,1f,0f,0f,0f,0f,1f,0f,0f,0f,0f,1f]}',
    '{id:"minecraft:text_display",text:\'"é😀"\',Tags:["[MODELSERVERTAG]_1"]}',
  ])
  const unitBytes = Buffer.byteLength(JSON.stringify(unit).slice(1, -1))
  const target = 2_097_152 + between(-2 * unitBytes, 2 * unitBytes)
  const strings = []
  let bytes = 0
  while (bytes < target) {
    const count = Math.max(
      1,
      Math.min(between(2_000, 9_000), Math.ceil((target - bytes) / (unitBytes + 1))),
    )
    const piece = Array(count).fill(unit).join(',')
    strings.push(piece)
    bytes += Buffer.byteLength(JSON.stringify(piece).slice(1, -1))
  }
  const member = content.members.find(([name]) => name === 'passengers')
  if (member !== undefined) member[1] = strings
  else content.members.push(['passengers', strings])
  return true
}

/** `content.passengers` with parts carrying 9,990 to 10,010 distinct tags in all. */
function aroundTheTagLimit(tree) {
  const content = tree?.members?.find(([name]) => name === 'content')?.[1]
  if (content?.members === undefined) return false
  const count = between(9_990, 10_010)
  const perPart = between(1, 3)
  const parts = []
  for (let tag = 0; tag < count; tag += perPart) {
    const tags = []
    for (let i = tag; i < Math.min(count, tag + perPart); i++) tags.push(`"[MODELSERVERTAG]_${i}"`)
    parts.push(`{id:"minecraft:item_display",Tags:[${tags.join(',')}]}`)
  }
  const member = content.members.find(([name]) => name === 'passengers')
  if (member !== undefined) member[1] = [parts.join(',')]
  else content.members.push(['passengers', [parts.join(',')]])
  return true
}

/** A member name at and past the length limit. */
function longName(tree) {
  const owners = objects(tree).filter((node) => node.members.length > 0)
  if (owners.length === 0) return false
  const member = pick(pick(owners).members)
  member[0] = pick(['a', '"', '\ufeff', 'x_']).repeat(pick([128, 255, 256, 257, 300]))
  return true
}

function insertText(text, piece, at = Math.floor(random() * (text.length + 1))) {
  return text.slice(0, at) + piece + text.slice(at)
}

function deleteText(text) {
  if (text.length === 0) return null
  const at = Math.floor(random() * text.length)
  return text.slice(0, at) + text.slice(at + between(1, 3))
}

function replaceText(text) {
  if (text.length === 0) return null
  const at = Math.floor(random() * text.length)
  return text.slice(0, at) + pick(PIECES) + text.slice(at + 1)
}

/** A position just after one of the `char`s of `text`, or anywhere. */
function nextTo(text, char) {
  const places = []
  for (let i = text.indexOf(char); i >= 0 && places.length < 500; i = text.indexOf(char, i + 1))
    places.push(i + 1)
  return places.length === 0 ? Math.floor(random() * (text.length + 1)) : pick(places)
}

/** Where a mutation lands in a string: next to the grammar's characters half of the time. */
function position(s) {
  if (random() < 0.5 || s.length === 0) return Math.floor(random() * (s.length + 1))
  const places = []
  for (let i = 0; i < s.length; i++)
    if (',{}[]:= "\''.includes(s[i])) places.push(random() < 0.5 ? i : i + 1)
  return places.length === 0 ? Math.floor(random() * (s.length + 1)) : pick(places)
}

function insertAt(s, piece) {
  const at = position(s)
  return s.slice(0, at) + piece + s.slice(at)
}

function deleteAt(s) {
  if (s.length === 0) return s
  const at = position(s)
  return s.slice(0, at) + s.slice(at + between(1, 4))
}

/** One word of the string (a run of word characters) replaced by a vocabulary word. */
function swapWord(s) {
  const runs = [...s.matchAll(/[A-Za-z0-9_:.+-]+/g)]
  if (runs.length === 0) return insertAt(s, pick(vocabulary))
  const run = pick(runs)
  return s.slice(0, run.index) + pick(vocabulary) + s.slice(run.index + run[0].length)
}

/** A string near and past the limits: a command's length, a name's length. */
function lengthen(s) {
  const size = pick([32_400, 32_500 - s.length, 32_501 - s.length, 40_000, 300, 1_000, 5_000])
  return insertAt(s, pick(['"', 'a', ' ', '1f,', '\\']).repeat(Math.max(1, Math.floor(size / 2))))
}

/** SNBT nested around its depth limit. */
function deepen(s) {
  const depth = pick([62, 63, 64, 65, 100])
  const open = pick(['{a:', '[', '{"a":'])
  const close = open === '[' ? ']' : '}'
  return insertAt(s, open.repeat(depth) + '1' + close.repeat(depth))
}

/** Applies `change` to one string value of the document (its text re-serialized). */
function inString(text, change) {
  return inTree(text, (tree) => {
    const strings = []
    walk(tree, (holder, key, value) => {
      if (typeof value === 'string') strings.push([holder, key])
    })
    if (strings.length === 0) return false
    const [holder, key] = pick(strings)
    holder[key] = change(holder[key])
    return true
  })
}

/**
 * Applies `change` to the document as a tree whose objects are lists of members (so a name may
 * repeat), then writes it back. Null when the text is not JSON or nothing changed.
 */
function inTree(text, change) {
  let tree
  try {
    tree = toTree(JSON.parse(text))
  } catch {
    return null
  }
  if (change(tree) === false) return null
  return write(tree, 0)
}

function reserialize(text, escapeShare) {
  let tree
  try {
    tree = toTree(JSON.parse(text))
  } catch {
    return null
  }
  return write(tree, escapeShare)
}

/** An object is `{ members: [[name, value], ...] }`; arrays and scalars stay as they are. */
function toTree(value) {
  if (Array.isArray(value)) return value.map(toTree)
  if (value !== null && typeof value === 'object') {
    return { members: Object.entries(value).map(([name, member]) => [name, toTree(member)]) }
  }
  return value
}

/** Calls `visit(holder, key, value)` for every value below the root. */
function walk(node, visit) {
  if (Array.isArray(node)) {
    node.forEach((item, index) => {
      visit(node, index, item)
      walk(item, visit)
    })
  } else if (node !== null && typeof node === 'object') {
    for (const member of node.members) {
      visit(member, 1, member[1])
      walk(member[1], visit)
    }
  }
}

function objects(tree) {
  const found = [tree].filter(
    (node) => node !== null && typeof node === 'object' && !Array.isArray(node),
  )
  walk(tree, (holder, key, value) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) found.push(value)
  })
  return found
}

function renameMember(tree, prefix) {
  const owners = objects(tree).filter((node) => node.members.length > 0)
  if (owners.length === 0) return false
  const member = pick(pick(owners).members)
  const name = member[0]
  const change =
    prefix ??
    pick([
      '\ufeff',
      '\u200b',
      '\u2060',
      '\u00ad',
      'x',
      ' ',
      '\u0000',
      'P',
      '\u202e',
      '\u034f',
      '\u180e',
    ])
  member[0] = random() < 0.7 ? change + name : name + change
  return true
}

function duplicateMember(tree) {
  const owners = objects(tree).filter((node) => node.members.length > 0)
  if (owners.length === 0) return false
  const owner = pick(owners)
  const [name, value] = pick(owner.members)
  const other = pick([{ members: [] }, [], '', 'op @a', structuredClone(value), ['op @a'], null])
  const copy = [random() < 0.3 ? pick(['\ufeff', '\u200b', '']) + name : name, other]
  owner.members.splice(between(0, owner.members.length), 0, copy)
  return true
}

function swapShape(tree) {
  const places = []
  walk(tree, (holder, key) => places.push([holder, key]))
  if (places.length === 0) return false
  const [holder, key] = pick(places)
  const value = holder[key]
  holder[key] = pick([
    { members: [] },
    [],
    '',
    0,
    true,
    null,
    typeof value === 'string' ? [value] : 'x',
    Array.isArray(value) && value.length > 0 ? value[0] : { members: [['0', value]] },
  ])
  return true
}

function addRootMember(tree) {
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree)) return false
  const name = pick([
    'commands',
    'Passengers',
    'passengers',
    'datapack',
    'meta',
    'version',
    'x',
    'content',
  ])
  const value = pick([['op @a'], 'op @a', { members: [] }, 1, ['{id:"minecraft:tnt"}']])
  tree.members.splice(between(0, tree.members.length), 0, [name, value])
  return true
}

/** Writes the tree as JSON; each character of a string or name is a `\u` escape at `escapeShare`. */
function write(node, escapeShare) {
  if (Array.isArray(node)) return `[${node.map((item) => write(item, escapeShare)).join(',')}]`
  if (node !== null && typeof node === 'object') {
    const members = node.members.map(
      ([name, value]) => `${quote(name, escapeShare)}:${write(value, escapeShare)}`,
    )
    return `{${members.join(',')}}`
  }
  if (typeof node === 'string') return quote(node, escapeShare)
  return JSON.stringify(node)
}

function quote(s, escapeShare) {
  if (escapeShare === 0) return JSON.stringify(s)
  let out = '"'
  for (const char of JSON.stringify(s)
    .slice(1, -1)
    .match(/\\u[0-9a-f]{4}|\\.|[\s\S]/g) ?? []) {
    if (char.length === 1 && random() < escapeShare) {
      out += `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
    } else out += char
  }
  return out + '"'
}

/** The vectors as they are, and slices of the fixtures small enough to mutate many times. */
function baseDocuments() {
  const vectors = join(root, 'test/vectors/export-safety')
  const found = readdirSync(vectors)
    .filter((file) => file.endsWith('.json') && file !== 'manifest.json')
    .sort()
    .map((file) => ({ name: file, text: readFileSync(join(vectors, file), 'utf8') }))
  const fixtures = readdirSync(join(root, 'fixtures'))
    .filter((file) => file.endsWith('.json'))
    .sort()
  for (const file of fixtures) {
    const text = readFileSync(join(root, 'fixtures', file), 'utf8')
    found.push({ name: file, text: slice(JSON.parse(text), 'whole') })
    for (let i = 0; i < 12; i++)
      found.push({ name: `${file}#${i}`, text: slice(JSON.parse(text), i) })
  }
  return found
}

/** A fixture with a few of its passengers, animations, frames and commands. */
function slice(document, which) {
  const content = document.content
  const small = {}
  // The frames keep the commands that reach the parts kept, so that the check reads them whole.
  const kept = []
  const reachesKept = (command) =>
    !command.startsWith('data merge') || kept.some((tag) => command.includes(`tag=${tag},`))
  for (const [name, value] of Object.entries(content)) {
    if (name === 'passengers') {
      const compounds = value.join(',').split(/(?<=\}),(?=\{id:)/)
      const start = which === 'whole' ? 0 : between(0, compounds.length - 1)
      small.passengers = [compounds.slice(start, start + between(1, 4)).join(',')]
      for (const tag of small.passengers[0].matchAll(/Tags:\["([^"]+)"/g)) kept.push(tag[1])
    } else if (name === 'datapack') {
      small.datapack = {}
      for (const [keyframes, tracks] of Object.entries(value)) {
        small.datapack[keyframes] = {}
        for (const [track, frames] of Object.entries(tracks).slice(0, between(1, 2))) {
          const entries = Object.entries(frames)
          const start = between(0, Math.max(0, entries.length - 3))
          small.datapack[keyframes][track] = Object.fromEntries(
            entries
              .slice(start, start + between(1, 3))
              .map(([frame, commands]) => [frame, commands.filter(reachesKept).slice(0, 3)]),
          )
        }
      }
    } else small[name] = value
  }
  return JSON.stringify({ content: small })
}

async function main() {
  check = await loadCheck()
  const generated =
    options['hostile-count'] !== undefined
      ? ['hostile', hostileCases]
      : options['versions-count'] !== undefined
        ? ['version', versionCases]
        : options['documents-count'] !== undefined
          ? ['document', documentCases]
          : options.corpus !== undefined
            ? ['corpus', corpusCases]
            : null
  if (generated !== null) {
    const [what, cases] = generated
    const { lines, exports } = await cases()
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, lines.join('\n') + '\n')
    console.log(
      `${what} cases: ${lines.length} (${exports} exports and their other forms), written to ${out}`,
    )
    return
  }
  random = mulberry32(seed)
  vocabulary = words()
  const bases = baseDocuments()
  const lines = []
  for (let index = 0; index < count; index++) {
    const base = pick(bases)
    const steps = 1 + Math.floor(random() * 3)
    let text = base.text
    const how = [base.name]
    for (let step = 0; step < steps; step++) {
      const mutation = pick(MUTATIONS)
      const next = mutation.apply(text)
      if (next === null) continue
      text = next
      how.push(mutation.name)
    }
    // Rarely, passenger strings around their limit together (2 MiB as written): a few MB each.
    if (random() < 0.0025) {
      const next = inTree(text, aroundThePassengerLimit)
      if (next !== null) {
        text = next
        how.push('huge')
      }
    }
    // As rarely, parts carrying around the most distinct tags a model may have (10,000).
    if (random() < 0.0025) {
      const next = inTree(text, aroundTheTagLimit)
      if (next !== null) {
        text = next
        how.push('many-tags')
      }
    }
    const tag = random() < 0.5 ? null : 'gate_2'
    if (tag !== null) {
      text = text.replaceAll('[MODELSERVERTAG]', tag)
      how.push('fetched')
    }
    lines.push(caseLine(index, how.join(' '), text, tag))
  }
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, lines.join('\n') + '\n')
  console.log(
    `differential cases: ${count}, seed ${seed}, ${bases.length} bases, written to ${out}`,
  )
}

await main()
