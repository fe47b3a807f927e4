"use client";
import type { PromptQueueController } from "./usePromptQueue";

/** The messages waiting for the run to end, each with Edit (back into the prompt box) and drop. */
export function QueuedPrompts(props: { queue: PromptQueueController; running: boolean; onEdit: (text: string) => void }) {
  const { queue } = props;
  if (queue.items.length === 0 && !queue.error) return null;
  return (
    <section className="queued-prompts" aria-label="Queued messages">
      {queue.paused && queue.items.length > 0 && (
        <div className="row" data-testid="queue-paused">
          <span className="muted">{queue.paused}: the queued messages wait.</span>
          {!props.running && (
            <button className="link" onClick={queue.sendNext}>
              Send next
            </button>
          )}
        </div>
      )}
      {queue.error && (
        <div className="error" role="alert">
          {queue.error}
        </div>
      )}
      <ol>
        {queue.items.map((q, i) => (
          <li key={q.id} data-testid="queued-prompt">
            <span className="muted">{i === 0 && !queue.paused ? "Next:" : "Queued:"}</span>
            <span className="queued-text" title={q.text}>
              {q.text}
            </span>
            <button
              className="link"
              aria-label={`Edit queued message ${i + 1}`}
              onClick={() => {
                const text = queue.take(q.id);
                if (text !== undefined) props.onEdit(text);
              }}
            >
              Edit
            </button>
            <button className="link" aria-label={`Drop queued message ${i + 1}`} onClick={() => queue.take(q.id)}>
              ×
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
