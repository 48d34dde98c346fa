/**
 * Publishing over RPC, for the editor's own Worker through a service binding. Bindings are
 * private to the account's Workers, so there is no token: holding the binding is the permission.
 */
import { WorkerEntrypoint } from 'cloudflare:workers'
import type { Env } from '../config'
import { failureOf, toPublicError } from '../http'
import { publish } from './publish'
import type {
  ExportDocumentInput,
  PublishErrorFields,
  PublishOptions,
  PublishResult,
  PublishRpc,
} from '../contract/publish-rpc'
import { logRpcPublish } from './rpc-log'

/** The RPC entrypoint: `env.EXPORT_SERVICE.publish(document, options)`. */
export class PublishService extends WorkerEntrypoint<Env> implements PublishRpc {
  /**
   * Publishes an export under a new ID. Rejects with an `Error` carrying `PublishErrorFields`,
   * its message the editor API's (`invalid_export: The field "content" must be an object ...`).
   */
  async publish(
    document: ExportDocumentInput,
    options: PublishOptions = {},
  ): Promise<PublishResult> {
    const startedAt = Date.now()
    let exportBytes = 0
    try {
      const bytes = toBytes(document)
      exportBytes = bytes.byteLength
      const result = await publish(this.env, bytes, options)
      logRpcPublish(this.env, startedAt, exportBytes, result)
      return result
    } catch (thrown) {
      const failure = failureOf(thrown)
      logRpcPublish(this.env, startedAt, exportBytes, { failure })
      const error = toPublicError(failure)
      const fields: PublishErrorFields = { code: error.code, status: error.status }
      const retryAfterSeconds = error.details?.retryAfterSeconds
      if (typeof retryAfterSeconds === 'number') fields.retryAfterSeconds = retryAfterSeconds
      const path = error.details?.path
      if (typeof path === 'string') fields.path = path
      throw Object.assign(new Error(`${error.code}: ${error.message}`), fields)
    }
  }
}

function toBytes(document: ExportDocumentInput): Uint8Array {
  if (typeof document === 'string') return new TextEncoder().encode(document)
  if (document instanceof ArrayBuffer) return new Uint8Array(document)
  if (ArrayBuffer.isView(document)) {
    return new Uint8Array(document.buffer, document.byteOffset, document.byteLength)
  }
  return new TextEncoder().encode(JSON.stringify(document))
}
