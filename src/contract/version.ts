/**
 * The version of the API: the package's own, read from package.json when the Worker is bundled
 * (esbuild, under wrangler and vitest alike, inlines the one field), so it is written in one
 * place only.
 */
import { version } from '../../package.json'

/** The package version, which the OpenAPI document describes. */
export const API_VERSION: string = version
