/**
 * The bench's sections, in the order they run and their rows appear in the table. Each is a
 * folder whose `index.mjs` exports one entry function (BENCH-CONTRACT: scripts/bench/README.md,
 * "A section"). To add a section: write its folder, import its entry here and add it to the list.
 *
 * @typedef {(r: Record<string, any>, config: Record<string, any>) => object[]} RowFunction
 * @typedef {object} Bench What the dispatcher (run.mjs) shares with every section.
 * @property {string} root the repository
 * @property {string} fixtures the fixtures folder
 * @property {string} buildDir bench-results/build: the bundles
 * @property {Record<string, any>} config every section's sizes and loads (lib/options.mjs)
 * @property {boolean} quick `--quick`
 * @property {{ limiterMs: number, kvMs: number }} delays the latency model's waits
 * @property {string} token the services' publish token
 * @property {string[]} tags the tags GETs cycle through
 * @property {object[]} substitutionInputs the substitution section's inputs
 * @property {Record<string, string>} highLimits limits no benchmark reaches
 * @property {number} flushSeconds the limited Workers' `RATE_LIMIT_FLUSH_SECONDS`
 * @property {(...parts: unknown[]) => void} log a progress line on stderr
 * @property {(script: URL | string, nodeFlags: string[], config: object) => any} nodeJson
 *   runs a Node script in a child process, parses the JSON it prints
 * @property {() => Record<string, string>} deployedVars wrangler.toml's production `[vars]`
 * @property {any} cases the bundled lib/substitution-cases.ts (set once the bundles are built)
 * @property {string} casesModule its file URL, for child processes
 *
 * @typedef {object} Section What a section's entry function returns.
 * @property {string} name its name on the command line (`--only <name>`)
 * @property {{ workers?: (URL | string)[], node?: (URL | string)[] }} [bundles] TypeScript to
 *   bundle: Worker entries (to build/<name>.js) and Node modules (to build/<name>.mjs)
 * @property {(define: any) => object[]} [workers] its Workers in the shared workerd
 * @property {() => Promise<Record<string, any>>} [before] runs before the shared workerd starts;
 *   returns figures, each key a key of bench-results/latest.json
 * @property {(workerd: { urls: Record<string, string>, runLoad: Function, mf: any }) => Promise<Record<string, any>>} [during]
 *   runs while the shared workerd runs; returns figures likewise
 * @property {(results: Record<string, any>, storageDir: string) => Promise<void>} [after]
 *   runs once the shared workerd has stopped, before its storage is removed
 * @property {RowFunction[]} rows its row functions, in table order
 *
 * @typedef {(bench: Bench) => Section} SectionEntry
 */
import { adversarialSection } from './adversarial/index.mjs'
import { graceSection } from './grace/index.mjs'
import { harvestSection } from './harvest/index.mjs'
import { limiterSection } from './limiter/index.mjs'
import { memorySection } from './memory/index.mjs'
import { pageSection } from './page/index.mjs'
import { publishSection } from './publish/index.mjs'
import { requestSection } from './request/index.mjs'
import { substitutionSection } from './substitution/index.mjs'

/** @type {SectionEntry[]} */
export const SECTIONS = [
  substitutionSection,
  memorySection,
  pageSection,
  requestSection,
  limiterSection,
  harvestSection,
  publishSection,
  adversarialSection,
  graceSection,
]
