// Vite's `?raw` suffix imports a file's text (used for fixtures/).
declare module '*?raw' {
  const text: string
  export default text
}
