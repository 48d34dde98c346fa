/**
 * How the preview draws a display without Minecraft's textures (they are not ours to ship): a
 * box in the display's own space, and a colour chosen from the material's name. The same name
 * always gets the same colour, on every page load and every machine.
 */
import type { Display } from './displays'

/** An axis-aligned box in the display's space: [minX, minY, minZ, maxX, maxY, maxZ]. */
export type Box = readonly [number, number, number, number, number, number]

// A block display draws its block in the unit cube from its origin; an item display centres
// its item on the origin.
const BLOCK: Box = [0, 0, 0, 1, 1, 1]
const BLOCK_BOTTOM_HALF: Box = [0, 0, 0, 1, 0.5, 1]
const BLOCK_TOP_HALF: Box = [0, 0.5, 0, 1, 1, 1]
const BLOCK_CARPET: Box = [0, 0, 0, 1, 1 / 16, 1]
const ITEM: Box = [-0.5, -0.5, -0.5, 0.5, 0.5, 0.5]
const ITEM_BOTTOM_HALF: Box = [-0.5, -0.5, -0.5, 0.5, 0, 0.5]
// A head is 8 pixels a side, resting on the bottom of the item's cube.
const ITEM_HEAD: Box = [-0.25, -0.5, -0.25, 0.25, 0, 0.25]

/** The box a block or item display is drawn as: a cube, a slab half as high, a head. */
export function boxOf(display: Pick<Display, 'kind' | 'name' | 'properties'>): Box {
  const name = bareName(display.name)
  if (display.kind === 'item') {
    if (name.endsWith('_slab')) return ITEM_BOTTOM_HALF
    if (name.endsWith('_head') || name.endsWith('_skull')) return ITEM_HEAD
    return ITEM
  }
  if (name.endsWith('_slab')) {
    const type = display.properties['type']
    if (type === 'double') return BLOCK
    return type === 'top' ? BLOCK_TOP_HALF : BLOCK_BOTTOM_HALF
  }
  if (name.endsWith('_carpet')) return BLOCK_CARPET
  return BLOCK
}

// Minecraft's 16 dye colours: the first word of wool, concrete, candles, glass, beds...
const DYES: Record<string, number> = {
  white: 0xe9ecec,
  light_gray: 0x8e8e86,
  gray: 0x3e4447,
  black: 0x1d1d21,
  brown: 0x835432,
  red: 0xb02e26,
  orange: 0xf9801d,
  yellow: 0xfed83d,
  lime: 0x80c71f,
  green: 0x5e7c16,
  cyan: 0x169c9c,
  light_blue: 0x3ab3da,
  blue: 0x3c44aa,
  purple: 0x8932b8,
  magenta: 0xc74ebd,
  pink: 0xf38baa,
}

// Material words and a colour close to the block's own, checked in this order.
const MATERIALS: [RegExp, number][] = [
  [/gold/, 0xe7c13c],
  [/copper/, 0xc06b4a],
  [/iron|chain|anvil/, 0xc8c8c8],
  [/diamond/, 0x5fd6cf],
  [/emerald/, 0x2fbf5a],
  [/redstone|tnt/, 0xb3261e],
  [/lapis/, 0x2a4fa3],
  [/amethyst/, 0x8e6bc4],
  [/glass|ice/, 0xbfe3f0],
  [/water/, 0x3f76e4],
  [/lava|magma/, 0xd9631e],
  [/mossy|moss|leaves|grass|vine|cactus|kelp/, 0x5f8f3a],
  [/nether_brick|crimson|netherrack/, 0x6a2a2a],
  [/warped/, 0x2b7a78],
  [/quartz|calcite|snow|bone|birch/, 0xe6e1d6],
  [/sandstone|sand|end_stone/, 0xd8cb98],
  [/blackstone|obsidian|coal|deepslate|basalt/, 0x35333b],
  [/spruce|dark_oak|mangrove/, 0x5e4029],
  [/oak|jungle|acacia|planks|log|wood|barrel|chest|crafting|bookshelf|lectern|ladder/, 0x9c7a4b],
  [/dirt|podzol|soul|farmland|path/, 0x7a553a],
  [/stone|cobble|andesite|diorite|granite|tuff|gravel|furnace|smooth/, 0x8a8a8a],
  [/brick|terracotta|mud/, 0x9a5a44],
  [/head|skull|player/, 0xc59c7d],
  [/candle|wax|honey|hay/, 0xd9b25c],
  [/prismarine/, 0x5fa596],
  [/purpur/, 0xa77aa7],
]

// Distinct muted colours for names none of the above describe.
const PALETTE = [
  0x6c8ebf, 0xb85450, 0x82b366, 0xd6b656, 0x9673a6, 0x5fa596, 0xd79b6b, 0x7f7f9a, 0xa0785a,
  0x6fa8dc, 0xc27ba0, 0x8fb08c,
]

/** The colour (0xRRGGBB) a material is drawn in, from its name alone. */
export function colorOf(materialName: string | null): number {
  const name = bareName(materialName)
  const hash = fnv1a(name)
  const dye = Object.keys(DYES).find((d) => name.startsWith(`${d}_`))
  const base =
    (dye === undefined ? undefined : DYES[dye]) ??
    MATERIALS.find(([pattern]) => pattern.test(name))?.[1] ??
    PALETTE[hash % PALETTE.length]!
  // Related materials (stone bricks, mossy stone bricks, cobblestone) differ a little.
  return shade(base, ((hash >>> 8) % 21) / 100 - 0.1)
}

function bareName(name: string | null): string {
  if (name === null) return ''
  const colon = name.indexOf(':')
  return (colon === -1 ? name : name.slice(colon + 1)).toLowerCase()
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/** Lighter (amount > 0) or darker, channel by channel. */
function shade(color: number, amount: number): number {
  const channel = (shift: number) => {
    const c = (color >> shift) & 0xff
    const moved = amount >= 0 ? c + (255 - c) * amount : c * (1 + amount)
    return Math.max(0, Math.min(255, Math.round(moved)))
  }
  return (channel(16) << 16) | (channel(8) << 8) | channel(0)
}
