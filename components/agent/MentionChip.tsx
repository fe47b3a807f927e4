"use client";
import { describeContextItem, type ContextItem } from "@/lib/agent/mentions-context";

/**
 * One mentioned thing as a chip: its name and what is sent of it ("src/a.ts · 1.2 KB", "big.log ·
 * 32.0 KB of 2.0 MB"); the tooltip says where it came from and why it was cut or left out.
 * Red when nothing of it could be included.
 */
export function MentionChip(props: { label: string; item?: ContextItem; onRemove?: () => void }) {
  const { item } = props;
  const d = item ? describeContextItem(item) : { text: props.label, title: "Reading…" };
  const cls = `mention-chip${item?.error ? " error" : ""}${item?.truncated ? " truncated" : ""}`;
  return (
    <li className={cls} title={d.title} data-testid="mention-chip">
      <span className="mention-chip-text">@{d.text}</span>
      {item?.truncated && !item.error && <span className="mention-chip-flag" aria-label="cut to the size cap">✂</span>}
      {props.onRemove && (
        <button type="button" className="link" aria-label={`Remove @${props.label}`} onClick={props.onRemove}>
          ×
        </button>
      )}
    </li>
  );
}
