/**
 * A module of src/ loaded into Node: bundled with esbuild as wrangler bundles the Worker, since
 * Node cannot load src/ as it is (extensionless imports), then imported from memory. Used by the
 * scripts that run the product's own code before the Worker exists (the settings check, the
 * OpenAPI release).
 */
import { build } from 'esbuild'

/**
 * The Workers runtime's module, for code that reaches a room's face: a face may export a Durable
 * Object class (the rate limiter's, the ID allocator's) that the script never uses, and bundling
 * drops it with this stand-in. A class that is used after all fails loudly when constructed.
 */
const workersRuntime = {
  name: 'workers-runtime',
  setup(build) {
    build.onResolve({ filter: /^cloudflare:workers$/ }, ({ path }) => ({
      path,
      namespace: 'workers-runtime',
      sideEffects: false,
    }))
    build.onLoad({ filter: /.*/, namespace: 'workers-runtime' }, () => ({
      contents: [
        'class OnlyInWorkerd { constructor() { throw new Error("only the Workers runtime has this") } }',
        'export class DurableObject extends OnlyInWorkerd {}',
        'export class WorkerEntrypoint extends OnlyInWorkerd {}',
        'export const env = {}',
      ].join('\n'),
      loader: 'js',
    }))
  },
}

/** The module `entry` (an absolute path of a .ts file) as Node sees it after bundling. */
export async function importBundled(entry) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'warning',
    plugins: [workersRuntime],
  })
  const code = result.outputFiles[0].text
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)
}
