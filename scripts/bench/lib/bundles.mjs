/**
 * The run's bundles, in bench-results/build/: the Worker as `npm run build` makes it (or the
 * candidate of `--entry`), the sections' Workers (esbuild, for workerd) and the TypeScript their
 * Node halves load (esbuild, for Node). A bundle is named after its file: `x-worker.ts` becomes
 * `build/x-worker.js`, a Node module `build/x.mjs`.
 */
import { build } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { WORKER_BUILD_OPTIONS } from './workerd-setup.mjs'

/** `workers` and `node`: the files to bundle (paths or file URLs of `.ts` files). */
export async function buildBundles({ root, buildDir, outDir, entry, workers, node, log }) {
  mkdirSync(buildDir, { recursive: true })
  if (entry) {
    log(`building the candidate Worker ${entry} (esbuild)`)
    await build({
      ...WORKER_BUILD_OPTIONS,
      entryPoints: [entry],
      outfile: join(buildDir, 'service/index.js'),
    })
  } else {
    log('building the Worker bundle (wrangler deploy --dry-run)')
    buildWithWrangler(root, buildDir, outDir)
  }
  for (const file of workers.map(pathOf)) {
    await build({
      ...WORKER_BUILD_OPTIONS,
      entryPoints: [file],
      outfile: join(buildDir, `${basename(file, '.ts')}.js`),
    })
  }
  for (const file of node.map(pathOf)) {
    await build({
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      logLevel: 'warning',
      entryPoints: [file],
      outfile: join(buildDir, `${basename(file, '.ts')}.mjs`),
    })
  }
}

function pathOf(file) {
  return file instanceof URL ? fileURLToPath(file) : file
}

/** The Worker exactly as `npm run build` bundles it. */
function buildWithWrangler(root, buildDir, outDir) {
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules/wrangler/bin/wrangler.js'),
      'deploy',
      '--dry-run',
      // The top-level environment: production's bundle, not staging's.
      '--env=',
      '--outdir',
      join(buildDir, 'service'),
    ],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        WRANGLER_HIDE_BANNER: 'true',
        WRANGLER_LOG_PATH: join(outDir, 'wrangler-logs'),
      },
    },
  )
}
