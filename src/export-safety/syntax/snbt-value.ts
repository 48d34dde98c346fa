/** A parsed SNBT value (`snbt.ts`): what the checks need of it, no more. */
export type SnbtValue =
  /** In an entity's compound, a member's value is null but for `id`, `Tags` and `Passengers`. */
  | { kind: 'compound'; members: Array<[name: string, value: SnbtValue | null]> }
  | { kind: 'list'; items: SnbtValue[] }
  /** A quoted string or an unquoted word (a number, a boolean, an unquoted string). */
  | { kind: 'text'; value: string; quoted: boolean }
  /** `[B;...]`, `[I;...]`, `[L;...]`: its words, read only when the whole value is kept. */
  | { kind: 'array'; prefix: 'B' | 'I' | 'L'; items: SnbtValue[] }
