/**
 * The bound on what one frame of the preview may cost to fill. Every box is shaded where it
 * covers the picture, once per box over the same pixel: 5,000 boxes at one spot, or a few
 * hundred scaled to fill the view, cost thousands of full-picture passes. With WebGL in software
 * (SwiftShader, as in CI and on machines without a GPU) that once blocked the page for 70 s.
 *
 * So before each frame, the pixels every box covers are estimated from its bounding sphere (a
 * box the camera is in, or nearly, covers the whole picture) and summed. Past the budget, the
 * picture is drawn at a lower resolution, in steps; past it at the lowest step, only the first
 * boxes (in passenger order) that fit the budget are drawn, and the page says so. Real models
 * cover the picture a few times over and are drawn whole at full resolution.
 */
import type { InstancedMesh, PerspectiveCamera } from 'three'

/** Pixels shaded per frame at most: about a tenth of a second of SwiftShader on a busy core. */
export const MAX_FRAGMENTS_PER_FRAME = 6_000_000
/** Resolutions tried, as a share of the screen's, best first; then the lowest. */
const RESOLUTION_STEPS = [1, 0.75, 0.5]
const LOWEST_RESOLUTION = 0.35

/** Boxes of one shape, drawn as one instanced mesh. */
export interface FillBatch {
  mesh: InstancedMesh
  /** Every instance the mesh holds; `mesh.count` is how many of them are drawn. */
  instances: number
  /** The centre of the shape's box and half its diagonal, in the display's own space. */
  center: readonly [number, number, number]
  radius: number
}

/** How a frame is drawn: its resolution (a share of the screen's) and the boxes it leaves out. */
export interface FillPlan {
  resolution: number
  drawnBoxes: number
  allBoxes: number
}

/**
 * Plans the next frame for a picture of `width` x `height` CSS pixels at `pixelRatio`: sets each
 * batch's `mesh.count`, and returns the resolution to draw at.
 */
export function planFill(
  batches: readonly FillBatch[],
  camera: PerspectiveCamera,
  width: number,
  height: number,
  pixelRatio: number,
): FillPlan {
  const screen = width * height * pixelRatio * pixelRatio
  const focal = height / 2 / Math.tan(((camera.fov / 2) * Math.PI) / 180)
  const view = camera.matrixWorldInverse.elements
  const areas = batches.map((batch) => {
    const found = new Float64Array(batch.instances)
    const m = batch.mesh.instanceMatrix.array
    const [bx, by, bz] = batch.center
    for (let i = 0; i < batch.instances; i++) {
      const o = 16 * i
      // Column-major, as three keeps it: the centre moved by the instance's matrix...
      const cx = m[o]! * bx + m[o + 4]! * by + m[o + 8]! * bz + m[o + 12]!
      const cy = m[o + 1]! * bx + m[o + 5]! * by + m[o + 9]! * bz + m[o + 13]!
      const cz = m[o + 2]! * bx + m[o + 6]! * by + m[o + 10]! * bz + m[o + 14]!
      // ...and the radius by its largest stretch.
      const stretch = Math.sqrt(
        Math.max(
          m[o]! ** 2 + m[o + 1]! ** 2 + m[o + 2]! ** 2,
          m[o + 4]! ** 2 + m[o + 5]! ** 2 + m[o + 6]! ** 2,
          m[o + 8]! ** 2 + m[o + 9]! ** 2 + m[o + 10]! ** 2,
        ),
      )
      const radius = batch.radius * stretch
      const depth = -(view[2]! * cx + view[6]! * cy + view[10]! * cz + view[14]!)
      if (depth + radius <= 0) continue // wholly behind the camera
      if (depth - radius <= camera.near) {
        found[i] = screen // the camera is in it, or nearly
        continue
      }
      const onScreen = (radius / Math.sqrt(depth * depth - radius * radius)) * focal * pixelRatio
      found[i] = Math.min(Math.PI * onScreen * onScreen, screen)
    }
    return found
  })
  let total = 0
  for (const found of areas) for (const area of found) total += area
  const allBoxes = batches.reduce((sum, batch) => sum + batch.instances, 0)
  const resolution =
    RESOLUTION_STEPS.find((step) => total * step * step <= MAX_FRAGMENTS_PER_FRAME) ??
    LOWEST_RESOLUTION
  const share = resolution * resolution
  let spent = 0
  let drawnBoxes = 0
  for (const [b, batch] of batches.entries()) {
    const found = areas[b]!
    let count = 0
    while (count < batch.instances && spent + found[count]! * share <= MAX_FRAGMENTS_PER_FRAME) {
      spent += found[count]! * share
      count++
    }
    batch.mesh.count = count
    drawnBoxes += count
  }
  return { resolution, drawnBoxes, allBoxes }
}
