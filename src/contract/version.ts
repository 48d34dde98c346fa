/**
 * The version of the API: the package's own, read from package.json at build time, so it is
 * written in one place only. Wrangler's bundler (esbuild) keeps just this field of the file in
 * the Worker; vitest and TypeScript (`resolveJsonModule`) read the same import.
 */
import { version } from '../../package.json'

/** The package version, which the OpenAPI document describes. */
export const API_VERSION: string = version
