/**
 * The rules room's face: the commands a frame or hitbox may run, the entities and keys a part may
 * have, and every plugin reader's reading of the passengers held to the same rules. It imports
 * the types, syntax and readers rooms.
 */
export { checkOneLine, CommandCheck, type CommandPlace } from './commands.js'
export { checkPassenger } from './entities.js'
export { checkPassengerReaders, GrammarPassengers } from './passenger-readers.js'
