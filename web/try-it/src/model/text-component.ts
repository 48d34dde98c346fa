/**
 * The words of a text display: Minecraft's text component, written as a JSON string up to 1.21.4
 * (`text:'[{"text":"Hi","color":"red"}]'`) or as SNBT since. Only the plain text and the first
 * colour are kept; styles, fonts and translations are beyond a preview.
 */
import type { SnbtValue } from './snbt'

/** A text display's plain text and colour (`#rrggbb`, or null when none is given). */
export interface PlainText {
  text: string
  color: string | null
}

/** Components nested deeper than this are ignored (a hostile string could nest thousands). */
const MAX_COMPONENT_DEPTH = 32

const NAMED_COLORS: Record<string, string> = {
  black: '#000000',
  dark_blue: '#0000aa',
  dark_green: '#00aa00',
  dark_aqua: '#00aaaa',
  dark_red: '#aa0000',
  dark_purple: '#aa00aa',
  gold: '#ffaa00',
  gray: '#aaaaaa',
  dark_gray: '#555555',
  blue: '#5555ff',
  green: '#55ff55',
  aqua: '#55ffff',
  red: '#ff5555',
  light_purple: '#ff55ff',
  yellow: '#ffff55',
  white: '#ffffff',
}

/** The plain text of a `text` value. */
export function plainText(value: SnbtValue | undefined): PlainText {
  const found: PlainText = { text: '', color: null }
  if (value === undefined) return found
  let component: unknown = value
  if (typeof value === 'string') {
    try {
      component = JSON.parse(value)
    } catch {
      component = value // a bare string is its own text
    }
  }
  collect(component, found, 0)
  return found
}

function collect(component: unknown, into: PlainText, depth: number): void {
  if (depth > MAX_COMPONENT_DEPTH) return
  if (typeof component === 'string' || typeof component === 'number') {
    into.text += String(component)
    return
  }
  if (Array.isArray(component)) {
    for (const part of component) collect(part, into, depth + 1)
    return
  }
  if (component === null || typeof component !== 'object' || ArrayBuffer.isView(component)) return
  const parts = component as Record<string, unknown>
  if (into.color === null && typeof parts['color'] === 'string') {
    into.color = colorOf(parts['color'])
  }
  if (typeof parts['text'] === 'string') into.text += parts['text']
  else if (typeof parts['translate'] === 'string') into.text += parts['translate']
  if (parts['extra'] !== undefined) collect(parts['extra'], into, depth + 1)
}

function colorOf(name: string): string | null {
  if (/^#[0-9a-f]{6}$/i.test(name)) return name.toLowerCase()
  return NAMED_COLORS[name] ?? null
}
