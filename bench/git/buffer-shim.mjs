// isomorphic-git expects Node's Buffer as a global; the app gets Next's polyfill, the bench the same one.
export { Buffer } from "next/dist/compiled/buffer/index.js";
