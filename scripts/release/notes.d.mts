// Types of notes.mjs, for the tests of the change files and of the changelog.

export interface Change {
  name: string
  kind: string
  api: string
  java: string
  body: string
}

export const KINDS: readonly string[]
export const NOT_A_CHANGE: string
export const UNRELEASED: string
export function parseChange(name: string, text: string): Change
export function bumped(version: string, bump: string): string
export function withRelease(
  changelog: string,
  changes: Change[],
  date: string,
): { api: string; java: string; changelog: string }
export function unreleasedOf(changelog: string): string
