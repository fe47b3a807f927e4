"use client";
import { useEffect, useRef } from "react";
import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";

/**
 * A fenced code block, highlighted by Monaco's own tokenizer (the editor's grammars and theme).
 * Monaco is imported only when a block names a language it knows; until then, plain text.
 * colorize() escapes the code itself, so the HTML it returns is safe to insert.
 */
function HighlightedCode({ code, lang }: { code: string; lang: string }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    let live = true;
    void import("@/components/editor/monaco-setup").then(async ({ monaco, monacoTheme }) => {
      const wanted = lang.toLowerCase();
      const language = monaco.languages
        .getLanguages()
        .find((l) => l.id === wanted || l.aliases?.some((a) => a.toLowerCase() === wanted) || l.extensions?.includes("." + wanted));
      if (!language) return;
      monaco.editor.setTheme(monacoTheme()); // injects the token colours
      const html = await monaco.editor.colorize(code, language.id, { tabSize: 2 });
      if (live && ref.current) ref.current.innerHTML = html;
    });
    return () => {
      live = false;
    };
  }, [code, lang]);
  return (
    <code ref={ref} className={`language-${lang}`} data-highlight={lang}>
      {code}
    </code>
  );
}

/**
 * Model text as markdown, safely: react-markdown never renders raw HTML, and links only open
 * http(s) in a new tab (no javascript: URLs). Fenced code blocks are highlighted. GitHub's
 * extensions (tables, task lists, strikethrough, autolinks) are on: models write them.
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        skipHtml
        remarkPlugins={[remarkGfm]}
        urlTransform={(url) => (/^(https?:|mailto:|#)/i.test(url) ? url : "")}
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noreferrer noopener">
              {children}
            </a>
          ),
          // A wide table scrolls inside the message instead of widening the panel.
          table: ({ children }) => (
            <div className="table-scroll">
              <table>{children}</table>
            </div>
          ),
          pre: ({ children }) => <pre className="code-block">{children}</pre>,
          code: ({ className, children }) => {
            const lang = /language-([\w+#-]+)/.exec(className ?? "")?.[1];
            const code = String(children ?? "").replace(/\n$/, "");
            return lang ? <HighlightedCode code={code} lang={lang} /> : <code className={className}>{children}</code>;
          },
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
