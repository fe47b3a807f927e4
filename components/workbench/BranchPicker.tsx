"use client";
import { useEffect, useState } from "react";
import { listBranches } from "@/lib/git";
import { checkoutBranch, createAndCheckoutBranch } from "./branch-actions";
import type { WorkspaceState } from "./useWorkspace";

/** The current branch, with switch and create. Switching refuses to overwrite uncommitted work. */
export function BranchPicker(props: { ws: WorkspaceState; readOnly: boolean; onError: (e: unknown) => void }) {
  const [branches, setBranches] = useState<string[]>([]);
  const { branch } = props.ws;

  useEffect(() => {
    listBranches({ fs: props.ws.wsfs.fs, dir: props.ws.wsfs.dir })
      .then((b) => setBranches(b.map((x) => x.name)))
      .catch(() => setBranches([]));
  }, [props.ws.wsfs, branch]);

  if (!branch) return null;
  return (
    <select
      aria-label="Branch"
      value={branch}
      disabled={props.readOnly}
      onChange={async (e) => {
        const value = e.target.value;
        try {
          if (value === "__new") {
            const name = prompt("New branch name (created from the current commit):")?.trim();
            if (!name) return;
            await createAndCheckoutBranch(props.ws, name);
          } else {
            await checkoutBranch(props.ws, value);
          }
        } catch (err) {
          props.onError(err);
        }
      }}
    >
      {branches.map((b) => (
        <option key={b} value={b}>
          ⎇ {b}
        </option>
      ))}
      <option value="__new">+ New branch…</option>
    </select>
  );
}
