"use client";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { insertMention, mentionKey, mentionQueryAt, parseMentions, rankMentionCandidates, removeMention, type MentionCandidate, type MentionRef, type SymbolEntry } from "@/lib/agent/mentions";
import { applyTotalCap, DEFAULT_MENTION_CAPS, type ContextItem } from "@/lib/agent/mentions-context";
import { MentionChip } from "./MentionChip";
import { ImageThumb } from "./ImageThumb";
import { ImageError, MAX_IMAGES_PER_MESSAGE, imageFromBytes, type ImageAttachment } from "@/lib/agent/images";

/** What the prompt box needs to offer @-mentions: the workspace's files and folders, and a preview of one. */
export type MentionSupport = {
  entries: readonly { path: string; kind: "file" | "folder" }[];
  /** The item as it would be sent now (the chip shows its size and any cut). */
  preview: (ref: MentionRef) => Promise<ContextItem>;
  /** The workspace's declarations (the TypeScript service's), for `@#`: read when the popup asks. */
  symbols?: () => Promise<SymbolEntry[]>;
};

/**
 * The prompt box: Enter sends, Shift+Enter adds a line, ↑/↓ on an empty box walk the prompts
 * already sent, "/" lists the slash commands, "@" opens the mention popup (↑/↓ choose,
 * Enter/Tab pick, Esc closes). The mentions in the text show as chips above it, each with what
 * of it will be sent; the session reads them again when the prompt is sent. While a run is
 * going, Stop replaces Send, and Enter (or Queue) puts the message in line for after the run.
 * Images (screenshots) come in by paste, drop or the Image button; they show as thumbnails and go
 * with the next message sent (not with a queued one).
 */
export function Composer(props: {
  running: boolean;
  disabled?: boolean;
  history: string[];
  commands: { name: string; description?: string }[];
  onSend: (text: string, images?: ImageAttachment[]) => void;
  /** While a run is going: keep the message for after it. */
  onQueue?: (text: string) => void;
  onStop: () => void;
  /** Shift+Tab in the prompt box switches between Plan and Act. */
  onToggleMode?: () => void;
  /** The mode switch, shown beside Send. */
  modeSwitch?: React.ReactNode;
  /** Text to put in the box (a restored turn's prompt); a new nonce puts it again. With `append`,
   * text already in the box stays and the draft goes after it. */
  draft?: { text: string; nonce: number; append?: boolean };
  mentions?: MentionSupport;
}) {
  const [text, setText] = useState("");
  const [index, setIndex] = useState<number>(-1);
  const [caret, setCaret] = useState(0);
  const [picked, setPicked] = useState(0);
  /** The `@` whose popup the user closed with Esc (it stays closed until another `@`). */
  const [dismissedAt, setDismissedAt] = useState<number>();
  const [previews, setPreviews] = useState<Map<string, ContextItem>>(new Map());
  const [images, setImages] = useState<ImageAttachment[]>([]);
  const [imageError, setImageError] = useState<string>();
  const fileInput = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);

  const addImages = async (files: readonly File[]) => {
    const errors: string[] = [];
    const added: ImageAttachment[] = [];
    for (const f of files) {
      try {
        added.push(imageFromBytes(new Uint8Array(await f.arrayBuffer()), f.name || undefined));
      } catch (e) {
        errors.push(e instanceof ImageError ? e.message : `${f.name}: ${(e as Error).message}`);
      }
    }
    const kept = added.slice(0, Math.max(0, MAX_IMAGES_PER_MESSAGE - images.length));
    if (kept.length < added.length) errors.push(`A message can carry at most ${MAX_IMAGES_PER_MESSAGE} images; ${added.length - kept.length} left out.`);
    setImages((cur) => [...cur, ...kept].slice(0, MAX_IMAGES_PER_MESSAGE));
    setImageError(errors.length ? errors.join(" ") : undefined);
  };
  const pendingCaret = useRef<number | undefined>(undefined);

  useEffect(() => {
    const d = props.draft;
    if (d) setText((cur) => (d.append && cur.trim() ? `${cur.replace(/\s+$/, "")}\n${d.text}` : d.text));
  }, [props.draft]);

  // Put the caret after a picked mention once React has written the new text.
  useLayoutEffect(() => {
    const at = pendingCaret.current;
    if (at === undefined || !box.current) return;
    pendingCaret.current = undefined;
    box.current.setSelectionRange(at, at);
    setCaret(at);
  }, [text]);

  const entries = props.mentions?.entries;
  const kinds = useMemo(() => new Map((entries ?? []).map((e) => [e.path, e.kind])), [entries]);
  const spans = useMemo(() => (entries ? parseMentions(text, (p) => kinds.get(p)) : []), [text, kinds, entries]);

  // Each chip's preview, read once per mentioned thing (the session reads it again on send).
  const preview = props.mentions?.preview;
  const keys = spans.map((s) => mentionKey(s.ref)).join("\n");
  useEffect(() => {
    if (!preview) return;
    let cancelled = false;
    for (const s of spans) {
      const key = mentionKey(s.ref);
      if (previews.has(key)) continue;
      void preview(s.ref).then((item) => {
        if (!cancelled) setPreviews((m) => new Map(m).set(key, item));
      });
    }
    return () => {
      cancelled = true;
    };
  }, [keys, preview]); // eslint-disable-line react-hooks/exhaustive-deps

  // Once every chip is read, show them as the message will carry them: within the cap of all mentions together.
  const read = spans.map((s) => previews.get(mentionKey(s.ref)));
  const shown = read.every((i) => i !== undefined) ? applyTotalCap(read as ContextItem[], DEFAULT_MENTION_CAPS.totalBytes) : read;

  const query = entries && !props.disabled ? mentionQueryAt(text, caret) : undefined;
  // Symbols are read when `@#` is typed, once per popup (the service may still be starting).
  const [symbols, setSymbols] = useState<SymbolEntry[]>();
  const wantsSymbols = !!query?.query.startsWith("#");
  const loadSymbols = props.mentions?.symbols;
  useEffect(() => {
    if (!wantsSymbols) return setSymbols(undefined);
    if (!loadSymbols) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Right after the workspace opens the service may know no file yet: ask again a few times.
    const load = (triesLeft: number) =>
      loadSymbols()
        .catch(() => [] as SymbolEntry[])
        .then((list) => {
          if (cancelled) return;
          setSymbols(list);
          if (list.length === 0 && triesLeft > 0) timer = setTimeout(() => load(triesLeft - 1), 800);
        });
    void load(6);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [wantsSymbols, loadSymbols, query?.start]);
  const candidates: MentionCandidate[] = query && query.start !== dismissedAt ? rankMentionCandidates(query.query, entries!, 12, symbols) : [];
  const popupOpen = candidates.length > 0;
  const active = Math.min(picked, Math.max(0, candidates.length - 1));

  const send = () => {
    const t = text.trim();
    if ((!t && images.length === 0) || props.disabled) return;
    if (props.running) {
      if (!props.onQueue || !t) return;
      if (images.length) {
        setImageError("Images go with a message sent once the run has ended: send it then, or remove them to queue the text.");
        return;
      }
      props.onQueue(t);
    } else {
      props.onSend(t, images.length ? images : undefined);
      setImages([]);
      setImageError(undefined);
    }
    setText("");
    setIndex(-1);
    setPreviews(new Map());
    setDismissedAt(undefined);
  };

  const pick = (c: MentionCandidate) => {
    if (!query) return;
    const out = insertMention(text, query.start, caret, c.ref);
    pendingCaret.current = out.caret;
    setText(out.text);
    setPicked(0);
    box.current?.focus();
  };

  const slash = !popupOpen && text.startsWith("/") && !text.includes(" ") ? props.commands.filter((c) => ("/" + c.name).startsWith(text)) : [];

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
      {popupOpen && (
        <ul className="mention-list" role="listbox" id="mention-list" aria-label="Mentions">
          {candidates.map((c, i) => (
            <li
              key={mentionKey(c.ref)}
              id={`mention-option-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseEnter={() => setPicked(i)}
              onMouseDown={(e) => {
                e.preventDefault(); // keep the focus (and the caret) in the box
                pick(c);
              }}
            >
              <code>@{highlight(c.label, c.positions)}</code>
              {c.description && <span className="muted">{c.description}</span>}
            </li>
          ))}
        </ul>
      )}
      {spans.length > 0 && (
        <ul className="mention-chips" aria-label="Mentioned context">
          {spans.map((s, i) => {
            const label = s.ref.kind === "file" ? s.ref.path : s.ref.kind === "folder" ? `${s.ref.path}/` : s.ref.kind === "symbol" ? `#${s.ref.name}` : s.ref.kind;
            return <MentionChip key={mentionKey(s.ref)} label={label} item={shown[i]} onRemove={() => setText(removeMention(text, s))} />;
          })}
        </ul>
      )}
      {images.length > 0 && (
        <ul className="composer-images" aria-label="Attached images">
          {images.map((img, i) => (
            <li key={i}>
              <ImageThumb img={img} alt={img.name ?? `Image ${i + 1}`} />
              <span className="muted">{img.bytes < 1024 * 1024 ? `${Math.ceil(img.bytes / 1024)} KB` : `${(img.bytes / 1024 / 1024).toFixed(1)} MB`}</span>
              <button className="link" aria-label={`Remove image ${i + 1}`} onClick={() => setImages(images.filter((_, k) => k !== i))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {imageError && (
        <div className="error" role="alert" data-testid="image-error">
          {imageError}
        </div>
      )}
      <textarea
        ref={box}
        onPaste={(e) => {
          const files = [...e.clipboardData.files].filter((f) => f.type.startsWith("image/"));
          if (files.length) void addImages(files);
        }}
        onDragOver={(e) => {
          if (e.dataTransfer.types.includes("Files")) e.preventDefault();
        }}
        onDrop={(e) => {
          const files = [...e.dataTransfer.files];
          if (!files.length) return;
          e.preventDefault();
          void addImages(files);
        }}
        aria-label="Message the agent"
        placeholder={
          props.running && props.onQueue
            ? "Write the next message: Enter queues it for when this run ends"
            : "Ask the agent… (Enter to send, Shift+Enter for a new line, / for commands, @ to mention a file)"
        }
        rows={3}
        value={text}
        disabled={props.disabled}
        aria-autocomplete="list"
        aria-controls={popupOpen ? "mention-list" : undefined}
        aria-activedescendant={popupOpen ? `mention-option-${active}` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setCaret(e.target.selectionStart ?? e.target.value.length);
          setIndex(-1);
          setPicked(0);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart ?? 0)}
        onKeyDown={(e) => {
          if (popupOpen && !e.nativeEvent.isComposing) {
            if (e.key === "ArrowDown" || e.key === "ArrowUp") {
              e.preventDefault();
              const step = e.key === "ArrowDown" ? 1 : -1;
              setPicked((active + step + candidates.length) % candidates.length);
              return;
            }
            if ((e.key === "Enter" && !e.shiftKey) || (e.key === "Tab" && !e.shiftKey)) {
              e.preventDefault();
              pick(candidates[active]!);
              return;
            }
            if (e.key === "Escape") {
              e.preventDefault();
              setDismissedAt(query!.start);
              return;
            }
          }
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
        <input
          ref={fileInput}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          multiple
          hidden
          aria-label="Attach images"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = "";
            if (files.length) void addImages(files);
          }}
        />
        <button onClick={() => fileInput.current?.click()} disabled={props.disabled} title="Attach images (or paste / drop them into the prompt box)">
          Image
        </button>
        {props.running ? (
          <>
            {props.onQueue && text.trim() && (
              <button onClick={send} disabled={props.disabled} title="Send this message when the run ends">
                Queue
              </button>
            )}
            <button className="danger" onClick={props.onStop}>
              Stop
            </button>
          </>
        ) : (
          <button className="primary" onClick={send} disabled={(!text.trim() && images.length === 0) || props.disabled}>
            Send
          </button>
        )}
      </div>
    </div>
  );
}

/** The label with the matched characters marked. */
function highlight(label: string, positions: readonly number[]) {
  if (positions.length === 0) return label;
  const marked = new Set(positions);
  const out: React.ReactNode[] = [];
  let run = "";
  let inMark = false;
  const flush = (i: number) => {
    if (run) out.push(inMark ? <mark key={i}>{run}</mark> : run);
    run = "";
  };
  for (let i = 0; i < label.length; i++) {
    const m = marked.has(i);
    if (m !== inMark) {
      flush(i);
      inMark = m;
    }
    run += label[i];
  }
  flush(label.length);
  return out;
}
