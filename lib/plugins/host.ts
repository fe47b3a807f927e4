/**
 * Plugins attached to an agent session: contributions are committed into the session (tools,
 * slash commands, rules, message builders after the built-in ones) and hooks into its
 * registry as `plugin:<name>`, after the mode guard, in load order. A failed plugin is
 * reported with its error and contributes nothing; a disabled one is detached.
 */
import type { AgentSession } from "../agent/session";
import type { AgentHooks, HookPoint } from "../agent/hooks";
import { errorResult, type ToolDefinition } from "../tools/define";
import { matchesTargeting } from "./manifest";
import type { Contributions, PluginManifest, PluginSource, PluginState, ProviderContribution } from "./types";

export type PluginEntry = {
  name: string;
  source: PluginSource;
  /** Where it came from (".tabula/plugins/x.js", "built-in"). */
  origin: string;
  sandboxed: boolean;
  /** Load it (run setup); returns its manifest and contributions. */
  load(): Promise<{ manifest: PluginManifest; contributions: Contributions }>;
  /** Release it (terminate its worker). */
  dispose?(): void;
  /** Contributions changed on the plugin's side (an MCP server's tool list): load it again. */
  watch?(onChange: () => void): () => void;
};

export type PluginStatus = {
  name: string;
  source: PluginSource;
  origin: string;
  sandboxed: boolean;
  manifest?: PluginManifest;
  state: PluginState;
  /** Contributions that were refused while the plugin loaded (a tool name already taken). */
  warnings?: string[];
};

type ModelInfo = { provider?: string; modelId?: string } | undefined;

export type HostSession = Pick<AgentSession, "hooks" | "extensions" | "id" | "state">;

export class PluginHost {
  private readonly entries = new Map<string, { entry: PluginEntry; status: PluginStatus; detach?: () => void; unwatch?: () => void }>();
  private readonly listeners = new Set<() => void>();
  readonly providers: ProviderContribution[] = [];

  constructor(
    private readonly session: HostSession,
    private readonly opts: {
      currentModel?: () => ModelInfo;
      hookTimeoutMs?: number;
      /** How to connect an MCP server a plugin registers (lib/plugins/mcp's mcpEntry). */
      mcpEntry?: (server: import("./types").McpServerContribution, plugin: string) => PluginEntry;
    } = {},
  ) {}

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed() {
    for (const fn of this.listeners) fn();
  }

  list(): PluginStatus[] {
    return [...this.entries.values()].map((e) => e.status);
  }

  /** Add and (unless disabled) load a plugin. Never throws: a failure is the plugin's state. */
  async add(entry: PluginEntry, enabled = true): Promise<PluginStatus> {
    const name = entry.name;
    if (this.entries.has(name)) await this.remove(name);
    const record: { entry: PluginEntry; status: PluginStatus; detach?: () => void; unwatch?: () => void } = {
      entry,
      status: { name, source: entry.source, origin: entry.origin, sandboxed: entry.sandboxed, state: { status: "disabled" } },
    };
    this.entries.set(name, record);
    if (enabled) await this.enable(name);
    else this.changed();
    return record.status;
  }

  async enable(name: string): Promise<void> {
    const rec = this.entries.get(name);
    if (!rec || rec.status.state.status === "loaded") return;
    try {
      const { manifest, contributions } = await rec.entry.load();
      const warnings: string[] = [];
      rec.detach = this.commit(name, manifest, contributions, warnings);
      rec.status = { ...rec.status, manifest, state: { status: "loaded" }, warnings: warnings.length ? warnings : undefined };
      rec.unwatch ??= rec.entry.watch?.(() => void this.refresh(name));
    } catch (e) {
      rec.entry.dispose?.();
      rec.status = { ...rec.status, state: { status: "failed", error: (e as Error).message } };
    }
    this.changed();
  }

  /** Load a loaded plugin again in place (its contributions changed), without releasing it. */
  async refresh(name: string): Promise<void> {
    const rec = this.entries.get(name);
    if (!rec || rec.status.state.status !== "loaded") return;
    try {
      const { manifest, contributions } = await rec.entry.load();
      if (this.entries.get(name) !== rec || rec.status.state.status !== "loaded") return;
      rec.detach?.();
      const warnings: string[] = [];
      rec.detach = this.commit(name, manifest, contributions, warnings);
      rec.status = { ...rec.status, manifest, warnings: warnings.length ? warnings : undefined };
    } catch (e) {
      rec.detach?.();
      rec.detach = undefined;
      rec.status = { ...rec.status, state: { status: "failed", error: (e as Error).message } };
    }
    this.changed();
  }

  disable(name: string): void {
    const rec = this.entries.get(name);
    if (!rec) return;
    rec.unwatch?.();
    rec.unwatch = undefined;
    rec.detach?.();
    rec.detach = undefined;
    rec.entry.dispose?.();
    rec.status = { ...rec.status, state: { status: "disabled" } };
    this.changed();
  }

  async remove(name: string): Promise<void> {
    this.disable(name);
    this.entries.delete(name);
    this.changed();
  }

  dispose(): void {
    for (const name of [...this.entries.keys()]) this.disable(name);
  }

  private commit(name: string, manifest: PluginManifest, c: Contributions, warnings: string[]): () => void {
    const applies = () => matchesTargeting(manifest, this.opts.currentModel?.());
    const offs: (() => void)[] = [];
    // A tool never silently replaces another one (built-in, or another plugin's).
    const taken = new Set(this.session.extensions.allTools.map((t) => t.name));
    for (const tool of c.tools) {
      if (taken.has(tool.name)) {
        warnings.push(`The tool ${tool.name} was not added: a tool of that name exists already.`);
        continue;
      }
      taken.add(tool.name);
      offs.push(this.session.extensions.addTool(gateTool(tool, name, applies)));
    }
    for (const cmd of c.commands) offs.push(this.session.extensions.registerCommand(cmd));
    if (applies()) for (const r of c.rules) offs.push(this.session.extensions.registerRule(`plugin:${name}:${r.id}`, r.content));
    for (const b of c.builders) offs.push(this.session.extensions.addMessageBuilder({ name: `${name}:${b.name}`, build: (msgs, ctx) => (applies() ? b.build(msgs, ctx) : msgs) }));
    for (const p of c.providers) this.providers.push(p);
    offs.push(() => {
      for (const p of c.providers) {
        const i = this.providers.indexOf(p);
        if (i !== -1) this.providers.splice(i, 1);
      }
    });
    if (this.opts.mcpEntry) {
      for (const server of c.mcpServers) {
        const entry = this.opts.mcpEntry(server, name);
        void this.add(entry);
        offs.push(() => void this.remove(entry.name));
      }
    }
    // Not gated by model targeting: hiding paths holds for every model.
    if (c.hiddenPaths) offs.push(this.session.extensions.hidePaths(c.hiddenPaths));
    if (c.hooks && Object.keys(c.hooks).length) {
      offs.push(this.session.hooks.register({ name: `plugin:${name}`, hooks: gateHooks(c.hooks, applies), timeoutMs: this.opts.hookTimeoutMs }));
    }
    return () => offs.splice(0).forEach((f) => f());
  }
}

function gateHooks(hooks: AgentHooks, applies: () => boolean): AgentHooks {
  const out: AgentHooks = {};
  for (const [point, fn] of Object.entries(hooks) as [HookPoint, (ctx: unknown) => unknown][]) {
    (out as Record<string, unknown>)[point] = (ctx: unknown) => (applies() ? fn(ctx) : undefined);
  }
  return out;
}

function gateTool(tool: ToolDefinition, plugin: string, applies: () => boolean): ToolDefinition {
  return {
    ...tool,
    execute: (input, ctx, plan) => (applies() ? tool.execute(input, ctx, plan) : Promise.resolve(errorResult(`The plugin ${plugin} does not apply to the current model.`))),
  };
}
