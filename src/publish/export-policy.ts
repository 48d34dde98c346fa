/**
 * The operator's `EXPORT_POLICY` applied at publish: under `display-models` (the default) an
 * export outside the display-model vocabulary is refused with `unsafe_export` before anything is
 * stored; under `off` every valid export is accepted. The check reads the validated bytes
 * string by string (src/export-safety/), never as one parsed tree, so a 25 MiB export costs no
 * more memory than its body.
 */
import { exportPolicy, type Env } from '../config'
import { findUnsafeExport } from '../export-safety'
import { ServiceFailure } from '../http'

/** Throws `unsafe_export` when the policy asks for display models and `document` is not one. */
export function enforceExportPolicy(env: Env, document: Uint8Array): void {
  if (exportPolicy(env) === 'off') return
  const unsafe = findUnsafeExport(document)
  if (unsafe === null) return
  throw new ServiceFailure({
    reason: 'unsafe_export',
    rule: unsafe.reason,
    path: unsafe.path,
    detail: unsafe.message,
  })
}
