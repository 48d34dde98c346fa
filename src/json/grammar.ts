/**
 * The JSON grammar outside strings, as one transition table over bytes: what the scanner
 * (scanner.ts) runs between strings, one table lookup per byte. Two grammars share it:
 *
 * - `strict`, RFC 8259 whole: values, members, commas, colons, numbers (`-?(0|[1-9]\d*)(\.\d+)?
 *   ([eE][+-]?\d+)?`), `true`, `false`, `null`, whitespace of four bytes only. What publishing
 *   checks, so that it accepts exactly what `JSON.parse` accepts.
 * - `structure`: brackets and strings only, the root an object. What the read path checks on a
 *   value publishing already checked: enough to tell a value cut short or corrupted from a whole
 *   document, at the cost of a bracket scan.
 *
 * A transition below `Action.First` is the next state; the others are actions the scanner takes
 * (open, close, enter a string, ...) and `Action.Error`. Numbers and literals are states, so a
 * document may be cut anywhere between buffers and the scan resumes where it stopped.
 */

/** Where the scanner is, outside strings. */
export const State = {
  // structure
  Root: 0,
  Inside: 1,
  Closed: 2,
  // strict
  Start: 3,
  Value: 4,
  ValueOrClose: 5,
  Key: 6,
  KeyOrClose: 7,
  Colon: 8,
  After: 9,
  Minus: 10,
  Zero: 11,
  Int: 12,
  Dot: 13,
  Frac: 14,
  Exp: 15,
  ExpSign: 16,
  ExpInt: 17,
  T1: 18,
  T2: 19,
  T3: 20,
  F1: 21,
  F2: 22,
  F3: 23,
  F4: 24,
  N1: 25,
  N2: 26,
  N3: 27,
  Count: 28,
} as const
export type State = number

/** Transitions that are not a plain next state. */
export const Action = {
  First: 64,
  OpenObject: 64,
  OpenArray: 65,
  CloseObject: 66,
  CloseArray: 67,
  StringKey: 68,
  StringValue: 69,
  Scalar: 70,
  Comma: 71,
  Error: 255,
} as const
export type Action = number

/** The states each grammar starts in and moves to after the scanner's actions. */
export interface Grammar {
  readonly start: State
  readonly afterOpenObject: State
  readonly afterOpenArray: State
  /** After a value inside a container (a string, a closed container, a number or literal). */
  readonly afterValue: State
  /** After the root value. */
  readonly afterRoot: State
  readonly afterKey: State
}

export const STRICT: Grammar = {
  start: State.Start,
  afterOpenObject: State.KeyOrClose,
  afterOpenArray: State.ValueOrClose,
  afterValue: State.After,
  afterRoot: State.After,
  afterKey: State.Colon,
}

export const STRUCTURE: Grammar = {
  start: State.Root,
  afterOpenObject: State.Inside,
  afterOpenArray: State.Inside,
  afterValue: State.Inside,
  afterRoot: State.Closed,
  afterKey: State.Inside,
}

/** `TRANSITIONS[(state << 8) | byte]`: the next state or an action. */
export const TRANSITIONS = new Uint8Array(State.Count << 8).fill(Action.Error)

/** The state a number or literal starts in, by its first byte. */
export const SCALAR_STATE = new Uint8Array(256)

/** States in which the document may end, if nothing is left open (a number ends with it). */
export const MAY_END = new Uint8Array(State.Count)
MAY_END[State.After] = MAY_END[State.Zero] = MAY_END[State.Int] = 1
MAY_END[State.Frac] = MAY_END[State.ExpInt] = MAY_END[State.Closed] = 1

/** What each state expects, for error messages. */
export const EXPECTED: readonly string[] = (() => {
  const expected: string[] = []
  expected[State.Root] = '"{"'
  expected[State.Inside] = 'anything'
  expected[State.Closed] = 'the end of the document'
  expected[State.Start] = expected[State.Value] = 'a value'
  expected[State.ValueOrClose] = 'a value or "]"'
  expected[State.Key] = 'a member name (a string)'
  expected[State.KeyOrClose] = 'a member name (a string) or "}"'
  expected[State.Colon] = '":"'
  expected[State.After] = '"," or a closing bracket'
  expected[State.Minus] = 'a digit'
  expected[State.Zero] = '".", "e", "," or a closing bracket (no digit follows a leading 0)'
  expected[State.Int] = 'a digit, ".", "e", "," or a closing bracket'
  expected[State.Frac] = 'a digit, "e", "," or a closing bracket'
  expected[State.Dot] = 'a digit after the decimal point'
  expected[State.Exp] = 'a sign or a digit in the exponent'
  expected[State.ExpSign] = 'a digit in the exponent'
  expected[State.ExpInt] = 'a digit, "," or a closing bracket'
  for (const state of [State.T1, State.T2, State.T3]) expected[state] = 'the literal true'
  for (const state of [State.F1, State.F2, State.F3, State.F4])
    expected[state] = 'the literal false'
  for (const state of [State.N1, State.N2, State.N3]) expected[state] = 'the literal null'
  return expected
})()

const WHITESPACE = ' \t\n\r'
const DIGITS = '0123456789'

function on(state: State, bytes: string, next: number): void {
  for (let k = 0; k < bytes.length; k++) TRANSITIONS[(state << 8) | bytes.charCodeAt(k)] = next
}

/** Every byte not named otherwise goes to `next`. */
function otherwise(state: State, next: number): void {
  TRANSITIONS.fill(next, state << 8, (state + 1) << 8)
}

// structure: anything but brackets and quotes is skipped.
on(State.Root, WHITESPACE, State.Root)
on(State.Root, '{', Action.OpenObject)
otherwise(State.Inside, State.Inside)
on(State.Inside, '{', Action.OpenObject)
on(State.Inside, '[', Action.OpenArray)
on(State.Inside, '}', Action.CloseObject)
on(State.Inside, ']', Action.CloseArray)
on(State.Inside, '"', Action.StringValue)
on(State.Closed, WHITESPACE, State.Closed)

// strict: values.
for (const state of [State.Start, State.Value, State.ValueOrClose]) {
  on(state, WHITESPACE, state)
  on(state, '{', Action.OpenObject)
  on(state, '[', Action.OpenArray)
  on(state, '"', Action.StringValue)
  on(state, '-' + DIGITS + 'tfn', Action.Scalar)
}
on(State.ValueOrClose, ']', Action.CloseArray)
on(State.Key, WHITESPACE, State.Key)
on(State.Key, '"', Action.StringKey)
on(State.KeyOrClose, WHITESPACE, State.KeyOrClose)
on(State.KeyOrClose, '"', Action.StringKey)
on(State.KeyOrClose, '}', Action.CloseObject)
on(State.Colon, WHITESPACE, State.Colon)
on(State.Colon, ':', State.Value)

// A value's end: a number ends at the first byte that cannot continue it, which is read as here.
for (const state of [State.After, State.Zero, State.Int, State.Frac, State.ExpInt]) {
  on(state, WHITESPACE, State.After)
  on(state, ',', Action.Comma)
  on(state, '}', Action.CloseObject)
  on(state, ']', Action.CloseArray)
}

// Numbers.
SCALAR_STATE[0x2d] = State.Minus
SCALAR_STATE[0x30] = State.Zero
on(State.Minus, '0', State.Zero)
for (const digit of DIGITS.slice(1)) {
  SCALAR_STATE[digit.charCodeAt(0)] = State.Int
  on(State.Minus, digit, State.Int)
}
on(State.Int, DIGITS, State.Int)
on(State.Zero, '.', State.Dot)
on(State.Int, '.', State.Dot)
on(State.Dot, DIGITS, State.Frac)
on(State.Frac, DIGITS, State.Frac)
for (const state of [State.Zero, State.Int, State.Frac]) on(state, 'eE', State.Exp)
on(State.Exp, '+-', State.ExpSign)
on(State.Exp, DIGITS, State.ExpInt)
on(State.ExpSign, DIGITS, State.ExpInt)
on(State.ExpInt, DIGITS, State.ExpInt)

// Literals: one state per letter still to come.
function literal(word: string, states: State[]): void {
  SCALAR_STATE[word.charCodeAt(0)] = states[0]!
  states.forEach((state, k) => on(state, word[k + 1]!, states[k + 1] ?? State.After))
}
literal('true', [State.T1, State.T2, State.T3])
literal('false', [State.F1, State.F2, State.F3, State.F4])
literal('null', [State.N1, State.N2, State.N3])
