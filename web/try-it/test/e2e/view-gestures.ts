/**
 * How a person moves the try-it page's model preview, for the page's browser tests and the
 * bench's `page` section (scripts/bench/page/), which both time the page while it is used.
 */
import type { Page } from 'playwright-core'

/** A drag across the preview's canvas (turning the view), then a second for it to settle. */
export async function turnTheView(page: Page): Promise<void> {
  const box = await page.getByTestId('model-preview').boundingBox()
  if (box === null) throw new Error('the model preview is not shown')
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  for (let step = 1; step <= 10; step++) {
    await page.mouse.move(box.x + box.width / 2 + step * 20, box.y + box.height / 2 + step * 5)
  }
  await page.mouse.up()
  await page.waitForTimeout(1_000)
}
