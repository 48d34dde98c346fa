/**
 * The SNBT tree reader (`readSnbtTree`, what the try-it page reads with) against the check, on
 * the export-safety vectors: it reads every passenger string of an export the check allows, and
 * refuses, for the same reason, every one the check refuses for its SNBT alone (its grammar, its
 * depth, its escapes, a string a plugin's reader would cut). One parser, so one answer.
 */
import { describe, expect, it } from 'vitest'
import { checkExportSafety, readSnbtTree, type SnbtBuilder } from '../../src/export-safety'
import vocabulary from '../../src/export-safety/types/vocabulary.json'
import { VECTORS } from '../support/export-safety-vectors'

/** The reasons a refusal of a passenger string's SNBT alone can give. */
const SNBT_REASONS = new Set(['syntax', 'depth', 'escape', 'reader'])

function passengersOf(text: string): string[] {
  const passengers = (JSON.parse(text) as { content?: { passengers?: unknown } }).content
    ?.passengers
  return Array.isArray(passengers) ? passengers.filter((p) => typeof p === 'string') : []
}

describe('readSnbtTree reads SNBT as the check does', () => {
  it('reads every passenger string of every allowed vector', () => {
    let read = 0
    for (const vector of VECTORS) {
      if (!checkExportSafety(vector.text).safe) continue
      for (const passengers of passengersOf(vector.text)) {
        expect(readSnbtTree(`[${passengers}]`), vector.file).toMatchObject({ ok: true })
        read++
      }
    }
    expect(read).toBeGreaterThan(10)
  })

  it('refuses, for the same reason, every passenger string the check refuses for its SNBT', () => {
    let refused = 0
    for (const vector of VECTORS) {
      const verdict = checkExportSafety(vector.text)
      const at = /^content\.passengers\[(\d+)\]$/.exec(verdict.safe ? '' : verdict.path)
      if (verdict.safe || at === null || !SNBT_REASONS.has(verdict.reason)) continue
      // A text component's JSON, inside a quoted string, is read by the JSON text reader.
      if (vector.file.startsWith('refused-text-')) continue
      // A plugin's reader named: how that reader cuts the string, not the SNBT grammar.
      if (vocabulary.readers.includes(verdict.found)) continue
      const reading = readSnbtTree(`[${passengersOf(vector.text)[Number(at[1])]!}]`)
      expect(reading, vector.file).toMatchObject({ ok: false, reason: verdict.reason })
      if (verdict.reason !== 'syntax') {
        expect(reading, vector.file).toMatchObject({ found: verdict.found })
      }
      refused++
    }
    expect(refused).toBeGreaterThanOrEqual(5)
  })

  it('builds the whole tree: every member, typed arrays with their words', () => {
    expect(readSnbtTree(' {a:[I;1,-2],"b c":\'x\',d:[{}]} ')).toEqual({
      ok: true,
      value: {
        kind: 'compound',
        members: [
          [
            'a',
            {
              kind: 'array',
              prefix: 'I',
              items: [
                { kind: 'text', value: '1', quoted: false },
                { kind: 'text', value: '-2', quoted: false },
              ],
            },
          ],
          ['b c', { kind: 'text', value: 'x', quoted: true }],
          ['d', { kind: 'list', items: [{ kind: 'compound', members: [] }] }],
        ],
      },
    })
    expect(readSnbtTree('{a:1} {')).toMatchObject({ ok: false, reason: 'syntax', found: '{' })
  })

  it("builds with the reader's own builder what the tree holds, and refuses the same texts", () => {
    // A builder that writes back what it is given: the text as the tree has it, in its order.
    const echo: SnbtBuilder<string, string[]> = {
      text: (value, quoted) => (quoted ? JSON.stringify(value) : value),
      list: (items) => `[${items.join(',')}]`,
      array: (prefix, words) => `[${prefix};${words.join(',')}]`,
      compound: () => [],
      member: (members, name, value) => void members.push(`${name}:${value}`),
      closed: (members) => `{${members.join(',')}}`,
    }
    const text = ` {a:[I;1,-2], "b c":'x',,d:[{}, {e:1b,e:[L;3L]}]} `
    expect(readSnbtTree(text, echo)).toEqual({
      ok: true,
      value: '{a:[I;1,-2],b c:"x",d:[{},{e:1b,e:[L;3L]}]}',
    })
    for (const refused of ['{a:1} {', '{a:[1,]}', '"\\t"', '['.repeat(65) + ']'.repeat(65)]) {
      const { ok, ...tree } = readSnbtTree(refused)
      expect(ok, refused).toBe(false)
      expect(readSnbtTree(refused, echo), refused).toEqual({ ok, ...tree })
    }
  })
})
