/**
 * The e2e project's global setup: one service, started as `npm start` starts it with the tests'
 * token and no other setting, for the files of `SHARED_SERVICE_FILES` (shared-service.ts types
 * what it provides). It starts only when the run holds one of them, and stops when the run ends.
 */
import type { TestProject } from 'vitest/node'
import { startLocalService } from './local-service'

/** The files that use the shared service (each path's end). */
const SHARED_SERVICE_FILES = [
  'test/e2e/smoke.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/raw-http.test.ts',
]

export default async function startSharedService(project: TestProject) {
  const paths = [...project.vitest.state.pathsSet]
  if (!paths.some((path) => SHARED_SERVICE_FILES.some((file) => path.endsWith(file)))) return
  const service = await startLocalService()
  project.provide('sharedServiceUrl', service.url)
  return () => service.stop()
}
