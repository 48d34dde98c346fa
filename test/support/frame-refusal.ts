/** The command check's verdict on one frame command, as tests that compare it with another read. */
import { type CommandCheck, UnsafeContent } from '../../src/export-safety/testing'

/** Null when `check` accepts `command` in a frame, else the refusal's reason. */
export function frameRefusal(check: CommandCheck, command: string): string | null {
  try {
    check.check(command, 'frame')
    return null
  } catch (error) {
    if (error instanceof UnsafeContent) return error.reason
    throw error
  }
}
