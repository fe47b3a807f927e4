/** isomorphic-git facade: every function takes a GitRepo ({ fs, dir, cache?, journal? }) first. */
export * from "./types";
export * from "./repo";
export * from "./ignore";
export * from "./status";
export * from "./diff";
export * from "./commit";
export * from "./branches";
export * from "./remote-config";
export * from "./remote-ahead-behind";
export * from "./remote-transfer";
export * from "./credentials";
