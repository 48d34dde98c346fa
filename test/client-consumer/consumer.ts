import {
  checkExportSafety,
  getExport,
  RateLimitedError,
  type ExportResult,
} from 'export-retrieval-service/client'

/** What a consumer writes: the typed result, the typed error and its wait. */
export async function spawnModel(id: string): Promise<ExportResult | number> {
  try {
    return await getExport(id, { baseUrl: 'https://models.example.com', tag: 'gate_1' })
  } catch (error) {
    if (error instanceof RateLimitedError) return error.retryAfterSeconds ?? 60
    throw error
  }
}

/** What the editor's backend writes before publishing: the path to show, or null when safe. */
export function unsafePath(exportJson: string): string | null {
  const verdict = checkExportSafety(exportJson)
  return verdict.safe ? null : `${verdict.path} (${verdict.reason}: ${verdict.found})`
}
