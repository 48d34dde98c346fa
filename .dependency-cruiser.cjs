/**
 * The rooms of src/ and which way data flows between them (README "Layout"). Each room knows only
 * the rooms below it; CI fails on a violation, so the rule is learnt from the first red build.
 * @type {import('dependency-cruiser').IConfiguration}
 */
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
      name: 'substitution-is-pure',
      severity: 'error',
      comment:
        'The substitution engine is bytes in, bytes out: no HTTP, storage, publishing, IDs or Workers runtime.',
      from: { path: '^src/substitution/' },
      to: { path: ['^src/(http|exports|publish|ids|rate-limit|observability)/', '^cloudflare:'] },
    },
    {
      name: 'read-path-does-not-publish',
      severity: 'error',
      comment: 'The read path (src/exports/) never reaches into publishing.',
      from: { path: '^src/exports/' },
      to: { path: '^src/publish/' },
    },
    {
      name: 'ids-do-not-read-exports',
      severity: 'error',
      comment:
        'The ID allocator keeps grace copies but is no part of the read path: the record both store ' +
        'lives in src/export-metadata.ts, the chunked reading in src/large-chunks.ts.',
      from: { path: '^src/ids/' },
      to: { path: '^src/exports/' },
    },
    {
      name: 'client-imports-only-the-contract',
      severity: 'error',
      comment:
        'The published client (package export ./client) carries only itself, the wire contract and the ID rule.',
      from: { path: '^src/client/' },
      to: {
        pathNot: ['^src/client/', '^src/http/wire-contract\\.ts$', '^src/ids/publication-id\\.ts$'],
      },
    },
    {
      name: 'openapi-imports-only-the-contract',
      severity: 'error',
      comment: 'The OpenAPI document describes the wire contract; it must not depend on handlers.',
      from: { path: '^src/openapi/' },
      to: {
        pathNot: [
          '^src/openapi/',
          '^src/http/wire-contract\\.ts$',
          '^src/ids/publication-id\\.ts$',
          '^node_modules/',
        ],
      },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A module nothing imports is dead code (knip checks exports; this checks files).',
      from: {
        orphan: true,
        pathNot: [
          '\\.d\\.ts$',
          '^src/index\\.ts$',
          '^src/client/index\\.ts$',
          '^src/try-it/browser/',
        ],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/try-it/browser/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
}
