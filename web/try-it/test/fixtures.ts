import { readFileSync } from 'node:fs'

/** The service's real exports (fixtures/ of the repository), in their published form. */
export const FIXTURES: Record<string, string> = Object.fromEntries(
  ['animated-80-displays', 'reading-41-displays', 'stone-gate-136-displays'].map((name) => [
    name,
    readFileSync(new URL(`../../../fixtures/${name}.json`, import.meta.url), 'utf8'),
  ]),
)
