"use client";

/** A unified diff with added/removed lines coloured; the approval card shows it before anything is written. */
export function DiffPreview({ diff }: { diff: string }) {
  const lines = diff.split("\n");
  return (
    <pre className="diff-preview" aria-label="Proposed change">
      {lines.map((line, i) => (
        <div key={i} className={line.startsWith("+") && !line.startsWith("+++") ? "add" : line.startsWith("-") && !line.startsWith("---") ? "del" : line.startsWith("@@") ? "hunk" : undefined}>
          {line || " "}
        </div>
      ))}
    </pre>
  );
}
