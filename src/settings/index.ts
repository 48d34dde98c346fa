/**
 * The settings' face: every reader of a var (readers.ts) and the check that runs them all, for
 * the scripts that refuse a bad setting before anything starts (`npm start`, `npm run deploy`).
 */
import type { Env } from '../config'
import { SETTING_READERS } from './readers'

export { SETTING_READERS, UNCHECKED_SETTINGS } from './readers'

/**
 * What each reader says of `vars`, as the Worker would log it in its `500` (or refuse at startup):
 * one message per reader that throws, in the readers' order, each once (a reader may call another:
 * the grace is bounded by the lifetime); empty when every setting can work.
 */
export function settingProblems(vars: Record<string, string | undefined>): string[] {
  // The readers look at vars only; bindings are not theirs to check.
  const env = vars as unknown as Env
  const problems = new Set<string>()
  for (const { read } of SETTING_READERS) {
    try {
      read(env)
    } catch (error) {
      problems.add(error instanceof Error ? error.message : String(error))
    }
  }
  return [...problems]
}
