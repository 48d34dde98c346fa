const PUBLICATION_ID = /^[0-9]{6}$/

/**
 * True when the value is exactly six ASCII digits (docs/api.md#parameters); other scripts' digits
 * do not count.
 */
export function isPublicationId(value: string | null | undefined): value is string {
  return typeof value === 'string' && PUBLICATION_ID.test(value)
}
