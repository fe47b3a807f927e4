/**
 * Plan and Review modes: the workspace tree inside the interpreter refuses every change with
 * EROFS ("[Errno 69] Read-only file system" in Python), at the file-system level, so os.open,
 * open(…, "w"), shutil and pathlib all fail the same way a read-only mount does.
 *
 * Emscripten has no read-only mount flag; each node of the (just populated) tree gets node and
 * stream operations whose mutating entries throw. Opening a file for writing is refused in the
 * stream's `open`; creating goes through the parent's `mknod`, truncating through `setattr`.
 */
import type { EmFs, EmNode } from "./engine";

const MUTATING_NODE_OPS = ["mknod", "rename", "unlink", "rmdir", "symlink", "setattr"] as const;

export function makeReadOnly(fs: EmFs, root: string, erofs: number): void {
  const refuse = () => {
    throw new fs.ErrnoError(erofs);
  };
  const patch = (abs: string) => {
    const node = fs.lookupPath(abs).node as EmNode;
    const nodeOps: Record<string, unknown> = { ...node.node_ops };
    for (const op of MUTATING_NODE_OPS) if (op in nodeOps || op === "setattr") nodeOps[op] = refuse;
    node.node_ops = nodeOps;
    if (node.stream_ops) {
      const open = node.stream_ops.open as ((stream: { flags: number }) => void) | undefined;
      node.stream_ops = {
        ...node.stream_ops,
        // O_WRONLY or O_RDWR: refused at open, as a read-only mount does (not at the first flush).
        open: (stream: { flags: number }) => {
          if ((stream.flags & 3) !== 0) refuse();
          open?.(stream);
        },
        write: refuse,
        allocate: refuse,
      };
    }
    if (fs.isDir(node.mode)) {
      for (const name of fs.readdir(abs)) if (name !== "." && name !== "..") patch(`${abs}/${name}`);
    }
  };
  patch(root);
}
