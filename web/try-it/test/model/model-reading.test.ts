import { describe, expect, it } from 'vitest'
import { modelPartsOf, readModel } from '../../src/model/model-reading'
import { FIXTURES } from '../fixtures'

describe('modelPartsOf', () => {
  it('keeps only what the model is read from, and reads the same model from it', () => {
    for (const name of ['stone-gate-136-displays', 'animated-80-displays', 'reading-41-displays']) {
      const content = (JSON.parse(FIXTURES[name]!) as { content: Record<string, unknown> }).content
      const parts = modelPartsOf(content)
      expect(Object.keys(parts as object).sort()).toEqual(['datapack', 'meta', 'passengers'])
      expect(JSON.stringify(parts).length).toBeLessThan(JSON.stringify(content).length)
      expect(readModel(parts)).toEqual(readModel(content))
    }
  })

  it.each([null, 7, 'text', [1, 2], { datapack: 3, meta: [] }])(
    'gives parts of anything, and a reading that says there are no passengers: %j',
    (content) => {
      const read = readModel(modelPartsOf(content))
      expect(read.displays).toMatchObject({ ok: false, reason: 'no_passengers' })
      expect(read.animations).toEqual({ animations: [], problems: { list: [], more: 0 } })
    },
  )
})
