import { createBranch, switchBranch } from "@/lib/git";
import type { WorkspaceState } from "./useWorkspace";

/** After HEAD moves: write through, re-read the tree and status, and reload the open tabs from disk. */
async function afterCheckout(ws: WorkspaceState): Promise<void> {
  await ws.wsfs.flush();
  await ws.refresh();
  await ws.docs.refresh("all");
}

/** Switch to `name`; refuses (with git's message) to overwrite uncommitted work. */
export async function checkoutBranch(ws: WorkspaceState, name: string): Promise<void> {
  await switchBranch({ fs: ws.wsfs.fs, dir: ws.wsfs.dir }, name);
  await afterCheckout(ws);
}

/** Create `name` at the current commit and switch to it. */
export async function createAndCheckoutBranch(ws: WorkspaceState, name: string): Promise<void> {
  await createBranch({ fs: ws.wsfs.fs, dir: ws.wsfs.dir }, name, { checkout: true });
  await afterCheckout(ws);
}
