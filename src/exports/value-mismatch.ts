/**
 * A stored value that disagrees with the metadata published beside it: cut short, damaged, or
 * not the document that was counted. Both read paths check the same three things, which are
 * what the response's length depends on: the bytes, the placeholders, the substituted length.
 */
export class ValueMismatchError extends Error {
  override name = 'ValueMismatchError'

  static tooLong(expectedBytes: number): ValueMismatchError {
    return new ValueMismatchError(
      `the stored value has more than ${expectedBytes} bytes; its metadata says ${expectedBytes}`,
    )
  }

  static wrongSize(readBytes: number, expectedBytes: number): ValueMismatchError {
    return new ValueMismatchError(
      `the stored value has ${readBytes} bytes; its metadata says ${expectedBytes}`,
    )
  }

  static placeholders(found: number, expected: number, more: boolean): ValueMismatchError {
    const amount = more ? `more than ${expected}` : `${found}`
    return new ValueMismatchError(
      `the stored value has ${amount} placeholders; its metadata says ${expected}`,
    )
  }

  static outgrows(expectedOutput: number): ValueMismatchError {
    return new ValueMismatchError(
      `the stored value does not match its metadata: substituted, it outgrows ${expectedOutput} bytes`,
    )
  }
}
