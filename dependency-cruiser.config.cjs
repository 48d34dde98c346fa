/**
 * The rooms of src/ (its folders) and which way data flows between them (docs/architecture.md,
 * whose map `npm run docs:map` draws from the imports this configuration reads). Each room knows only the rooms below it, so no two rooms import each
 * other, directly or through a third; a room enters another only through its face (index.ts), and
 * code outside src/ (scripts/, test/, web/) through its faces. CI fails on a violation (`npm run check:layers`), so the rule is learnt from
 * the first red build.
 */

/**
 * A rule that the room `from` (a folder of src/) imports nothing of `to` (a folder of src/, or an
 * alternation of folders), where the order of the rooms alone would let it.
 */
function noImport(name, from, to, comment) {
  return {
    name,
    severity: 'error',
    comment,
    from: { path: `^src/${from}/` },
    to: { path: `^src/${to}/` },
  }
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle means two modules are one concept or a layer reaches upward. The generated ' +
        'worker-configuration.d.ts names the Durable Object classes in Env by type (wrangler types ' +
        'writes it so); cycles through it are type-only and not ours to break.',
      from: {},
      to: { circular: true, viaOnly: { pathNot: '^worker-configuration\\.d\\.ts$' } },
    },
    {
      name: 'no-room-cycles',
      severity: 'error',
      comment:
        'Rooms form layers: a room that imports another, directly or through a third, is never ' +
        'imported back by it. Checked on folders, since no file-level cycle is needed for two ' +
        'rooms to know each other.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'shared-root-modules-import-no-room',
      severity: 'error',
      comment:
        'The modules at the root of src/ beside index.ts and app.ts, the Worker and the app it ' +
        'serves (config.ts, timeout.ts), are below every room; the folder check sees src/ as the ' +
        'parent of the rooms, not as one of them.',
      from: { path: '^src/[^/]+\\.ts$', pathNot: ['^src/index\\.ts$', '^src/app\\.ts$'] },
      to: { path: '^src/[^/]+/' },
    },
    {
      name: 'contract-is-a-leaf',
      severity: 'error',
      comment:
        'The wire contract, the ID rule, the routes and the version are written once, in ' +
        'src/contract/, for the server, the client and the OpenAPI document alike; it imports no room.',
      from: { path: '^src/contract/' },
      to: { pathNot: ['^src/contract/', '^package\\.json$'] },
    },
    {
      name: 'observability-is-a-leaf',
      severity: 'error',
      comment:
        'The request log knows no route, limiter or ID rule: the rooms note their facts on the ' +
        "context. It imports Hono, the failure types (the http room's face) and the Env type, " +
        'nothing else of src/.',
      from: { path: '^src/observability/' },
      to: {
        path: '^src/',
        pathNot: ['^src/observability/', '^src/http/index\\.ts$', '^src/config\\.ts$'],
      },
    },
    {
      name: 'json-is-pure',
      severity: 'error',
      comment:
        'The JSON byte scanner is bytes in, facts out: it imports nothing of src/ but itself.',
      from: { path: '^src/json/' },
      to: { path: '^src/', pathNot: '^src/json/' },
    },
    {
      name: 'substitution-is-pure',
      severity: 'error',
      comment:
        'The substitution engine is bytes in, bytes out: no HTTP, storage, publishing, IDs or Workers runtime.',
      from: { path: '^src/substitution/' },
      to: {
        path: [
          '^src/(http|exports|publish|ids|rate-limit|observability|storage|contract)/',
          '^cloudflare:',
        ],
      },
    },
    noImport(
      'read-path-does-not-publish',
      'exports',
      'publish',
      'The read path (src/exports/) never reaches into publishing.',
    ),
    noImport(
      'ids-do-not-read-exports',
      'ids',
      'exports',
      'The ID allocator keeps grace copies but is no part of the read path: the record both store ' +
        'and the chunked reading live in src/storage/.',
    ),
    {
      name: 'client-imports-only-the-contract',
      severity: 'error',
      comment:
        'The published client (package export ./client) carries only itself, the contract ' +
        '(never the version, which would bring package.json along) and the display-model ' +
        'vocabulary, which it re-exports (and which brings the JSON reader, src/json/, along).',
      from: { path: '^src/client/' },
      to: {
        pathNot: [
          '^src/client/',
          '^src/contract/(wire|publication-id|routes)\\.ts$',
          '^src/export-safety/',
        ],
      },
    },
    {
      name: 'export-safety-is-pure',
      severity: 'error',
      comment:
        'The display-model vocabulary is text in, verdict out, shared by the Worker and the ' +
        'client: it imports nothing of src/ but itself and the JSON reader (src/json/, through ' +
        'its face; pure as well, and the one reader of JSON bytes), and nothing of the Workers ' +
        'runtime.',
      from: { path: '^src/export-safety/' },
      to: { path: ['^src/(?!export-safety/|json/index\\.ts$)', '^cloudflare:', '^node:'] },
    },
    {
      name: 'export-safety-rooms-meet-at-their-faces',
      comment:
        'The export check is a room of rooms (docs/export-safety.md, "The rooms of the check"): ' +
        'syntax, types, rules, readers and walk. Each enters another only through its face, ' +
        "src/export-safety/<room>/index.ts, and the check's own face (index.ts) and testing.ts " +
        'enter them the same way; the rest of src/ enters none of them (rooms-meet-at-their-faces).',
      severity: 'error',
      // $1 is the importing inner room; the check's own face and testing.ts stand in none.
      from: { path: '^src/export-safety/(?:([^/]+)/|[^/]+\\.ts$)' },
      to: {
        path: '^src/export-safety/[^/]+/',
        pathNot: [
          '^src/export-safety/$1/',
          '^src/export-safety/[^/]+/index\\.ts$',
          // The vocabulary as data, which testing.ts hands the tests that edit a copy of it.
          '^src/export-safety/types/vocabulary\\.json$',
        ],
      },
    },
    {
      name: 'export-safety-rooms-stand-in-order',
      comment:
        "The check's inner rooms stand in one order, each importing only rooms before it: " +
        'types (the vocabulary per version and the refusal it names), syntax (the SNBT and ' +
        'JSON-text readers, which type each value as they read it), readers (the plugin reader ' +
        'models, plain code over text that imports no room), rules (commands, entities, and each ' +
        "reader's reading of the passengers held to them) and walk (the document pass). No inner " +
        "room imports the check's own face or testing.ts.",
      severity: 'error',
      from: { path: '^src/export-safety/(types|syntax|readers|rules)/' },
      to: {
        path: ['^src/export-safety/[^/]+\\.ts$', '^src/export-safety/walk/'],
      },
    },
    noImport(
      'export-safety-types-imports-no-room',
      'export-safety/types',
      'export-safety/(syntax|readers|rules)',
      'The types room is the lowest of the check: it imports no other room of it.',
    ),
    noImport(
      'export-safety-syntax-imports-only-types',
      'export-safety/syntax',
      'export-safety/(readers|rules)',
      'The readers of SNBT and JSON text type what they read: they know the types room only.',
    ),
    noImport(
      'export-safety-readers-import-no-room',
      'export-safety/readers',
      'export-safety/(types|syntax|rules)',
      "The plugin reader models are the plugins' code written again, text in, entities out: " +
        'they import no room of the check, so the rules can hold what they read to the vocabulary.',
    ),
    {
      name: 'openapi-imports-only-the-contract',
      severity: 'error',
      comment: 'The OpenAPI document describes the wire contract; it must not depend on handlers.',
      from: { path: '^src/openapi/' },
      to: {
        pathNot: ['^src/openapi/', '^src/contract/', '^node_modules/'],
      },
    },
    {
      name: 'try-it-page-uses-only-the-client',
      severity: 'error',
      comment:
        'The try-it page (web/try-it/) is a browser app beside the service: it reaches the ' +
        'service as any web page would, through the typed client (export-retrieval-service/client). ' +
        "It also reads SNBT with the display-model check's own reader, through the check's face " +
        '(src/export-safety/index.ts), so that it never draws a model the check reads differently.',
      from: { path: '^web/' },
      to: { path: '^src/', pathNot: ['^src/client/', '^src/export-safety/index\\.ts$'] },
    },
    {
      name: 'outside-src-enters-a-room-through-its-faces',
      severity: 'error',
      comment:
        'Outside src/ (scripts/, test/, web/), a room is imported only through its face, ' +
        'src/<room>/index.ts, or its second face src/<room>/testing.ts: the names only tests and ' +
        'the bench need (a pure pass over thousands of generated inputs, arithmetic driven with an explicit clock), ' +
        'listed in one file so that a room can rearrange its inner files without breaking them, ' +
        'and so that what the tests lean on is visible. src/contract/ is the exception, by design: ' +
        'it has no inner files, each of its files is a face of its own. The package exports ' +
        './publish-rpc by its file; Node scripts load routes.ts and wire.ts directly (Node strips ' +
        'their types, and a face of extensionless re-exports it could not load); and the client ' +
        'imports wire.ts, routes.ts and publication-id.ts but never version.ts, which brings ' +
        'package.json along, so one index.ts would carry the version into the client. ' +
        'src/export-safety/types/vocabulary.json is a face too: the vocabulary as data, read by the ' +
        "check, the Java client (from its jar), the docs' tables and the hostile generator alike.",
      from: { path: '^(scripts|test|web)/' },
      to: {
        path: '^src/[^/]+/',
        pathNot: [
          '^src/[^/]+/(index|testing)\\.ts$',
          '^src/contract/',
          '^src/export-safety/types/vocabulary\\.json$',
        ],
      },
    },
    {
      name: 'rooms-meet-at-their-faces',
      severity: 'error',
      comment:
        'Inside src/, a room imports another room only through its face, src/<room>/index.ts, as ' +
        "code outside src/ does; a room's own files import each other freely. So do the Worker, " +
        'the app and the shared modules at the root of src/. The face is the list of what the ' +
        'room offers the others, so a room can rearrange its inner files, and a reader sees at ' +
        'one glance what crosses the wall. src/contract/, whose files are each a face, is the ' +
        'exception, for the reason given in the rule above.',
      // $1 is the importing room; a module at the root of src/ has none.
      from: { path: '^src/(?:([^/]+)/|[^/]+\\.ts$)' },
      to: {
        path: '^src/[^/]+/',
        pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$', '^src/contract/'],
      },
    },
    {
      name: 'testing-faces-serve-only-tests-and-the-bench',
      severity: 'error',
      comment:
        "A room's testing.ts is for test/ and scripts/ only: the service never depends on what " +
        'exists for its tests.',
      from: { path: '^src/' },
      to: { path: '^src/[^/]+/testing\\.ts$' },
    },
    {
      name: 'rate-limit-isolate-meets-the-object-through-its-protocol',
      severity: 'error',
      comment:
        "The limiter's isolate side (the middleware and what each isolate keeps) knows the " +
        'Durable Object only by what they exchange (src/rate-limit/protocol.ts), as src/ids/ ' +
        'does its shards: never by its module or its storage plan.',
      from: {
        path: '^src/rate-limit/(middleware|network-gate|refusal-memory|known-clients|request-context)\\.ts$',
      },
      to: { path: '^src/rate-limit/(rate-limiter|write-behind)\\.ts$' },
    },
    {
      name: 'rate-limit-object-knows-no-isolate-module',
      severity: 'error',
      comment:
        "The limiter's object and its pure rules never reach into an isolate's memory or the " +
        'middleware: what the isolate knows reaches them in the call (protocol.ts).',
      from: { path: '^src/rate-limit/(rate-limiter|write-behind|limits|misses|windows)\\.ts$' },
      to: {
        path: '^src/rate-limit/(middleware|network-gate|refusal-memory|known-clients|request-context)\\.ts$',
      },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A module nothing imports is dead code (knip checks exports; this checks files).',
      from: {
        // Tests, scripts and bench Workers are entry points: nothing imports them.
        path: '^(src|web/try-it/src)/',
        orphan: true,
        pathNot: [
          '\\.d\\.ts$',
          '^src/index\\.ts$',
          '^src/client/index\\.ts$',
          // The settings check of `npm start` and `npm run deploy` (scripts/settings-check.mjs).
          '^src/settings/index\\.ts$',
          '^web/try-it/src/browser/(page|model-worker)\\.ts$',
        ],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.mjs'],
      // The try-it page imports the typed client by its package name, through package.json's exports.
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'default'],
    },
  },
}
