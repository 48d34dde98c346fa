/**
 * The observability room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both): the metrics data point's layout, which the room's own code uses
 * and the tests and the bench reach. Why a second face: docs/architecture.md#the-layering-rules.
 */
export { METRIC_BLOBS, METRIC_DOUBLES } from './metrics'
