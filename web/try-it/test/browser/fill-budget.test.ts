import { BoxGeometry, InstancedMesh, Matrix4, MeshBasicMaterial, PerspectiveCamera } from 'three'
import { describe, expect, it } from 'vitest'
import { MAX_FRAGMENTS_PER_FRAME, planFill, type FillBatch } from '../../src/browser/fill-budget'

const WIDTH = 1000
const HEIGHT = 600

/** Unit boxes at the given positions, scaled by `scale`. */
function batch(positions: readonly [number, number, number][], scale = 1): FillBatch {
  const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), positions.length)
  for (const [i, [x, y, z]] of positions.entries()) {
    mesh.setMatrixAt(i, new Matrix4().makeScale(scale, scale, scale).setPosition(x, y, z))
  }
  return { mesh, instances: positions.length, center: [0, 0, 0], radius: Math.sqrt(3) / 2 }
}

/** A camera `distance` away from the origin, looking at it. */
function camera(distance: number): PerspectiveCamera {
  const made = new PerspectiveCamera(40, WIDTH / HEIGHT, 0.01, 1000)
  made.position.set(0, 0, distance)
  made.lookAt(0, 0, 0)
  made.updateMatrixWorld()
  return made
}

describe('planFill', () => {
  it('draws a model spread over a grid whole, at full resolution', () => {
    const grid: [number, number, number][] = []
    for (let x = 0; x < 12; x++) for (let z = 0; z < 12; z++) grid.push([x - 6, 0, z - 6])
    const boxes = batch(grid)
    expect(planFill([boxes], camera(20), WIDTH, HEIGHT, 1)).toEqual({
      resolution: 1,
      drawnBoxes: 144,
      allBoxes: 144,
    })
    expect(boxes.mesh.count).toBe(144)
  })

  it('draws 5,000 boxes at one spot at a lower resolution, and only as many as the budget fits', () => {
    const boxes = batch(Array.from({ length: 5_000 }, () => [0, 0, 0] as [number, number, number]))
    const plan = planFill([boxes], camera(3), WIDTH, HEIGHT, 1)
    expect(plan.resolution).toBeLessThan(1)
    expect(plan.drawnBoxes).toBeGreaterThan(0)
    expect(plan.drawnBoxes).toBeLessThan(5_000)
    expect(boxes.mesh.count).toBe(plan.drawnBoxes)
  })

  it('counts a box the camera is inside as the whole picture', () => {
    const boxes = batch(
      Array.from({ length: 300 }, () => [0, 0, 0] as [number, number, number]),
      900,
    )
    const plan = planFill([boxes], camera(5), WIDTH, HEIGHT, 2)
    const screen = WIDTH * HEIGHT * 4 * plan.resolution ** 2
    expect(plan.drawnBoxes).toBe(Math.floor(MAX_FRAGMENTS_PER_FRAME / screen))
  })

  it('leaves nothing out for boxes behind the camera', () => {
    const boxes = batch(Array.from({ length: 5_000 }, () => [0, 0, 50] as [number, number, number]))
    expect(planFill([boxes], camera(3), WIDTH, HEIGHT, 1).drawnBoxes).toBe(5_000)
  })
})
