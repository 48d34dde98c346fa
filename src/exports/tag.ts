import { DEFAULT_TAG, MAX_TAG_LENGTH } from '../contract/wire'

const DISALLOWED_TAG_CHARACTERS = /[^A-Za-z0-9_-]+/g

/** Applies the spec's tag rules: keep ASCII letters, digits, `_` and `-`; cut to 100; default `model`. */
export function sanitizeTag(raw: string | null | undefined): string {
  if (!raw) return DEFAULT_TAG
  const kept = raw.replace(DISALLOWED_TAG_CHARACTERS, '').slice(0, MAX_TAG_LENGTH)
  return kept === '' ? DEFAULT_TAG : kept
}
