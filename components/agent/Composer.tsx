"use client";
import { useEffect, useState } from "react";

/**
 * The prompt box: Enter sends, Shift+Enter adds a line, ↑/↓ on an empty box walk the prompts
 * already sent, "/" lists the slash commands. While a run is going, Stop replaces Send.
 */
export function Composer(props: {
  running: boolean;
  disabled?: boolean;
  history: string[];
  commands: { name: string; description?: string }[];
  onSend: (text: string) => void;
  onStop: () => void;
  /** Shift+Tab in the prompt box switches between Plan and Act. */
  onToggleMode?: () => void;
  /** The mode switch, shown beside Send. */
  modeSwitch?: React.ReactNode;
  /** Text to put in the box (a restored turn's prompt); a new nonce puts it again. */
  draft?: { text: string; nonce: number };
}) {
  const [text, setText] = useState("");
  const [index, setIndex] = useState<number>(-1);
  useEffect(() => {
    if (props.draft) setText(props.draft.text);
  }, [props.draft]);

  const send = () => {
    const t = text.trim();
    if (!t || props.running || props.disabled) return;
    props.onSend(t);
    setText("");
    setIndex(-1);
  };

  const slash = text.startsWith("/") && !text.includes(" ") ? props.commands.filter((c) => ("/" + c.name).startsWith(text)) : [];

  return (
    <div className="composer">
      {slash.length > 0 && (
        <ul className="slash-list" role="listbox" aria-label="Slash commands">
          {slash.map((c) => (
            <li key={c.name} role="option" aria-selected={false} onMouseDown={(e) => (e.preventDefault(), setText(`/${c.name} `))}>
              <code>/{c.name}</code> <span className="muted">{c.description}</span>
            </li>
          ))}
        </ul>
      )}
      <textarea
        aria-label="Message the agent"
        placeholder="Ask the agent… (Enter to send, Shift+Enter for a new line, / for commands)"
        rows={3}
        value={text}
        disabled={props.disabled}
        onChange={(e) => {
          setText(e.target.value);
          setIndex(-1);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            send();
          } else if (e.key === "ArrowUp" && (text === "" || index >= 0) && props.history.length) {
            e.preventDefault();
            const next = Math.min(props.history.length - 1, index + 1);
            setIndex(next);
            setText(props.history[props.history.length - 1 - next]);
          } else if (e.key === "ArrowDown" && index >= 0) {
            e.preventDefault();
            const next = index - 1;
            setIndex(next);
            setText(next < 0 ? "" : props.history[props.history.length - 1 - next]);
          } else if (e.key === "Tab" && e.shiftKey && props.onToggleMode) {
            e.preventDefault();
            props.onToggleMode();
          } else if (e.key === "Escape" && props.running) {
            props.onStop();
          }
        }}
      />
      <div className="row composer-actions">
        {props.modeSwitch}
        <span style={{ flex: 1 }} />
        {props.running ? (
          <button className="danger" onClick={props.onStop}>
            Stop
          </button>
        ) : (
          <button className="primary" onClick={send} disabled={!text.trim() || props.disabled}>
            Send
          </button>
        )}
      </div>
    </div>
  );
}
