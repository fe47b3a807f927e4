"use client";
import { useEffect } from "react";

/**
 * A file dropped where nothing takes it (the editor, a toolbar) would make the browser open it
 * in place of the app. Files are taken by the tree, the prompt box and the start page's import;
 * anywhere else the drop is refused here, after every handler on the way had its chance.
 */
export function DropGuard() {
  useEffect(() => {
    const refuse = (e: DragEvent) => {
      if (e.defaultPrevented || !e.dataTransfer?.types.includes("Files")) return;
      e.preventDefault();
      if (e.type === "dragover") e.dataTransfer.dropEffect = "none";
    };
    window.addEventListener("dragover", refuse);
    window.addEventListener("drop", refuse);
    return () => {
      window.removeEventListener("dragover", refuse);
      window.removeEventListener("drop", refuse);
    };
  }, []);
  return null;
}
