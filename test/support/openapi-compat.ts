/**
 * What the compatibility promise (docs/api.md#compatibility) calls a breaking change between two
 * OpenAPI documents. api-smart-diff finds and classifies the changes; the promise is stricter than
 * its general rules in four places, so those are decided here:
 *
 * - An enum value removed from a response (an error `code`, a `Content-Encoding`) is breaking: a
 *   case that answered with it now answers otherwise. The tool calls it safe for a response. An
 *   enum value added to a response is allowed (new codes for new cases), which the tool calls
 *   breaking.
 * - A member of a response body removed is breaking, optional or not: callers read it. The
 *   tool calls the removal of an optional one safe, since the schema then still allows it.
 * - A `type` replaced is breaking wherever it is: the tool calls some response retypes safe.
 * - A change the tool leaves unclassified (a header's schema) is breaking until someone decides
 *   otherwise, by changing this file in review.
 *
 * Changes under `components` are skipped: the tool resolves every `$ref`, so each one shows again,
 * judged as a request or a response, where a path uses it.
 */
import { apiCompare, type Diff } from 'api-smart-diff'

/** Every change from `released` to `built` that breaks the promise, described for people. */
export function breakingChanges(released: object, built: object): string[] {
  return changes(released, built).filter(breaksThePromise).map(describe)
}

/** Every change, classified as the tool classifies it (for the note in a failure message). */
export function changes(released: object, built: object): Diff[] {
  // The tool prints a console error for some rules it could not apply; the change is still
  // returned, unclassified, which `breaksThePromise` counts as breaking.
  const error = console.error
  console.error = () => {}
  try {
    return apiCompare(released, built).diffs
  } finally {
    console.error = error
  }
}

function breaksThePromise(diff: Diff): boolean {
  const { path, action, type } = diff
  if (path[0] !== 'paths') return false
  const inResponse = path.includes('responses')
  if (inResponse && path.includes('enum')) return action !== 'add'
  if (inResponse && action === 'remove' && path.at(-2) === 'properties') return true
  if (path.at(-1) === 'type' && action === 'replace') return true
  return type === 'breaking' || type === 'unclassified'
}

function describe(diff: Diff): string {
  const where = diff.path.join(' > ')
  return `${diff.action} ${where}${diff.description ? `: ${diff.description}` : ''} (${diff.type})`
}

/** `[major, minor, patch]` of a version `1.2.3`. */
export function versionParts(version: string): [number, number, number] {
  const match = /^([0-9]+)\.([0-9]+)\.([0-9]+)$/.exec(version)
  if (match === null) throw new Error(`"${version}" is not a version MAJOR.MINOR.PATCH`)
  return [Number(match[1]), Number(match[2]), Number(match[3])]
}

/** Negative, zero or positive as version `a` is before, equal to or after `b`. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [versionParts(a), versionParts(b)]
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]
}
