/** lightning-fs's backend class, imported by path (the package exports only its FS class). */
declare module "@isomorphic-git/lightning-fs/src/DefaultBackend.js" {
  export default class DefaultBackend {
    init(name: string, options?: object): Promise<void>;
  }
}
