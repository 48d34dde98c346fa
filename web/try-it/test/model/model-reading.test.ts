import { describe, expect, it } from 'vitest'
import { readModel } from '../../src/model/model-reading'

describe('readModel', () => {
  it.each([null, 7, 'text', [1, 2], { datapack: 3, meta: [] }])(
    'reads anything, and says there are no passengers: %j',
    (content) => {
      const read = readModel(content)
      expect(read.displays).toMatchObject({ ok: false, reason: 'no_passengers' })
      expect(read.animations).toEqual({ animations: [], problems: { list: [], more: 0 } })
    },
  )
})
