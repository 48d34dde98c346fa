/**
 * GET /: the try-it page. Its script and style are inline and allowed by hash, so the
 * Content-Security-Policy can refuse everything else: no other script, style, image, frame
 * or form target, and no connection but to this origin. The script is the typed client and
 * the page code of ./browser, bundled by scripts/build-try-it.mjs.
 */
import type { Context } from 'hono'
import {
  PAGE_SCRIPT,
  PAGE_SCRIPT_SHA256,
  PAGE_STYLE,
  PAGE_STYLE_SHA256,
} from './page-assets.generated'

/** The page's Content-Security-Policy. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src 'sha256-${PAGE_SCRIPT_SHA256}'`,
  `style-src 'sha256-${PAGE_STYLE_SHA256}'`,
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Published export: try it</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header>
<h1>Published export: try it</h1>
<p>Fetches <code>GET /server-api?id=…&amp;tag=…</code> with the typed client. Exports live 10 minutes after publication. <a href="/openapi.json">OpenAPI document</a></p>
</header>
<main>
<form id="lookup" novalidate>
<label>Publication ID <input id="id" name="id" inputmode="numeric" autocomplete="off" maxlength="6" placeholder="123456" required></label>
<label>Tag <input id="tag" name="tag" autocomplete="off" placeholder="model"></label>
<button id="fetch" type="submit">Fetch export</button>
</form>
<p id="status" role="status" aria-live="polite"></p>
<dl id="facts" hidden>
<dt>Expires in</dt><dd id="expires"></dd>
<dt>Rate limit</dt><dd id="rate-limit"></dd>
</dl>
<section id="tree" aria-label="Export content"></section>
</main>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`

/** GET /: the page, with its restrictive Content-Security-Policy. */
export function serveTryIt(c: Context): Response {
  return c.html(PAGE, 200, {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'Cache-Control': 'public, max-age=300',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  })
}
