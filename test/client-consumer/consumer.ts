import { getExport, RateLimitedError, type ExportResult } from 'export-retrieval-service/client'

/** What a consumer writes: the typed result, the typed error and its wait. */
export async function spawnModel(id: string): Promise<ExportResult | number> {
  try {
    return await getExport(id, { baseUrl: 'https://models.example.com', tag: 'gate_1' })
  } catch (error) {
    if (error instanceof RateLimitedError) return error.retryAfterSeconds ?? 60
    throw error
  }
}
