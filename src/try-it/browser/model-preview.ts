/**
 * The 3D preview of an export's displays with three.js: each block or item display a box under
 * its own matrix, coloured by material; each text display a label. Orbit, zoom and pan with
 * mouse or touch (OrbitControls); the camera starts fitted to the whole model. It draws on
 * demand, not in a loop: a still model costs nothing.
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
  LineBasicMaterial,
  LineSegments,
  Matrix4,
  Mesh,
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

/** A drawn model. */
export interface Preview {
  /** Moves every display to its matrix (in the order of the displays) and redraws. */
  setMatrices(matrices: readonly Matrix[]): void
  /** The canvas, for tests and screenshots. */
  canvas: HTMLCanvasElement
  dispose(): void
}

const BACKGROUND = 0xeef1f5
const FIELD_OF_VIEW_DEGREES = 40

/**
 * Draws `displays` into `host`. Returns why not, in words, when this browser has no WebGL: the
 * caller says so instead of leaving a blank canvas.
 */
export function createPreview(host: HTMLElement, displays: readonly Display[]): Preview | string {
  let renderer: WebGLRenderer
  try {
    // preserveDrawingBuffer: the picture stays readable after it is shown (screenshots, tests).
    renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true })
  } catch {
    return 'This browser cannot draw the model: WebGL is not available.'
  }
  const canvas = renderer.domElement
  canvas.dataset['testid'] = 'model-preview'
  canvas.setAttribute('role', 'img')
  canvas.setAttribute('aria-label', `3D preview of ${displays.length} displays`)
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2))
  const labels = new CSS2DRenderer()
  labels.domElement.className = 'preview-labels'
  host.replaceChildren(canvas, labels.domElement)

  const scene = new Scene()
  scene.background = new Color(BACKGROUND)
  scene.add(new HemisphereLight(0xffffff, 0x8d8d8d, 1.6), new AmbientLight(0xffffff, 0.4))
  const sun = new DirectionalLight(0xffffff, 1.6)
  sun.position.set(3, 10, 6)
  scene.add(sun)

  const nodes = displays.map((display) => nodeOf(display))
  const model = new Group()
  model.add(...nodes)
  scene.add(model)
  const start = displays.map((d) => d.matrix)
  place(nodes, start)

  const camera = new PerspectiveCamera(FIELD_OF_VIEW_DEGREES, 1, 0.01, 1000)
  const controls = new OrbitControls(camera, canvas)
  fitCamera(camera, controls, model, nodes)

  let pending = 0
  const draw = () => {
    pending = 0
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
    const width = Math.max(host.clientWidth, 1)
    const height = Math.max(host.clientHeight, 1)
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
    setMatrices(matrices) {
      place(nodes, matrices)
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

/** The object drawn for one display: a box with dark edges, or a label. */
function nodeOf(display: Display): Object3D {
  const node = new Object3D()
  node.matrixAutoUpdate = false
  if (display.kind === 'text') {
    const label = document.createElement('div')
    label.className = 'preview-label'
    label.textContent = display.text === '' ? '(empty text)' : display.text
    if (display.textColor !== null) label.style.color = display.textColor
    node.add(new CSS2DObject(label))
    return node
  }
  const shape = geometryOf(boxOf(display))
  const look = materialOf(colorOf(display.name))
  node.add(new Mesh(shape.box, look.face), new LineSegments(shape.edges, look.edge))
  return node
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

function place(nodes: Object3D[], matrices: readonly Matrix[]): void {
  for (const [i, node] of nodes.entries()) {
    const m = matrices[i]
    if (m === undefined) continue
    // Matrix4.set takes its arguments row by row, as Minecraft writes them.
    node.matrix.set(...(m as Parameters<Matrix4['set']>))
    node.matrixWorldNeedsUpdate = true
  }
}

/** Points the camera at the model from above and in front, far enough to see all of it. */
function fitCamera(
  camera: PerspectiveCamera,
  controls: OrbitControls,
  model: Group,
  nodes: Object3D[],
): void {
  model.updateMatrixWorld(true)
  const bounds = new Box3()
  for (const node of nodes) {
    if (node.children[0] instanceof CSS2DObject)
      bounds.expandByPoint(node.localToWorld(new Vector3()))
    else bounds.expandByObject(node)
  }
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
