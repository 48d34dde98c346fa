/**
 * The publish room's face: the editor API's sub-app and the RPC entrypoint, which the Worker
 * exports (src/index.ts).
 */
export { editorApi } from './editor-api'
export { PublishService } from './entrypoint'
