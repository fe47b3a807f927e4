import { modifiedContent } from "../checkpoints/gen.mjs";

/** Four groups of 5 text files, changed one group per tick (deterministic, same for engine and git). */
export function changedFiles(textPaths) {
  const groups = [];
  for (let g = 0; g < 4; g++) {
    const files = [];
    for (let j = 0; j < 5; j++) {
      const idx = ((g * 5 + j) * 37) % textPaths.length;
      files.push({ path: textPaths[idx], data: modifiedContent(g, idx) });
    }
    groups.push(files);
  }
  return groups;
}
