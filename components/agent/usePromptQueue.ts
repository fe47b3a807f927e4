"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import type { AgentSession } from "@/lib/agent";
import { dequeue, emptyQueue, enqueue, onRunEnded, resume, type PromptQueueState } from "@/lib/agent/prompt-queue";

/**
 * Messages typed while the agent runs (lib/agent/prompt-queue): queued in the panel, the next
 * one sent when a run completes; a stopped or failed run pauses them until the user says.
 * They live in this tab only, like a draft in the prompt box.
 */
export function usePromptQueue(session: AgentSession | undefined, running: boolean, send: (text: string) => void) {
  const [queue, setQueueState] = useState<PromptQueueState>(emptyQueue);
  const [error, setError] = useState<string>();
  // The latest state at once, so two quick actions before a render both count.
  const current = useRef(queue);
  const setQueue = useCallback((next: PromptQueueState) => {
    current.current = next;
    setQueueState(next);
  }, []);
  const sendRef = useRef(send);
  sendRef.current = send;

  useEffect(() => {
    setQueue(emptyQueue);
    setError(undefined);
  }, [session?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  // A run just ended: its record says how.
  const wasRunning = useRef(running);
  useEffect(() => {
    const ended = wasRunning.current && !running;
    wasRunning.current = running;
    if (!ended || !session) return;
    const last = session.state.runs.at(-1);
    if (!last) return;
    const step = onRunEnded(current.current, last.status, last.reason);
    setQueue(step.state);
    if (step.send !== undefined) sendRef.current(step.send);
  }, [running, session, setQueue]);

  const add = useCallback((text: string) => {
    try {
      setQueue(enqueue(current.current, text));
      setError(undefined);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [setQueue]);

  /** Take message `id` out of the queue (dropped, or back into the prompt box): its text. */
  const take = useCallback((id: number) => {
    const text = current.current.items.find((q) => q.id === id)?.text;
    setQueue(dequeue(current.current, id));
    return text;
  }, [setQueue]);

  const sendNext = useCallback(() => {
    const step = resume(current.current);
    setQueue(step.state);
    if (step.send !== undefined) sendRef.current(step.send);
  }, [setQueue]);

  return { items: queue.items, paused: queue.paused, error, add, take, sendNext };
}

export type PromptQueueController = ReturnType<typeof usePromptQueue>;
