import {
  ExportHttpError,
  InvalidIdError,
  InvalidResponseError,
  RateLimitedError,
} from 'export-retrieval-service/client'
import { describe, expect, it } from 'vitest'
import { clientError, plainError } from '../../src/browser/client-errors'

/** An error sent from the worker to the page: made plain, cloned, rebuilt. */
function across(error: unknown): Error {
  return clientError(structuredClone(plainError(error)))
}

const rateLimit = {
  limit: 120,
  remaining: 0,
  resetSeconds: 42,
  windows: [{ name: 'short', remaining: 0, resetSeconds: 42, limit: 120, periodSeconds: 60 }],
}

describe("the client's errors across the worker's boundary", () => {
  it('keeps a 429 a RateLimitedError, with its wait and rate-limit state', () => {
    const details = {
      status: 429,
      code: 'rate_limited',
      retryAfterSeconds: 42,
      rateLimit,
      body: '{}',
    }
    const error = across(new RateLimitedError('Rate limited (HTTP 429): slow down', details))
    expect(error).toBeInstanceOf(RateLimitedError)
    expect(error).toMatchObject({ message: 'Rate limited (HTTP 429): slow down', ...details })
  })

  it('keeps any other status an ExportHttpError, with its code and body', () => {
    const details = {
      status: 404,
      code: 'not_found',
      retryAfterSeconds: null,
      rateLimit: null,
      body: '{"error":"No export","code":"not_found"}',
    }
    const error = across(new ExportHttpError('HTTP 404: No export', details))
    expect(error).toBeInstanceOf(ExportHttpError)
    expect(error).not.toBeInstanceOf(RateLimitedError)
    expect(error).toMatchObject({ message: 'HTTP 404: No export', ...details })
  })

  it('keeps a malformed ID and a 200 that is not an export what they were', () => {
    const invalid = across(new InvalidIdError('12a456'))
    expect(invalid).toBeInstanceOf(InvalidIdError)
    expect(invalid).toMatchObject({ id: '12a456', message: new InvalidIdError('12a456').message })
    const response = across(
      new InvalidResponseError('The 200 response is not JSON.', 200, '<html>'),
    )
    expect(response).toBeInstanceOf(InvalidResponseError)
    expect(response).toMatchObject({ status: 200, body: '<html>' })
  })

  it('keeps the message of a network failure', () => {
    const error = across(new TypeError('Failed to fetch'))
    expect(error.message).toBe('Failed to fetch')
  })
})
