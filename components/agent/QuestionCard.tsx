"use client";
import { useState } from "react";
import type { AgentEvent } from "@/lib/agent";

type QuestionEvent = Extract<AgentEvent, { type: "question-asked" }>;

/** ask_question: the run waits for an answer, one of the offered choices or typed. */
export function QuestionCard(props: { event: QuestionEvent; onAnswer: (text: string) => void }) {
  const [text, setText] = useState("");
  return (
    <div className="approval-card" role="group" aria-label="Question from the agent">
      <div className="approval-title">{props.event.question}</div>
      {props.event.choices && (
        <div className="row">
          {props.event.choices.map((c) => (
            <button key={c} onClick={() => props.onAnswer(c)}>
              {c}
            </button>
          ))}
        </div>
      )}
      <div className="row" style={{ marginTop: 6 }}>
        <input type="text" aria-label="Your answer" value={text} onChange={(e) => setText(e.target.value)} onKeyDown={(e) => e.key === "Enter" && text && props.onAnswer(text)} style={{ flex: 1 }} />
        <button className="primary" disabled={!text} onClick={() => props.onAnswer(text)}>
          Answer
        </button>
      </div>
    </div>
  );
}
