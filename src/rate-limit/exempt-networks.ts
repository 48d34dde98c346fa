/**
 * The networks an operator exempts from the prefix penalties (`RATE_LIMIT_EXEMPT_NETWORKS`,
 * docs/rate-limits.md#exempt-networks): a list of CIDR blocks, IPv4 and IPv6, separated by commas
 * or spaces. A client whose address lies in one is held to its own windows and miss budget only:
 * its misses count for no prefix, and no prefix's penalty refuses it.
 *
 * A list that does not parse stops the Worker at startup (src/index.ts), like `DEFAULT_TAG`: an
 * exemption that silently exempted nothing would refuse the very servers it was meant for.
 */
import { addressBytes, type ClientAddress } from './client-key'

/** One block: the address's bytes and how many leading bits must match. */
interface Block {
  bytes: readonly number[]
  bits: number
}

/** The exempt networks of one setting. */
export class ExemptNetworks {
  constructor(private readonly blocks: readonly Block[]) {}

  /** Whether the client's address lies in an exempt network (never when it is no address). */
  contains(address: ClientAddress): boolean {
    return this.blocks.some((block) => matches(block, address.bytes))
  }
}

const SETTING = 'RATE_LIMIT_EXEMPT_NETWORKS'

/** Parses the setting; empty or unset is no exemption. Throws, naming the entry, on a bad one. */
export function parseExemptNetworks(raw: string | undefined): ExemptNetworks {
  const entries = (raw ?? '').split(/[\s,]+/).filter((entry) => entry !== '')
  return new ExemptNetworks(entries.map(parseBlock))
}

function parseBlock(entry: string): Block {
  const slash = entry.indexOf('/')
  const bytes = slash < 0 ? null : addressBytes(entry.slice(0, slash))
  const bitsText = entry.slice(slash + 1)
  const bits = Number(bitsText)
  if (bytes === null || !/^\d{1,3}$/.test(bitsText) || bits > bytes.length * 8) {
    throw new Error(
      `${SETTING} must list networks as address/length (e.g. "192.0.2.0/24, 2001:db8::/32"), got "${entry}"`,
    )
  }
  const block = { bytes, bits }
  if (!bytes.every((byte, i) => byte === maskedByte(block, i))) {
    throw new Error(
      `${SETTING}: "${entry}" has address bits set past its /${bits}; write the network's first address`,
    )
  }
  return block
}

/** Byte `i` of the block's address with the bits past its length cleared. */
function maskedByte(block: Block, i: number): number {
  const kept = Math.min(8, Math.max(0, block.bits - i * 8))
  return block.bytes[i]! & ((0xff << (8 - kept)) & 0xff)
}

function matches(block: Block, bytes: readonly number[]): boolean {
  if (bytes.length !== block.bytes.length) return false
  return block.bytes.every((byte, i) => maskedByte({ bytes, bits: block.bits }, i) === byte)
}
