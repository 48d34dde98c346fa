/**
 * The publish room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both): the publish RPC entrypoint, the quick command and the export
 * validator, which the room's own code uses and the tests and the bench reach. Why a second face:
 * docs/architecture.md#the-layering-rules.
 */
export { PublishService } from './entrypoint'
export { quickCommand, quickCommandPrefix } from './quick-command'
export { validateExport } from './validate'
