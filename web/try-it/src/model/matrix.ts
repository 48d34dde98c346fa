/**
 * A display's `transformation` as a 4x4 matrix, row-major as Minecraft writes it: either the 16
 * numbers themselves, or the decomposed form `{translation, left_rotation, scale,
 * right_rotation}`, which Minecraft composes as T * L * S * R.
 */
import { isCompound, type SnbtValue } from './snbt'

/** 16 numbers, row-major: element (row r, column c) is at 4r + c. */
export type Matrix = readonly number[]

export const IDENTITY: Matrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

/** The matrix of a `transformation` value, or why it is not one. */
export function readMatrix(value: SnbtValue | undefined): Matrix | string {
  if (value === undefined) return 'no transformation'
  if (Array.isArray(value)) {
    if (value.length !== 16) return `a transformation of ${value.length} numbers, not 16`
    return numbers(value) ?? 'a transformation that is not all numbers'
  }
  if (!isCompound(value)) return 'a transformation that is neither a list nor a compound'
  const translation = vector(value['translation'], 3, [0, 0, 0])
  const scale = vector(value['scale'], 3, [1, 1, 1])
  const left = rotation(value['left_rotation'])
  const right = rotation(value['right_rotation'])
  if (translation === null || scale === null || left === null || right === null) {
    return 'a decomposed transformation with a malformed part'
  }
  const [sx, sy, sz] = scale as [number, number, number]
  const linear = multiply3(multiply3(left, [sx, 0, 0, 0, sy, 0, 0, 0, sz]), right)
  const [tx, ty, tz] = translation as [number, number, number]
  const m = linear as [number, number, number, number, number, number, number, number, number]
  return [m[0], m[1], m[2], tx, m[3], m[4], m[5], ty, m[6], m[7], m[8], tz, 0, 0, 0, 1]
}

/** `a + (b - a) * t`, element by element. */
export function lerpMatrix(a: Matrix, b: Matrix, t: number): Matrix {
  if (t <= 0) return a
  if (t >= 1) return b
  return a.map((x, i) => x + (b[i]! - x) * t)
}

function numbers(items: SnbtValue[]): number[] | null {
  return items.every((x) => typeof x === 'number' && Number.isFinite(x))
    ? (items as number[])
    : null
}

function vector(value: SnbtValue | undefined, length: number, fallback: number[]): number[] | null {
  if (value === undefined) return fallback
  if (!Array.isArray(value) || value.length !== length) return null
  return numbers(value)
}

/** A rotation as a 3x3 row-major matrix: a quaternion [x, y, z, w] or {angle, axis}. */
function rotation(value: SnbtValue | undefined): number[] | null {
  if (value === undefined) return [1, 0, 0, 0, 1, 0, 0, 0, 1]
  let q: number[] | null
  if (isCompound(value)) {
    const axis = vector(value['axis'], 3, [0, 0, 1])
    const angle = value['angle']
    if (axis === null || typeof angle !== 'number') return null
    const length = Math.hypot(...axis) || 1
    const s = Math.sin(angle / 2) / length
    q = [axis[0]! * s, axis[1]! * s, axis[2]! * s, Math.cos(angle / 2)]
  } else {
    q = vector(value, 4, [0, 0, 0, 1])
  }
  if (q === null) return null
  const norm = Math.hypot(...q) || 1
  const [x, y, z, w] = q.map((c) => c / norm) as [number, number, number, number]
  return [
    1 - 2 * (y * y + z * z),
    2 * (x * y - z * w),
    2 * (x * z + y * w),
    2 * (x * y + z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z - x * w),
    2 * (x * z - y * w),
    2 * (y * z + x * w),
    1 - 2 * (x * x + y * y),
  ]
}

function multiply3(a: number[], b: number[]): number[] {
  const out: number[] = []
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      out.push(a[3 * r]! * b[c]! + a[3 * r + 1]! * b[3 + c]! + a[3 * r + 2]! * b[6 + c]!)
    }
  }
  return out
}
