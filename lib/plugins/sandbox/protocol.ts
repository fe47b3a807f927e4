/** What crosses the sandbox bridge (all JSON). */
import type { PluginManifest, ProviderContribution, AutomationEventType, McpServerContribution, RuleContribution } from "../types";
import type { HookPoint } from "../../agent/hooks";

export type ToolDescriptor = { name: string; description: string; inputSchema: Record<string, unknown>; effects: string[] };

export type PluginDescriptor = {
  name: string;
  manifest: PluginManifest;
  tools: ToolDescriptor[];
  commands: { name: string; description?: string }[];
  rules: RuleContribution[];
  builders: string[];
  providers: ProviderContribution[];
  automationEventTypes: AutomationEventType[];
  mcpServers: McpServerContribution[];
  hooks: HookPoint[];
};

/** The context a sandboxed tool gets: data, and calls back to the host (checked there). */
export type SandboxToolContext = { mode: string; readOnly: boolean; sessionId: string; toolCallId: string };

export type LoadParams = { name: string; source: string; ctx: { workspaceInfo: unknown; session: { id: string; mode: string } } };
