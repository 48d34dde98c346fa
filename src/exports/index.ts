/**
 * The exports room's face: the public read route as one sub-app (`serverApi`), and the default
 * tag, a setting the Worker checks at startup.
 */
export { serverApi } from './server-api'
export { defaultTag } from './tag'
