import type { PublishErrorFields, PublishRpc } from 'export-retrieval-service/publish-rpc'

/** The editor's Worker, as docs/publishing.md shows it: its binding typed by the package. */
interface Env {
  EXPORT_SERVICE: PublishRpc
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const exportJson = await request.text()
    try {
      const published = await env.EXPORT_SERVICE.publish(exportJson, {
        quickCommandPrefix: 'mm spawn',
      })
      return Response.json(published)
    } catch (error) {
      const { code, status, retryAfterSeconds } = error as Error & PublishErrorFields
      return Response.json({ error: (error as Error).message, code, retryAfterSeconds }, { status })
    }
  },
}
