// Vite's `?raw` suffix imports a file's text (used for fixtures/).
declare module '*?raw' {
  const text: string
  export default text
}

// Vite's `import.meta.glob` (used for test/vectors/): every file a pattern matches, at build time.
interface ImportMeta {
  glob<T>(
    pattern: string,
    options: { query: '?raw'; import: 'default'; eager: true },
  ): Record<string, T>
}
