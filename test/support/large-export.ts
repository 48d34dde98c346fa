/**
 * A synthetic export over 1 MiB, whose grace copy is streamed in chunks: shared by the KV-lag
 * test (test/e2e/kv-lag.test.ts) and the soak (scripts/soak/), which imports it from Node (so
 * this file imports nothing and uses only syntax Node's type stripping runs).
 */

/** The placeholder as an export carries it (docs/api.md#the-body). */
export const PLACEHOLDER = '[MODELSERVERTAG]'

/** 16,000 keyframe commands with a placeholder in each, one display carrying every tag. */
export function largeExport(projectId: string): string {
  const commands = Array.from(
    { length: 16_000 },
    (_, i) =>
      `"data merge entity @e[type=item_display,tag=${PLACEHOLDER}_${i % 300},limit=1] {view_range:${i}f}"`,
  )
  // One display carries every tag the commands target: a display model, which publishing accepts.
  const tags = Array.from({ length: 300 }, (_, i) => `\\"${PLACEHOLDER}_${i}\\"`).join(',')
  const passengers = `"{id:\\"minecraft:item_display\\",Tags:[${tags}]}"`
  return `{"content":{"commands":[${commands.join(',')}],"passengers":[${passengers}],"project_id":"${projectId}"}}`
}
