/**
 * The hostile generator's oracle's own models of the public plugins' readers, as
 * docs/export-safety.md ("Readers this check holds for") describes them: SuperBlocksDisplays'
 * quote-blind split and sanscraft-bde's text search for `Passengers:[` with its bracket counting,
 * and BlockDisplayCreator's and DisplayEntityUtils' readings of a document and a command, which
 * the check holds as rules (it refuses every root member but `content`, and a command the
 * plugin's replacement would change) rather than as models. Kept apart from the product's (the check runs its own models of them), so that a mistake in
 * one is caught by the other; each returns the compounds the plugin hands to the game.
 */

/** An entity a reader hands to the game: the type it summons, the compound it gives. */
export interface ReaderEntity {
  type: string
  compound: string
}

/**
 * Scrulius/SuperBlocksDisplays: splits each passenger string at `(?<=\}),(?=\{id:"minecraft:)`
 * (blind to quotes), takes the type from `^\{id:"minecraft:([^"]+)"` (else `item_display`),
 * drops that first `{id:"minecraft:...",` and summons `minecraft:<type>` with the rest: the game
 * makes an entity of that type from the piece's data.
 */
export function superBlocksDisplays(passengers: string): ReaderEntity[] {
  return passengers.split(/(?<=\}),(?=\{id:"minecraft:)/).map((piece) => ({
    type: /^\{id:"minecraft:([^"]+)"/.exec(piece)?.[1] ?? 'item_display',
    compound: piece,
  }))
}

/**
 * SansCraft-Network/sanscraft-bde: splits the passenger string at the commas outside quotes and
 * brackets (`splitObjects`, aware of `"` and `'` and of backslashes before a quote), then for
 * each piece flattens its passengers (`collectAllPassengers`): finds the first `Passengers:[`
 * (else `passengers:[`) by text, blind to quotes, takes the list to its matching `]` counting
 * brackets blind to quotes, cuts it into compounds counting braces blind to quotes, and removes
 * the `Passengers:[...]` member from the piece; each part is one entity.
 */
export function sansCraft(passengers: string): ReaderEntity[] {
  const flat: string[] = []
  for (const piece of splitObjects(passengers)) collectAllPassengers(piece, flat)
  // It makes each entity of the type its compound names.
  return flat.map((compound) => ({ type: 'block_display', compound }))
}

function splitObjects(snbt: string): string[] {
  const list: string[] = []
  let text = snbt.trim()
  if (text.length === 0) return list
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1).trim()
  let depth = 0
  let start = 0
  let inQuotes = false
  let quote = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (inQuotes) {
      if (c === quote) {
        let escapes = 0
        for (let j = i - 1; j >= 0 && text[j] === '\\'; j--) escapes++
        if (escapes % 2 === 0) inQuotes = false
      }
    } else if (c === '"' || c === "'") {
      inQuotes = true
      quote = c
    } else if (c === '{' || c === '[') depth++
    else if (c === '}' || c === ']') depth--
    else if (c === ',' && depth === 0) {
      const part = text.slice(start, i).trim()
      if (part.length > 0) list.push(part)
      start = i + 1
    }
  }
  const last = text.slice(start).trim()
  if (last.length > 0) list.push(last)
  return list
}

/** `[start of the list's content, index of its closing ]]`, or null. */
function passengersList(snbt: string): [number, number, number] | null {
  let at = snbt.indexOf('Passengers:[')
  if (at < 0) at = snbt.indexOf('passengers:[')
  if (at < 0) return null
  const start = at + 'Passengers:['.length
  let depth = 1
  for (let i = start; i < snbt.length; i++) {
    if (snbt[i] === '[') depth++
    else if (snbt[i] === ']' && --depth === 0) return [at, start, i]
  }
  return null
}

function parsePassengers(snbt: string): string[] {
  const found = passengersList(snbt)
  if (found === null) return []
  const content = snbt.slice(found[1], found[2])
  const list: string[] = []
  let depth = 0
  let start = -1
  for (let i = 0; i < content.length; i++) {
    if (content[i] === '{') {
      if (depth === 0) start = i
      depth++
    } else if (content[i] === '}') {
      depth--
      if (depth === 0 && start !== -1) {
        list.push(content.slice(start, i + 1))
        start = -1
      }
    }
  }
  return list
}

function removePassengersTag(snbt: string): string {
  const found = passengersList(snbt)
  if (found === null) return snbt
  const prefix = snbt.slice(0, found[0]).trim()
  const suffix = snbt.slice(found[2] + 1).trim()
  if (prefix.endsWith(',') && suffix.startsWith(',')) return prefix + suffix.slice(1)
  if (prefix.endsWith(','))
    return suffix.startsWith('}') ? prefix.slice(0, -1) + suffix : prefix + suffix
  if (suffix.startsWith(',')) return prefix + suffix.slice(1)
  return prefix + suffix
}

function collectAllPassengers(snbt: string, flat: string[]): void {
  flat.push(removePassengersTag(snbt))
  for (const child of parsePassengers(snbt)) collectAllPassengers(child, flat)
}

/**
 * GeneralBreddok/BlockDisplayCreator: beside `content`, its older code path runs root-level
 * `commands` and summons root-level `Passengers`; the root members of a document (`names`) it
 * would run or summon.
 */
export function blockDisplayCreator(names: Iterable<string>): string[] {
  return [...names].filter((name) => ['commands', 'Passengers'].includes(name))
}

/**
 * PZDonny/DisplayEntityUtils: dispatches each command whole, replacing only the text
 * `summon block_display ~-0.5 ~-0.5 ~-0.5` by its own position (`at`).
 */
export function displayEntityUtils(command: string, at: string): string {
  return command.replaceAll('summon block_display ~-0.5 ~-0.5 ~-0.5', `summon block_display ${at}`)
}

/** The passenger strings of an export (`passengers`, older `Passengers`). */
export function passengerStrings(text: string): string[] {
  const content = (JSON.parse(text) as { content: Record<string, unknown> }).content
  return [content.passengers, content.Passengers].flat().filter((s) => typeof s === 'string')
}
