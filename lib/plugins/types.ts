/**
 * The plugin contract. A plugin is `{ name, manifest, setup?(api, ctx), hooks? }`: its manifest
 * declares capabilities, and every contribution (`api.register*`, `hooks`) must be covered by
 * one. The same shape runs in-process (built-in, trusted plugins) and in a Web Worker sandbox
 * (workspace and user plugins), where everything crosses a JSON-only bridge.
 */
import type { AgentHooks } from "../agent/hooks";
import type { MessageBuilder } from "../agent/compaction";
import type { SlashCommand } from "../agent/session";
import type { ToolDefinition } from "../tools/define";

export const CAPABILITIES = ["hooks", "tools", "commands", "rules", "skills", "messageBuilders", "providers", "automationEvents", "mcp"] as const;
export type Capability = (typeof CAPABILITIES)[number];

export type PluginManifest = {
  capabilities: Capability[];
  /** Limit the plugin to these providers / models (its hooks, rules and builders do nothing elsewhere). */
  providerIds?: string[];
  modelIds?: string[];
};

/** A model provider: an OpenAI-compatible (default), OpenAI or Anthropic endpoint, listed in Models while the plugin runs. */
export type ProviderContribution = {
  id: string;
  name: string;
  description?: string;
  baseURL?: string;
  kind?: "openai-compatible" | "openai" | "anthropic";
  models?: string[];
  needsKey?: boolean;
  metadata?: Record<string, unknown>;
};
export type AutomationEventType = { eventType: string; source: string; description?: string };
export type McpServerContribution = { name: string; url: string; headers?: Record<string, string> };
export type RuleContribution = { id: string; content: string };

export interface PluginApi {
  registerTool(tool: ToolDefinition): void;
  registerCommand(command: SlashCommand): void;
  registerRule(rule: RuleContribution): void;
  registerMessageBuilder(builder: MessageBuilder): void;
  registerProvider(provider: ProviderContribution): void;
  registerAutomationEventType(type: AutomationEventType): void;
  registerMcpServer(server: McpServerContribution): void;
}

export type WorkspaceInfo = { rootPath: string; branch?: string; head?: string; remotes: { name: string; url: string }[] };

export interface PluginLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface PluginContext {
  workspaceInfo: WorkspaceInfo;
  /** `steer` adds a note the model reads with its next request (e.g. a background task ended). */
  session: { id: string; mode: string; steer?(text: string): void };
  logger: PluginLogger;
  /** Local-only counters (never leave the browser); absent when the host offers none. */
  telemetry?: { count(name: string, value?: number): void };
  /** Built-in (in-process) plugins only: the workspace's file system, for lib/git and friends. */
  workspace?: { fs: import("../fs/types").IsoFs; dir: string };
}

export interface Plugin {
  name: string;
  manifest: PluginManifest;
  setup?(api: PluginApi, ctx: PluginContext): void | Promise<void>;
  hooks?: AgentHooks;
  /**
   * In-process plugins only: paths absent from the agent's file view while the plugin is on
   * (lib/fs/hidden-view). Hiding only ever takes away from what the agent sees.
   */
  hiddenPaths?: import("../fs/hidden-view").HiddenPathRule;
}

/** What a loaded plugin contributes (in-process or proxied from a sandbox). */
export type Contributions = {
  tools: ToolDefinition[];
  commands: SlashCommand[];
  rules: RuleContribution[];
  builders: MessageBuilder[];
  providers: ProviderContribution[];
  automationEventTypes: AutomationEventType[];
  mcpServers: McpServerContribution[];
  hooks?: AgentHooks;
  hiddenPaths?: import("../fs/hidden-view").HiddenPathRule;
};

export type PluginSource = "built-in" | "workspace" | "user";
export type PluginState = { status: "loaded" } | { status: "failed"; error: string } | { status: "disabled" };
