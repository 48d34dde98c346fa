import { DEFAULT_TAG, defaultTagProblem, MAX_TAG_LENGTH } from '../contract/wire'
import type { Env } from '../config'

const DISALLOWED_TAG_CHARACTERS = /[^A-Za-z0-9_-]+/g

/**
 * Applies the spec's tag rules: keep ASCII letters, digits, `_` and `-`; cut to 100; a tag with
 * nothing left becomes `fallback` (the deployment's default tag, `model` unless configured).
 */
export function sanitizeTag(raw: string | null | undefined, fallback = DEFAULT_TAG): string {
  if (!raw) return fallback
  const kept = raw.replace(DISALLOWED_TAG_CHARACTERS, '').slice(0, MAX_TAG_LENGTH)
  return kept === '' ? fallback : kept
}

/**
 * The tag used when a request has none: the `DEFAULT_TAG` setting, `model` when unset. A
 * deployment taking over from the editor's original service sets `bde`, the default plugins
 * written against it expect. Throws unless the setting is already a tag (1 to 100 ASCII letters,
 * digits, `_` or `-`): sanitizing it instead would serve a tag nobody chose. src/index.ts calls it
 * at startup, so a bad value stops the Worker before it serves anything.
 */
export function defaultTag(env: Partial<Pick<Env, 'DEFAULT_TAG'>>): string {
  const value = env.DEFAULT_TAG
  if (value === undefined) return DEFAULT_TAG
  const problem = defaultTagProblem(value)
  if (problem !== null) throw new Error(problem)
  return value
}
