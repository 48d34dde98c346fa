/**
 * The publish room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both): the quick command and the export validator, which the room's
 * own code uses and the tests and the bench reach. The RPC entrypoint, `PublishService`, is
 * exported by the Worker itself (src/index.ts); it is not here, so that the bench can bundle
 * this face for Node, without the Workers runtime. Why a second face:
 * docs/architecture.md#the-layering-rules.
 */
export { quickCommand, quickCommandPrefix } from './quick-command'
export { validateExport } from './validate'
