/**
 * What a code file says it will do, found by reading its text: the capabilities in its manifest
 * and the `api.register*` calls it contains. This never evaluates or parses the code, so it can
 * be wrong in both directions (a plugin can build its manifest at run time); it is shown to the
 * user as *declared*, to help decide, and guarantees nothing — the manifest checks at load time do.
 */
import { fileHookEvent } from "./file-hooks";
import { HOOKS_DIR } from "./workspace-code";

export type DeclaredCode = { capabilities: string[]; registers: string[] };

const STRING = /["'`]([A-Za-z][\w-]*)["'`]/g;

export function declaredByText(path: string, text: string | undefined): DeclaredCode {
  if (path.startsWith(`${HOOKS_DIR}/`)) {
    const event = fileHookEvent(path.slice(HOOKS_DIR.length + 1));
    return { capabilities: event ? ["hooks"] : [], registers: event ? [`${event} hook`] : [] };
  }
  if (text === undefined) return { capabilities: [], registers: [] };
  const capabilities = new Set<string>();
  for (const m of text.matchAll(/capabilities\s*:\s*\[([^\]]*)\]/g)) for (const s of m[1]!.matchAll(STRING)) capabilities.add(s[1]!);
  const registers = new Set<string>();
  for (const m of text.matchAll(/\bregister(Tool|Command|Rule|MessageBuilder|Provider|AutomationEventType|McpServer)\s*\(\s*\{[^}]*?\bname\s*:\s*["'`]([^"'`]{1,64})["'`]/g)) registers.add(`${m[1]} ${m[2]}`);
  for (const m of text.matchAll(/\bregister(Tool|Command|Rule|MessageBuilder|Provider|AutomationEventType|McpServer)\s*\(/g)) {
    if (![...registers].some((r) => r.startsWith(`${m[1]} `))) registers.add(m[1]!);
  }
  if (/\bhooks\s*:\s*\{/.test(text)) for (const m of text.matchAll(/\b(beforeRun|afterRun|beforeModel|afterModel|beforeTool|afterTool|onEvent)\s*[:(]/g)) registers.add(`${m[1]} hook`);
  return { capabilities: [...capabilities], registers: [...registers] };
}
