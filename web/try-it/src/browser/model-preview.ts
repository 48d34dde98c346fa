/**
 * The 3D preview of an export's displays with three.js: each block or item display a box under
 * its own matrix, coloured by material; each text display a label. Orbit, zoom and pan with
 * mouse or touch (OrbitControls); the camera starts fitted to the whole model. It draws on
 * demand, not in a loop: a still model costs nothing.
 *
 * Boxes of the same shape and colour are one InstancedMesh, one draw call for all of them, so
 * tens of thousands of displays stay quick to build and turn. Their dark edges are drawn per
 * display up to MAX_EDGED_DISPLAYS (every real model), and labels up to MAX_LABELS: both cost
 * a draw call or a DOM node each. What a frame may cost to fill is bounded too (fill-budget.ts).
 */
import {
  AmbientLight,
  Box3,
  BoxGeometry,
  Color,
  DirectionalLight,
  EdgesGeometry,
  Group,
  HemisphereLight,
  InstancedMesh,
  LineBasicMaterial,
  LineSegments,
  Matrix4,
  MeshLambertMaterial,
  Object3D,
  PerspectiveCamera,
  Scene,
  Sphere,
  Vector3,
  WebGLRenderer,
} from 'three'
import { OrbitControls } from 'three/addons/controls/OrbitControls.js'
import { CSS2DObject, CSS2DRenderer } from 'three/addons/renderers/CSS2DRenderer.js'
import { boxOf, colorOf, type Box } from '../model/appearance.js'
import type { Display } from '../model/displays.js'
import type { Matrix } from '../model/matrix.js'
import { planFill, type FillBatch } from './fill-budget.js'

/** Displays drawn with their dark edges at most; past it, boxes are drawn without. */
export const MAX_EDGED_DISPLAYS = 2_000
/** Text displays drawn as labels at most. */
export const MAX_LABELS = 500

/** A drawn model. */
export interface Preview {
  /** Moves every display to its matrix (indexed like the displays) and redraws. */
  setMatrices(matrices: readonly Matrix[]): void
  /** How many displays are drawn (labels past MAX_LABELS are not). */
  drawnCount: number
  /** The canvas, for tests and screenshots. */
  canvas: HTMLCanvasElement
  dispose(): void
}

const BACKGROUND = 0xeef1f5
const FIELD_OF_VIEW_DEGREES = 40

/**
 * Draws `displays` into `host`, and says in `fillNote` when a view leaves boxes out to stay
 * within the fill budget. Returns why not, in words, when this browser has no WebGL: the caller
 * says so instead of leaving a blank canvas.
 */
export function createPreview(
  host: HTMLElement,
  displays: readonly Display[],
  fillNote: HTMLElement,
): Preview | string {
  const drawn = displays.map((_, i) => i)
  let renderer: WebGLRenderer
  try {
    // preserveDrawingBuffer: the picture stays readable after it is shown (screenshots, tests).
    // Antialiasing multiplies the cost of every pixel drawn, which a software renderer pays in
    // seconds for tens of thousands of boxes; a model that large goes without.
    const antialias = drawn.length <= MAX_EDGED_DISPLAYS
    renderer = new WebGLRenderer({ antialias, preserveDrawingBuffer: true })
  } catch {
    return 'This browser cannot draw the model: WebGL is not available.'
  }
  const canvas = renderer.domElement
  canvas.dataset['testid'] = 'model-preview'
  canvas.setAttribute('role', 'img')
  canvas.setAttribute('aria-label', `3D preview of ${drawn.length} displays`)
  const pixelRatio = Math.min(window.devicePixelRatio, 2)
  let resolution = 1
  renderer.setPixelRatio(pixelRatio)
  const labels = new CSS2DRenderer()
  labels.domElement.className = 'preview-labels'
  host.replaceChildren(canvas, labels.domElement)

  const scene = new Scene()
  scene.background = new Color(BACKGROUND)
  scene.add(new HemisphereLight(0xffffff, 0x8d8d8d, 1.6), new AmbientLight(0xffffff, 0.4))
  const sun = new DirectionalLight(0xffffff, 1.6)
  sun.position.set(3, 10, 6)
  scene.add(sun)

  const model = new Group()
  scene.add(model)
  const parts = partsOf(displays, drawn)
  const batches = parts.flatMap((part) => (part.fill === undefined ? [] : [part.fill]))
  for (const part of parts) model.add(part.object)
  const start = displays.map((d) => d.matrix)
  for (const part of parts) part.place(start)

  const camera = new PerspectiveCamera(FIELD_OF_VIEW_DEGREES, 1, 0.01, 1000)
  const controls = new OrbitControls(camera, canvas)
  fitCamera(camera, controls, boundsOf(displays, drawn))

  let pending = 0
  let width = 1
  let height = 1
  const draw = () => {
    pending = 0
    camera.updateMatrixWorld()
    const plan = planFill(batches, camera, width, height, pixelRatio)
    if (plan.resolution !== resolution) {
      resolution = plan.resolution
      renderer.setPixelRatio(pixelRatio * resolution)
    }
    fillNote.hidden = plan.drawnBoxes === plan.allBoxes
    fillNote.textContent =
      `This view draws ${plan.drawnBoxes.toLocaleString('en')} of ` +
      `${plan.allBoxes.toLocaleString('en')} boxes: they cover the picture too many times over ` +
      'to draw them all at once. Zoom out or turn to see more.'
    renderer.render(scene, camera)
    labels.render(scene, camera)
    if (canvas.dataset['firstRenderMs'] === undefined) {
      canvas.dataset['firstRenderMs'] = String(Math.round(performance.now()))
    }
  }
  const requestDraw = () => {
    if (pending === 0) pending = requestAnimationFrame(draw)
  }
  controls.addEventListener('change', requestDraw)
  const resize = () => {
    width = Math.max(host.clientWidth, 1)
    height = Math.max(host.clientHeight, 1)
    renderer.setSize(width, height)
    labels.setSize(width, height)
    camera.aspect = width / height
    camera.updateProjectionMatrix()
    draw()
  }
  const observer = new ResizeObserver(resize)
  observer.observe(host)
  resize()

  return {
    canvas,
    drawnCount: parts.reduce((sum, part) => sum + part.count, 0),
    setMatrices(matrices) {
      for (const part of parts) part.place(matrices)
      requestDraw()
    },
    dispose() {
      observer.disconnect()
      cancelAnimationFrame(pending)
      controls.dispose()
      renderer.dispose()
      // Browsers keep a handful of WebGL contexts; free this one now, not when collected.
      renderer.forceContextLoss()
      host.replaceChildren()
    },
  }
}

const geometries = new Map<string, { box: BoxGeometry; edges: EdgesGeometry }>()
const materials = new Map<number, { face: MeshLambertMaterial; edge: LineBasicMaterial }>()

/** A part of the picture: some displays, drawn together, moved by the displays' matrices. */
interface Part {
  object: Object3D
  /** How many displays it draws. */
  count: number
  place(matrices: readonly Matrix[]): void
  /** Boxes drawn as instances, whose fill the budget bounds. */
  fill?: FillBatch
}

/** The parts that draw the displays at `drawn`: batched boxes, edges, labels. */
function partsOf(displays: readonly Display[], drawn: readonly number[]): Part[] {
  const batches = new Map<string, { box: Box; color: number; members: number[] }>()
  const labels: number[] = []
  for (const i of drawn) {
    const display = displays[i]!
    if (display.kind === 'text') {
      if (labels.length < MAX_LABELS) labels.push(i)
      continue
    }
    const box = boxOf(display)
    const color = colorOf(display.name)
    const key = `${box.join()}|${color}`
    let batch = batches.get(key)
    if (batch === undefined) batches.set(key, (batch = { box, color, members: [] }))
    batch.members.push(i)
  }
  const boxes = drawn.length - labels.length
  const parts: Part[] = []
  for (const { box, color, members } of batches.values()) {
    parts.push(boxBatch(box, color, members))
    if (boxes <= MAX_EDGED_DISPLAYS) parts.push(...members.map((i) => edgesOf(box, color, i)))
  }
  parts.push(...labels.map((i) => labelOf(displays[i]!, i)))
  return parts
}

/** Boxes of one shape and colour: one InstancedMesh. */
function boxBatch(box: Box, color: number, members: readonly number[]): Part {
  const mesh = new InstancedMesh(geometryOf(box).box, materialOf(color).face, members.length)
  // Animations move instances past the bounds three would compute once.
  mesh.frustumCulled = false
  const matrix = new Matrix4()
  const [x0, y0, z0, x1, y1, z1] = box
  const fill: FillBatch = {
    mesh,
    instances: members.length,
    center: [(x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2],
    radius: Math.hypot(x1 - x0, y1 - y0, z1 - z0) / 2,
  }
  return {
    object: mesh,
    count: members.length,
    fill,
    place(matrices) {
      for (const [j, i] of members.entries()) {
        const m = matrices[i]
        if (m === undefined) continue
        mesh.setMatrixAt(j, setRows(matrix, m))
      }
      mesh.instanceMatrix.needsUpdate = true
    },
  }
}

/** The dark edges of one box. */
function edgesOf(box: Box, color: number, index: number): Part {
  const edges = new LineSegments(geometryOf(box).edges, materialOf(color).edge)
  return { object: edges, count: 0, place: (matrices) => placeNode(edges, matrices[index]) }
}

/** A text display's label. */
function labelOf(display: Display, index: number): Part {
  const label = document.createElement('div')
  label.className = 'preview-label'
  label.textContent = display.text === '' ? '(empty text)' : display.text
  if (display.textColor !== null) label.style.color = display.textColor
  const node = new CSS2DObject(label)
  return { object: node, count: 1, place: (matrices) => placeNode(node, matrices[index]) }
}

function geometryOf(box: Box): { box: BoxGeometry; edges: EdgesGeometry } {
  const key = box.join()
  let found = geometries.get(key)
  if (found === undefined) {
    const [x0, y0, z0, x1, y1, z1] = box
    const geometry = new BoxGeometry(x1 - x0, y1 - y0, z1 - z0)
    geometry.translate((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2)
    found = { box: geometry, edges: new EdgesGeometry(geometry) }
    geometries.set(key, found)
  }
  return found
}

function materialOf(color: number): { face: MeshLambertMaterial; edge: LineBasicMaterial } {
  let found = materials.get(color)
  if (found === undefined) {
    const edge = new Color(color).multiplyScalar(0.55)
    found = {
      face: new MeshLambertMaterial({ color }),
      edge: new LineBasicMaterial({ color: edge }),
    }
    materials.set(color, found)
  }
  return found
}

function placeNode(node: Object3D, m: Matrix | undefined): void {
  if (m === undefined) return
  node.matrixAutoUpdate = false
  setRows(node.matrix, m)
  node.matrixWorldNeedsUpdate = true
}

/** Matrix4.set takes its arguments row by row, as Minecraft writes them. */
function setRows(target: Matrix4, m: Matrix): Matrix4 {
  return target.set(...(m as Parameters<Matrix4['set']>))
}

/** The bounds of the drawn displays where they start: boxes whole, labels by their point. */
function boundsOf(displays: readonly Display[], drawn: readonly number[]): Box3 {
  const bounds = new Box3()
  const matrix = new Matrix4()
  const box = new Box3()
  for (const i of drawn) {
    const display = displays[i]!
    setRows(matrix, display.matrix)
    if (display.kind === 'text') {
      bounds.expandByPoint(new Vector3().applyMatrix4(matrix))
    } else {
      const [x0, y0, z0, x1, y1, z1] = boxOf(display)
      box.min.set(x0, y0, z0)
      box.max.set(x1, y1, z1)
      bounds.union(box.applyMatrix4(matrix))
    }
  }
  return bounds
}

/** Points the camera at the model from above and in front, far enough to see all of it. */
function fitCamera(camera: PerspectiveCamera, controls: OrbitControls, bounds: Box3): void {
  const sphere = bounds.getBoundingSphere(new Sphere())
  const radius = Math.max(sphere.radius, 0.25)
  // The bounding sphere is looser than the model, so the camera comes a little closer than it.
  const distance = (radius / Math.sin(((FIELD_OF_VIEW_DEGREES / 2) * Math.PI) / 180)) * 0.85
  const direction = new Vector3(0.9, 0.7, 1.3).normalize()
  camera.position.copy(sphere.center).addScaledVector(direction, distance)
  camera.near = distance / 100
  camera.far = distance * 100
  camera.updateProjectionMatrix()
  controls.target.copy(sphere.center)
  controls.maxDistance = distance * 20
  controls.update()
}
