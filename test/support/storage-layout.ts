/**
 * Where the service keeps an export, as docs/storage.md promises it (stable across versions, an
 * operator reads it with `wrangler kv key get`). Tests that plant, damage or look for a stored
 * export state the layout rather than borrow the service's own function, so a change to it fails
 * them until the docs (and this file) say the same; the bench's baseline Worker reads the same key.
 */

/** docs/storage.md: export NNNNNN is stored under the KV key `export:NNNNNN`. */
export function exportKey(id: string): string {
  return `export:${id}`
}
