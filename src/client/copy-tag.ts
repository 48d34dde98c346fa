/**
 * The tag a copy of a model is fetched with when the caller names none. Every entity a plugin
 * spawns from an export carries `<tag>_<n>`, and every frame targets `tag=<tag>_<n>`: two models
 * fetched with the same tag answer each other's frames, and the service's default tag (`model`)
 * is shared by every caller that sends none (docs/api.md, "Isolation between models"). A tag of
 * its own per copy keeps each copy's frames on its own parts.
 */

/** Random bytes in a copy's tag: 96 bits, so two copies never meet by chance. */
const COPY_TAG_BYTES = 12

/** A tag unique to one copy: `copy_` and 24 hex digits (within the tag rules). */
export function copyTag(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(COPY_TAG_BYTES))
  let hex = ''
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0')
  return `copy_${hex}`
}
