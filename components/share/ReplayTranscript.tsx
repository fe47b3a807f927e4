"use client";
import { textOf, toolCallsOf, type AgentMessage, type ToolResultPart } from "@/lib/agent";
import { Markdown } from "@/components/agent/Markdown";
import { ToolRow } from "@/components/agent/ToolRow";

/** A shared conversation, read-only; messages after the point shown on the timeline are dimmed. */
export function ReplayTranscript(props: { messages: AgentMessage[]; dimFrom?: number; onOpenFile: (path: string) => void }) {
  const results = new Map<string, ToolResultPart>();
  for (const m of props.messages) if (m.role === "tool") for (const r of m.content) results.set(r.toolCallId, r);
  return (
    <div className="transcript" role="log" aria-label="Shared transcript">
      {props.messages.map((m, i) => {
        const dim = props.dimFrom !== undefined && i >= props.dimFrom ? " after-point" : "";
        if (m.role === "user")
          return (
            <div key={m.id} className={`msg user ${m.kind ?? "prompt"}${dim}`}>
              {m.kind === "summary" ? <Markdown text={textOf(m)} /> : textOf(m)}
            </div>
          );
        if (m.role === "assistant")
          return (
            <div key={m.id} className={`msg assistant${dim}`}>
              {textOf(m) && <Markdown text={textOf(m)} />}
              {toolCallsOf(m).map((c) => (
                <ToolRow key={c.toolCallId} call={c} result={results.get(c.toolCallId)} onOpenFile={props.onOpenFile} />
              ))}
            </div>
          );
        return null;
      })}
    </div>
  );
}
