/** Vectors of the selectors: each argument a selector may have, each sort. */
import { FRAME_PATH, P, glowing, swapCase, vector } from './exports.mjs'

/** A value of each argument, beside which the others stand in every selector. */
const ARGUMENT_VALUE = {
  type: 'block_display',
  tag: `${P}_0`,
  distance: '..1',
  limit: '1',
  sort: 'nearest',
}

/**
 * `word` in the selector `selector(word)` makes, allowed; misspelt, refused, where the refusal
 * finds it between `before` and `after`.
 */
function misspelt(kind, word, selector, after, before = '') {
  const wrong = swapCase(word)
  return vector(
    kind,
    word,
    glowing(selector(word)),
    glowing(selector(wrong)),
    'selector',
    FRAME_PATH,
    `${before}${wrong}${after}`,
  )
}

/** Each selector argument (misspelt among the others), then each sort. */
export function selectorVectors(vocabulary) {
  const argumentsOf = vocabulary.selectorArguments.map((argument) => {
    const others = Object.entries(ARGUMENT_VALUE).filter(([name]) => name !== argument)
    const selector = (name) =>
      `@e[${[[name, ARGUMENT_VALUE[argument]], ...others].map(([n, v]) => `${n}=${v}`).join(',')}]`
    return misspelt('selector argument', argument, selector, `=${ARGUMENT_VALUE[argument]}`)
  })
  const sorts = vocabulary.selectorSorts.map((sort) => {
    const selector = (value) => `@e[type=block_display,tag=${P}_0,sort=${value}]`
    return misspelt('selector sort', sort, selector, '', 'sort=')
  })
  return [...argumentsOf, ...sorts]
}
