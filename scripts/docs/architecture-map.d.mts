// Types of architecture-map.mjs, for the test that holds docs/architecture.md to it.

/** A module of src/ and the paths it imports, as dependency-cruiser resolves them. */
export interface CruisedModule {
  source: string
  imports: string[]
}

export const OPEN: string
export const CLOSE: string
/** The command that rewrites the map. */
export const COMMAND: string

export function cruise(root: string, config?: string): CruisedModule[]
export function roomsOf(modules: CruisedModule[]): Map<string, Set<string>>
export function floorsOf(rooms: Map<string, Set<string>>): Map<string, number>
export function drawMap(modules: CruisedModule[]): string
export function withMap(page: string, map: string): string
