/**
 * Opening what a share link holds: the package's bytes → a replay repository with the session's
 * checkpoints. A link is copied by hand, so it is often cut short or altered; whatever layer notices
 * (base64, zip, bundle header, pack inflation inside isomorphic-git, the session commit), the person who
 * opened it learns one thing in their terms: the link is damaged or incomplete. The technical reason
 * stays on the error's `cause` for debugging.
 */
import type { Workspace } from "../checkpoints/engine";
import { fromBase64Url } from "./links";
import { parseSharePackage, type SharePackage } from "./package";
import { importSessionBundle, type SessionImport } from "./session-bundle";

type Engine = typeof import("../checkpoints/index");

export class DamagedLinkError extends Error {
  constructor(source: "fragment" | "server", cause: unknown) {
    super(
      source === "fragment"
        ? "This link is damaged or incomplete: part of it is missing or was changed (links are often cut short when copied). Ask for the link again, or copy all of it."
        : "This shared session could not be read: what the server holds for this link is damaged or incomplete.",
      { cause },
    );
    this.name = "DamagedLinkError";
  }
}

export type OpenedShare = { pkg: SharePackage; imported: SessionImport };

/** `fragment` is the part after `#` of a `/s#…` link; `bytes` a package fetched for `/s/<id>`. */
export async function openSharedPackage(
  input: { fragment: string } | { bytes: Uint8Array },
  engine: Engine,
  ws: Workspace,
): Promise<OpenedShare> {
  const source = "fragment" in input ? "fragment" : "server";
  try {
    const bytes = "fragment" in input ? fromBase64Url(input.fragment) : input.bytes;
    const pkg = parseSharePackage(bytes);
    const imported = await importSessionBundle(engine, ws, pkg.bundleBytes);
    await engine.listCheckpoints(ws, { sessionId: (imported.session ?? pkg.envelope.session).id });
    return { pkg, imported };
  } catch (error) {
    throw new DamagedLinkError(source, error);
  }
}
