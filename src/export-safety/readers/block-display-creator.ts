/**
 * GeneralBreddok/BlockDisplayCreator's reading of a document: beside `content`, its older code
 * path runs root-level `commands` and summons root-level `Passengers`. Written again here so
 * that the check reads every document as it does (docs/export-safety.md, "Readers this check
 * holds for").
 */

/** The root members whose strings BlockDisplayCreator runs besides `content`'s. */
const ROOT_RUN: readonly string[] = ['commands', 'Passengers']

/** The root members of a document (`names`) that BlockDisplayCreator would run or summon. */
export function blockDisplayCreator(names: Iterable<string>): string[] {
  return [...names].filter((name) => ROOT_RUN.includes(name))
}
