/** lightning-fs's backend class, imported by path (the package exports only its FS class). */
declare module "@isomorphic-git/lightning-fs/src/DefaultBackend.js" {
  export default class DefaultBackend {
    init(name: string, options?: object): Promise<void>;
    writeFile(path: string, data: Uint8Array | string, options: { mode?: number; encoding?: string }): Promise<void>;
  }
}

/** lightning-fs's stat class (what its lstat returns), imported by path. */
declare module "@isomorphic-git/lightning-fs/src/Stat.js" {
  export default class Stat {
    constructor(stats: object);
    type: string;
    mode: number;
    size: number;
    ino: number;
    mtimeMs: number;
    isFile(): boolean;
    isDirectory(): boolean;
    isSymbolicLink(): boolean;
  }
}
