/**
 * The RPC interface of the `PublishService` entrypoint, as the editor's Worker sees it through a
 * service binding. Types only, with no import, so that a consumer type-checks it under any module
 * resolution (`bundler`, `node16`, `nodenext`); package.json exports it as
 * `export-retrieval-service/publish-rpc`. src/publish/entrypoint.ts implements it.
 */

/** An export document as the caller holds it: its JSON text or bytes (stored as given), or an object. */
export type ExportDocumentInput = string | ArrayBuffer | ArrayBufferView | object

/** Options of a publish. */
export interface PublishOptions {
  /** The user's quick-command setting, replacing `model spawn`; the default when absent. */
  quickCommandPrefix?: string | null
}

/** What the editor shows after publishing. */
export interface PublishResult {
  /** The six-digit publication ID. */
  id: string
  /** End of the lifetime, ISO 8601 (UTC). */
  expiresAt: string
  /** Whole seconds from publication to `expiresAt`. */
  expiresInSeconds: number
  /** The command to copy, e.g. `/model spawn 123456`. */
  quickCommand: string
}

/** Fields of the `Error` a failed RPC publish rejects with (RPC keeps an error's own fields). */
export interface PublishErrorFields {
  /** The editor API's error code: `invalid_export`, `capacity`, `unavailable`, ... */
  code: string
  /** The HTTP status the editor API would answer. */
  status: number
  /** Present when retrying later can succeed. */
  retryAfterSeconds?: number
  /** On `unsafe_export`: where the export leaves the display-model vocabulary. */
  path?: string
}

/** The binding's methods: `env.EXPORT_SERVICE.publish(document, options)`. */
export interface PublishRpc {
  /**
   * Publishes an export under a new ID. Rejects with an `Error` carrying `PublishErrorFields`,
   * its message the editor API's (`invalid_export: The field "content" must be an object ...`).
   */
  publish(document: ExportDocumentInput, options?: PublishOptions): Promise<PublishResult>
}
