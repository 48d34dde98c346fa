/**
 * SNBT read whole into a tree, by the check's own parser (`snbt.ts`), with its grammar and its
 * limits: nesting to `MAX_SNBT_DEPTH`, only the escapes every Minecraft version reads alike, no
 * quoted string a plugin's reader would cut into entities. For readers that draw a model (the
 * try-it page) rather than judge it: what they read is what the check read, never more. The
 * tree is the check's `SnbtValue`, or what the reader's own `SnbtBuilder` builds as it reads.
 * Spaces (U+0020) may surround the value; nothing else may follow it.
 */
import { KEY_TYPES, UnsafeContent, unsafeExport, type UnsafeReason } from '../types/index.js'
import { SNBT_TREE, parseSnbtWhole, unexpectedAt, type SnbtBuilder } from './snbt.js'
import type { SnbtValue } from './snbt-value.js'

export type { SnbtBuilder } from './snbt.js'

/** The outcome of `readSnbtTree`: the tree, or the check's refusal of the text. */
type SnbtTreeReading<V> =
  { ok: true; value: V } | { ok: false; reason: UnsafeReason; found: string; message: string }

/** Reads one SNBT value that spans all of `text`. Never throws on any text. */
export function readSnbtTree(text: string): SnbtTreeReading<SnbtValue>
/** The same, the tree built by `builder` (whatever it throws is thrown on). */
export function readSnbtTree<V, C>(text: string, builder: SnbtBuilder<V, C>): SnbtTreeReading<V>
export function readSnbtTree<V, C>(
  text: string,
  builder: SnbtBuilder<V, C> = SNBT_TREE as unknown as SnbtBuilder<V, C>,
): SnbtTreeReading<V> {
  try {
    const { value, end } = parseSnbtWhole(text, spacesFrom(text, 0), builder, KEY_TYPES)
    const after = spacesFrom(text, end)
    if (after < text.length) unexpectedAt(text, after)
    return { ok: true, value }
  } catch (error) {
    if (!(error instanceof UnsafeContent)) throw error
    const { reason, found, message } = unsafeExport('The SNBT', error)
    return { ok: false, reason, found, message: message.slice(0, -1) }
  }
}

function spacesFrom(text: string, at: number): number {
  while (text.charCodeAt(at) === 0x20) at++
  return at
}
