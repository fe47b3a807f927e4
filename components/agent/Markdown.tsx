"use client";
import ReactMarkdown from "react-markdown";

/**
 * Model text as markdown, safely: react-markdown never renders raw HTML, and links only open
 * http(s) in a new tab (no javascript: URLs). Code blocks keep their language as a label.
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        skipHtml
        urlTransform={(url) => (/^(https?:|mailto:|#)/i.test(url) ? url : "")}
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noreferrer noopener">
              {children}
            </a>
          ),
          pre: ({ children }) => <pre className="code-block">{children}</pre>,
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
