import type { Env, Env as ServiceEnv } from '../src/config'

// An interface cannot extend an `import('...')` type (TS2499); skipLibCheck hid that error here.
declare global {
  namespace Cloudflare {
    interface Env extends ServiceEnv {
      /** The try-it page's static assets (wrangler.toml [assets]), as the asset server answers. */
      ASSETS: Fetcher
    }
    interface GlobalProps {
      mainModule: typeof import('../src/index')
    }
  }
}

export type { Env }
