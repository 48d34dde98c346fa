/**
 * When the harvest bench's mixed bursts (scripts/bench/harvest/bound.mjs) take a refusal to tell
 * live IDs apart: live-ID requests refused at another rate than guesses, over the hour or within
 * one address at one burst. A refusal that follows the client (its misses, the isolate that saw
 * them) and not the ID must not count as a leak once live IDs are placed at random.
 */
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ES module of the scripts, without types
import { settledIds } from '../../scripts/bench/harvest/bound.mjs'
// @ts-expect-error: a plain ES module of the scripts, without types
import { seededRandom } from '../../scripts/bench/harvest/actors.mjs'

interface Tally {
  requests: number
  answered: number
  refused: number
}

const tally = (): Tally => ({ requests: 0, answered: 0, refused: 0 })
const add = (t: Tally, refused: boolean) => {
  t.requests++
  if (refused) t.refused++
  else t.answered++
}

/**
 * 64 addresses, 5 requests each in each of 3 bursts, one in five for a live ID at random places;
 * `refuses(address, live)` says whether a request is refused.
 */
function bursts(refuses: (address: number, burst: number, live: boolean) => boolean) {
  const random = seededRandom(7) as () => number
  const live = tally()
  const guesses = tally()
  const strata: { live: Tally; guesses: Tally }[] = []
  for (let burst = 0; burst < 3; burst++) {
    for (let address = 0; address < 64; address++) {
      const stratum = { live: tally(), guesses: tally() }
      for (let i = 0; i < 5; i++) {
        const isLive = random() < 0.2
        const refused = refuses(address, burst, isLive)
        add(isLive ? live : guesses, refused)
        add(isLive ? stratum.live : stratum.guesses, refused)
      }
      strata.push(stratum)
    }
  }
  return { live, guesses, strata }
}

describe("the harvest bench's leak test", () => {
  it('takes a refusal that follows the client, not the ID, for no leak', () => {
    // Half the addresses are guessers refused from the second burst on; the rest are served.
    const figures = bursts((address, burst) => address % 2 === 0 && burst > 0)
    const { leak, settled, z } = settledIds(figures)
    expect(figures.guesses.refused).toBeGreaterThan(100)
    expect([Math.abs(z.pooled) < 3, Math.abs(z.within) < 3]).toEqual([true, true])
    expect(leak).toBe(false)
    expect(settled).toBe(figures.guesses.answered)
  })

  it('takes a live ID refused where a guess from the same client at once is answered for one', () => {
    // Every client's live-ID requests are refused from the second burst on, its guesses served.
    const figures = bursts((_, burst, live) => live && burst > 0)
    const { leak, settled, z } = settledIds(figures)
    expect(z.within).toBeGreaterThan(3)
    expect(leak).toBe(true)
    expect(settled).toBe(figures.guesses.answered + figures.guesses.refused)
  })
})
