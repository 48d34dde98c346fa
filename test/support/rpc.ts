/** A Durable Object stub's methods as a caller that ignores its TypeScript type calls them. */
type UntypedStub = Record<string, (...args: unknown[]) => Promise<unknown>>

/**
 * Calls `name` on a Durable Object stub by name, whatever its type says, and returns the message
 * it rejects with, or null when it answers. The type hides what is not public; only the runtime
 * decides what RPC reaches. Awaited here rather than through `expect(...).rejects`: the RPC promise
 * is a proxy, and every property that `expect` reads of it would be a call of its own that rejects
 * unhandled.
 */
export async function rpcRefusal(
  stub: object,
  name: string,
  ...args: unknown[]
): Promise<string | null> {
  try {
    await (stub as UntypedStub)[name]!(...args)
    return null
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}
