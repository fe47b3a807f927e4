"use client";
import { useEffect, useState } from "react";
import { listBranches } from "@/lib/git";
import { Dialog } from "@/components/common/Dialog";
import { NameForm } from "@/components/common/NameForm";
import { checkoutBranch, createAndCheckoutBranch } from "./branch-actions";
import type { WorkspaceState } from "./useWorkspace";

/** The current branch, with switch and create. Switching refuses to overwrite uncommitted work. */
export function BranchPicker(props: { ws: WorkspaceState; readOnly: boolean; onError: (e: unknown) => void; onDone?: () => void }) {
  const [branches, setBranches] = useState<string[]>([]);
  const [naming, setNaming] = useState(false);
  const { branch } = props.ws;

  useEffect(() => {
    listBranches({ fs: props.ws.wsfs.fs, dir: props.ws.wsfs.dir })
      .then((b) => setBranches(b.map((x) => x.name)))
      .catch(() => setBranches([]));
  }, [props.ws.wsfs, branch]);

  if (!branch) return null;
  return (
    <>
      <select
        aria-label="Branch"
        value={branch}
        disabled={props.readOnly}
        onChange={async (e) => {
          const value = e.target.value;
          if (value === "__new") {
            setNaming(true);
            return;
          }
          try {
            await checkoutBranch(props.ws, value);
            props.onDone?.();
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
      {naming && (
        <Dialog title="New branch" onCancel={() => setNaming(false)} actions={null}>
          <p className="muted" style={{ marginTop: 0 }}>
            Created from the current commit of <strong>{branch}</strong>, then checked out. Your uncommitted changes stay as they are.
          </p>
          {/* A refused name (taken, invalid) keeps the form open with git's reason. */}
          <NameForm
            label="Branch name"
            placeholder="feature/my-change"
            submitLabel="Create branch"
            onCancel={() => setNaming(false)}
            onSubmit={async (raw) => {
              const name = raw.trim();
              if (!name) throw new Error("Give the branch a name.");
              await createAndCheckoutBranch(props.ws, name);
              setNaming(false);
              props.onDone?.();
            }}
          />
        </Dialog>
      )}
    </>
  );
}
