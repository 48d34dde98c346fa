/**
 * The operator's `EXPORT_POLICY` applied at publish: under `display-models` (the default) an
 * export outside the display-model vocabulary is refused with `unsafe_export` before anything is
 * stored; under `off` every valid export is accepted. The check (src/export-safety/) reads the
 * body in the validator's own pass, then its strings one by one, never as one parsed tree, so a
 * 25 MiB export is read once and costs no more memory than its body.
 */
import { exportPolicy, type Env } from '../config'
import { startExportCheck, type ExportCheckPass } from '../export-safety'
import { ServiceFailure } from '../http'

/**
 * The check the policy asks for on `document`, to read it in the validator's pass
 * (`validateExport`'s observer alongside); null under `off`.
 */
export function exportPolicyCheck(env: Env, document: Uint8Array): ExportCheckPass | null {
  return exportPolicy(env) === 'off' ? null : startExportCheck(document)
}

/**
 * Throws `unsafe_export` when `check` (`exportPolicyCheck`'s, its document validated since) finds
 * the export is not a display model.
 */
export function enforceExportPolicy(check: ExportCheckPass | null): void {
  if (check === null) return
  const unsafe = check.verdict()
  if (unsafe === null) return
  throw new ServiceFailure({
    reason: 'unsafe_export',
    rule: unsafe.reason,
    path: unsafe.path,
    detail: unsafe.message,
  })
}
