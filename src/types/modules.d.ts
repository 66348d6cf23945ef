// Binary files bundled as Data modules (wrangler.toml [[rules]]): their default export is the bytes.
declare module '*.ttf' {
  const bytes: ArrayBuffer;
  export default bytes;
}
