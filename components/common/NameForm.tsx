"use client";
import { useState } from "react";

/**
 * A one-line name editor: Enter (or the submit button) saves, Escape or Cancel gives up. A
 * failing save keeps the form open with the reason.
 */
export function NameForm(props: { label: string; initial?: string; placeholder?: string; submitLabel: string; onSubmit: (name: string) => Promise<unknown>; onCancel: () => void }) {
  const [value, setValue] = useState(props.initial ?? "");
  const [error, setError] = useState<string>();
  return (
    <>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          setError(undefined);
          props.onSubmit(value).catch((err: Error) => setError(err.message));
        }}
      >
        <input autoFocus aria-label={props.label} placeholder={props.placeholder} value={value} onChange={(e) => setValue(e.target.value)} onKeyDown={(e) => e.key === "Escape" && props.onCancel()} />
        <button className="primary" type="submit">
          {props.submitLabel}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </form>
      {error && (
        <div className="error" role="alert">
          {error}
        </div>
      )}
    </>
  );
}
