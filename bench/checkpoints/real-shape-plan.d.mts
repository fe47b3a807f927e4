// Types for the e2e tests that generate the same repository shape as the benchmark.
export type ShapeFile = { path: string; data: string };
export function realShape(opts?: { files?: number; dirs?: number; maxDepth?: number; ignores?: number; seed?: number }): {
  files: ShapeFile[];
  ignored: ShapeFile[];
  dirCount: number;
  maxDepth: number;
};
