/**
 * Strict UTF-8, checked one sequence at a time on bytes (RFC 3629, as `TextDecoder` with
 * `fatal: true` decides): no overlong forms, no surrogates (U+D800-U+DFFF), nothing above
 * U+10FFFF, no sequence cut short. JSON text must be UTF-8 (RFC 8259 section 8.1).
 */

/** What `utf8SequenceEnd` returns when the bytes are not UTF-8. */
export const UTF8_INVALID = -1
/** What `utf8SequenceEnd` returns when the buffer ends before the sequence is decided. */
export const UTF8_CUT = -2

/** Bytes in the sequence a lead byte starts; 0 for a byte that starts none (C0, C1, F5-FF, 80-BF). */
const SEQUENCE_BYTES = new Uint8Array(256)
SEQUENCE_BYTES.fill(2, 0xc2, 0xe0)
SEQUENCE_BYTES.fill(3, 0xe0, 0xf0)
SEQUENCE_BYTES.fill(4, 0xf0, 0xf5)

/**
 * The range of the byte after a lead byte: narrower after E0 (overlong), ED (surrogates), F0
 * (overlong) and F4 (above U+10FFFF), else 80-BF.
 */
const SECOND_MIN = new Uint8Array(256).fill(0x80)
const SECOND_MAX = new Uint8Array(256).fill(0xbf)
SECOND_MIN[0xe0] = 0xa0
SECOND_MAX[0xed] = 0x9f
SECOND_MIN[0xf0] = 0x90
SECOND_MAX[0xf4] = 0x8f

/**
 * For the non-ASCII byte at `at`: the index just past the UTF-8 sequence it starts,
 * `UTF8_INVALID`, or `UTF8_CUT` when `end` comes before the sequence does and the bytes so far
 * may still be valid.
 */
export function utf8SequenceEnd(buf: Uint8Array, at: number, end: number): number {
  const lead = buf[at]!
  const length = SEQUENCE_BYTES[lead]!
  if (length === 0) return UTF8_INVALID
  if (at + 1 >= end) return UTF8_CUT
  const second = buf[at + 1]!
  if (second < SECOND_MIN[lead]! || second > SECOND_MAX[lead]!) return UTF8_INVALID
  for (let k = 2; k < length; k++) {
    if (at + k >= end) return UTF8_CUT
    if ((buf[at + k]! & 0xc0) !== 0x80) return UTF8_INVALID
  }
  return at + length
}
